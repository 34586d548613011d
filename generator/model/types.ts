// The normalized model every emitter reads. Schemas stay OpenAPI schema objects (with their $refs),
// so emitters can name referenced components; everything else is resolved and sorted here.

/** An OpenAPI schema object (3.0 or 3.1), or a boolean schema (3.1). */
export type Schema = SchemaObject | boolean;

export interface SchemaObject {
  $ref?: string;
  type?: string | string[];
  format?: string;
  nullable?: boolean;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  description?: string;
  deprecated?: boolean;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: Schema;
  items?: Schema;
  prefixItems?: Schema[];
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  not?: Schema;
  discriminator?: { propertyName: string; mapping?: Record<string, string> };
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  multipleOf?: number;
  minItems?: number;
  maxItems?: number;
  [extension: string]: unknown;
}

import type { SpecProblem } from "../load/spec-error.ts";

export interface NamedSchema {
  /** "#/components/schemas/<original>" */
  ref: string;
  originalName: string;
  /** TypeScript name in types.ts (PascalCase, collision-free). */
  typeName: string;
  /** zod const name in schemas.ts: `${typeName}Schema`. */
  schemaName: string;
  schema: Schema;
  /** Part of a reference cycle: emitted as z.lazy with an explicit type. */
  recursive: boolean;
  /** Emitted as a plain z.object (so it can join a z.discriminatedUnion or be extended). */
  zodObject: boolean;
  pointer: string;
  /**
   * Direction variants, only for components whose closure has readOnly (request) or writeOnly
   * (response) properties: the same schema without those properties (see directions.ts).
   */
  variants?: Partial<Record<Direction, DirectionVariant>>;
}

/** Who sends the value: the client (request bodies) or the server (responses, webhook events). */
export type Direction = "request" | "response";

export interface DirectionVariant {
  typeName: string;
  schemaName: string;
  /** Emitted as a plain z.object (see NamedSchema.zodObject). */
  zodObject: boolean;
}

export type ParamLocation = "path" | "query" | "header" | "cookie";

export interface ParameterModel {
  name: string;
  /** Property name in the params/query/headers object (headers lower-cased, as node delivers them). */
  key: string;
  in: ParamLocation;
  required: boolean;
  schema: Schema;
  description?: string;
  deprecated?: boolean;
  /** Query arrays: repeated keys (true, the default) or comma-separated (false). */
  explode: boolean;
}

export interface BodyModel {
  required: boolean;
  mediaType: string;
  schema: Schema;
  description?: string;
}

export interface ResponseModel {
  /** "200", "4XX", "default". */
  status: string;
  /** Numeric status when the key is one. */
  code?: number;
  description?: string;
  mediaType?: string;
  /** Undefined when the response has no body. */
  schema?: Schema;
  /** Set when the body is an envelope {success, message, code, data}: the schema of `data`. */
  dataSchema?: Schema;
}

export interface OperationModel {
  /** As written in the spec, or derived from method and path when missing. */
  operationId: string;
  /** camelCase identifier: client method, handler and table key. */
  name: string;
  /** PascalCase prefix of the per-operation types and schemas. */
  typeBase: string;
  method: string;
  path: string;
  tag: string;
  summary?: string;
  description?: string;
  deprecated: boolean;
  pointer: string;
  params: Record<ParamLocation, ParameterModel[]>;
  body?: BodyModel;
  /** Sorted: numeric statuses ascending, then ranges, then default. */
  responses: ResponseModel[];
  successStatus: number;
  /** The response a successful call gets, chosen once for every emitter: successStatus's, else 2XX, else default. */
  success?: ResponseModel;
  /** Numeric statuses declared. */
  declaredStatuses: number[];
  /** True when the success response is an envelope. */
  envelope: boolean;
  scopes: string[];
  minRole: "viewer" | "admin" | "owner";
  source?: string;
  /** Safe to retry: GET/HEAD/PUT/DELETE/OPTIONS, or an Idempotency-Key header parameter. */
  idempotent: boolean;
  /** Security requirement names (alternatives of conjunctions); empty when none applies. */
  security: string[][];
  extensions: Record<string, unknown>;
  /** Set when the operation declares x-custody-pagination (see pagination.ts). */
  pagination?: PaginationModel;
  /** Names of the emitted per-operation declarations. */
  names: OperationNames;
}

/** A paged list (x-custody-pagination, style offset-limit). */
export interface PaginationModel {
  style: "offset-limit";
  offset: ParameterModel;
  limit: ParameterModel;
  /** The items pointer as written (into the response body). */
  itemsPointer: string;
  /** Property path from what the client returns (the envelope's data, or the body) to the items array. */
  itemsPath: string[];
  /** The limit parameter's schema default and maximum, when declared. */
  defaultLimit?: number;
  maxLimit?: number;
}

export interface OperationNames {
  params: string;
  query: string;
  headers: string;
  body: string;
  data: string;
  input: string;
  handlerInput: string;
  error: string;
  paramsSchema: string;
  querySchema: string;
  headersSchema: string;
  bodySchema: string;
  responseSchemas: string;
}

export interface HmacModel {
  schemeName: string;
  algorithm: string;
  headers: { key: string; timestamp: string; signature: string };
  windowSeconds: number;
  raw: Record<string, unknown>;
}

export interface SecurityModel {
  schemes: { name: string; type: string; in?: string; headerName?: string; scheme?: string }[];
  /** The x-custody-hmac scheme, when the spec declares one. */
  hmac?: HmacModel;
}

export interface WebhookModel {
  /** Event type: the key under `webhooks:` (e.g. wallet.created). */
  event: string;
  operationId?: string;
  summary?: string;
  description?: string;
  schema: Schema;
  /** Type and zod names for this event's body. */
  typeName: string;
  schemaName: string;
  /** Set when the body schema is a direct component $ref (then no new declaration is emitted). */
  componentRef?: string;
}

export interface RpcMethodModel {
  name: string;
  /** camelCase-safe method name on the client (JSON-RPC names like eth_blockNumber are kept when valid). */
  clientName: string;
  summary?: string;
  params: { name: string; required: boolean; schema: Schema; description?: string }[];
  result?: { name: string; schema: Schema };
  typeBase: string;
  names: { params: string; result: string; paramsSchema: string; resultSchema: string };
}

export interface RpcModel {
  displayPath: string;
  sha256: string;
  title: string;
  methods: RpcMethodModel[];
  /** The OpenRPC document (component refs resolve against it). */
  document: Record<string, unknown>;
  schemas: NamedSchema[];
  /** Resolves the OpenRPC document's schemas. */
  resolver: ResolvedSchemas;
}

export interface SpecModel {
  displayPath: string;
  sha256: string;
  version: "3.0" | "3.1";
  title: string;
  apiVersion: string;
  clientName: string;
  document: Record<string, unknown>;
  /** Component schemas in emission order (dependencies first). */
  schemas: NamedSchema[];
  schemasByRef: Map<string, NamedSchema>;
  /** The resolved form of every schema (see resolve-schema.ts); both emitters print from it. */
  resolver: ResolvedSchemas;
  /** Keywords the generated validators do not express, and other things generate reports but accepts. */
  warnings: SpecProblem[];
  /** What --lenient repaired in the document. */
  repairs: SpecProblem[];
  operations: OperationModel[];
  security: SecurityModel;
  webhooks: WebhookModel[];
  /** Default webhook signature profile from x-custody-webhook-signature. */
  webhookProfile?: string;
  /** x-custody-webhook-delivery without its x-* annotations (time-out, schedule, isolation, targets). */
  webhookDelivery?: Record<string, unknown>;
  rpc?: RpcModel;
}

/**
 * What the model needs of the schema resolver: resolve-schema.ts's SchemaResolver implements it. Declared
 * here, so the model's types import nothing of the resolver (no circle of imports).
 */
export interface ResolvedSchemas {
  resolve(schema: Schema | undefined, pointer?: string): Schema;
  component(ref: string): NamedSchema | undefined;
  readonly report: { readonly errors: SpecProblem[]; readonly warnings: SpecProblem[] };
}
