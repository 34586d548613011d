// generated/types.ts: a type per component schema (interfaces for object shapes) and per operation
// its Params, Query, Headers, Body, Data, Error, Input and HandlerInput.

import { CUSTODY_NAMES } from "../model/custody-names.ts";
import { DIRECTIONS } from "../model/directions.ts";
import { propertyKey, toPascalCase } from "../model/names.ts";
import { isInterfaceShape } from "../model/schema-shape.ts";
import type {
  Direction,
  NamedSchema,
  OperationModel,
  ParameterModel,
  ResponseModel,
  Schema,
  SchemaObject,
} from "../model/types.ts";
import { codeJson } from "../spec-text.ts";
import { type EmitContext, type EmittedFile, headerStatement, typeContext } from "./context.ts";
import { printStatements, type Statement } from "./print.ts";
import { docText, objectShape, type TypeContext, tsType } from "./ts-type.ts";

export function emitTypes(ctx: EmitContext): EmittedFile {
  const tctx = typeContext(ctx);
  const statements: Statement[] = [headerStatement(ctx.headerLines)];
  // Each component, and its readOnly/writeOnly variants (see model/directions.ts), sorted by name.
  const components = ctx.model.schemas.flatMap((named) => [
    { name: named.typeName, named, tctx },
    ...DIRECTIONS.flatMap((direction) => {
      const variant = named.variants?.[direction];
      return variant === undefined ? [] : [{ name: variant.typeName, named, tctx: { ...tctx, direction } }];
    }),
  ]);
  components.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const { name, named, tctx: declared } of components)
    statements.push(componentDeclaration(name, named, declared));
  for (const op of ctx.model.operations) statements.push(...operationDeclarations(op, tctx));
  const events: TypeContext = { ...tctx, direction: "response" };
  for (const hook of ctx.model.webhooks) {
    if (hook.componentRef !== undefined) continue;
    statements.push(
      alias(hook.typeName, tsType(hook.schema, events), hook.summary ?? `Body of the ${hook.event} webhook event.`),
    );
  }
  return { path: "types.ts", content: printStatements(statements) };
}

function alias(name: string, type: string, docs?: string): Statement {
  return { kind: "typeAlias", structure: { name, isExported: true, type, docs: docs ? [docs] : undefined } };
}

/** A component's declaration, its docs said what the document calls it and which direction it types. */
function componentDeclaration(name: string, named: NamedSchema, tctx: TypeContext): Statement {
  return schemaTypeDeclaration(
    name,
    named.schema,
    tctx,
    variantDocs(renamedDocs(docText(named.schema), named), named, tctx.direction),
  );
}

/** Object shapes without composition become interfaces; everything else a type alias (types.ts and rpc.ts). */
export function schemaTypeDeclaration(
  name: string,
  schema: Schema,
  tctx: TypeContext,
  docs: string | undefined,
): Statement {
  if (!isInterfaceShape(schema, tctx.resolver)) return alias(name, tsType(schema, tctx), docs);
  const { properties, index } = objectShape(schema as SchemaObject, tctx);
  return {
    kind: "interface",
    structure: {
      name,
      isExported: true,
      docs: docs ? [docs] : undefined,
      properties: properties.map((p) => ({
        name: p.key,
        type: p.type,
        hasQuestionToken: p.optional,
        docs: p.docs ? [p.docs] : undefined,
      })),
      indexSignatures: index === undefined ? undefined : [{ keyName: "key", keyType: "string", returnType: index }],
    },
  };
}

/** A component whose name yielded to one of custody's own (see model/custody-names.ts) says what it is called in the document. */
function renamedDocs(docs: string | undefined, named: NamedSchema): string | undefined {
  const written = toPascalCase(named.originalName);
  if (!["", "Schema"].some((s) => CUSTODY_NAMES.includes(written + s))) return docs;
  const note = `The document's schema ${codeJson(named.originalName)}: custody's own code exports the name ${written}.`;
  return docs === undefined ? note : `${docs}\n\n${note}`;
}

/** A variant's doc says which values it types, after the component's own description. */
function variantDocs(
  docs: string | undefined,
  named: NamedSchema,
  direction: Direction | undefined,
): string | undefined {
  if (direction === undefined) return docs;
  const note =
    direction === "request"
      ? `${named.typeName} as a request sends it: without its readOnly properties.`
      : `${named.typeName} as the server sends it (responses, webhook events): without its writeOnly properties.`;
  return docs === undefined ? note : `${docs}\n\n${note}`;
}

// Written out: a component named "Record" would shadow the global in types.ts.
const EMPTY = "{ [key: string]: never }";

/** Undefined when there are none: no empty type is declared (inputs leave the part out). */
function parametersType(name: string, params: ParameterModel[], tctx: TypeContext): Statement | undefined {
  if (params.length === 0) return undefined;
  return {
    kind: "interface",
    structure: {
      name,
      isExported: true,
      properties: params.map((p) => ({
        name: propertyKey(p.key),
        type: tsType(p.schema, tctx),
        hasQuestionToken: !p.required,
        docs:
          p.description || p.deprecated
            ? [[p.description, p.deprecated ? "@deprecated" : undefined].filter(Boolean).join("\n")]
            : undefined,
      })),
    },
  };
}

function operationDeclarations(op: OperationModel, tctx: TypeContext): Statement[] {
  const n = op.names;
  const out: Statement[] = [
    parametersType(n.params, op.params.path, tctx),
    parametersType(n.query, op.params.query, tctx),
    parametersType(n.headers, op.params.header, tctx),
  ].filter((s): s is Statement => s !== undefined);
  const request: TypeContext = { ...tctx, direction: "request" };
  const response: TypeContext = { ...tctx, direction: "response" };
  if (op.body)
    out.push(
      alias(n.body, tsType(op.body.schema, request), op.body.description ?? `Request body of ${op.operationId}.`),
    );
  out.push(
    alias(
      n.data,
      dataType(op, response),
      `What ${op.operationId} returns on success${op.envelope ? " (the envelope's data)" : ""}.`,
    ),
  );
  out.push(alias(n.error, errorType(op, response), `Bodies of the error responses ${op.operationId} declares.`));
  const input = inputType(op, n.input, false);
  const handlerInput = inputType(op, n.handlerInput, true);
  out.push(input);
  // Nothing optional: what handlers receive is the client's input, declared once.
  out.push(
    sameShape(input, handlerInput)
      ? alias(n.handlerInput, n.input, `What the ${op.operationId} handler receives, parsed and validated.`)
      : handlerInput,
  );
  return out;
}

function successResponses(op: OperationModel): ResponseModel[] {
  const ok = op.responses.filter((r) => (r.code !== undefined && r.code >= 200 && r.code < 300) || r.status === "2XX");
  if (ok.length > 0) return ok;
  return op.responses.filter((r) => r.status === "default");
}

function dataType(op: OperationModel, tctx: TypeContext): string {
  const types = successResponses(op).map((r) =>
    r.schema === undefined ? "void" : tsType(r.dataSchema ?? r.schema, tctx),
  );
  const unique = [...new Set(types)];
  return unique.length === 0 ? "void" : unique.join(" | ");
}

function errorType(op: OperationModel, tctx: TypeContext): string {
  const ok = new Set(successResponses(op));
  const types = op.responses.filter((r) => !ok.has(r) && r.schema !== undefined).map((r) => tsType(r.schema, tctx));
  const unique = [...new Set(types)];
  return unique.length === 0 ? "unknown" : unique.join(" | ");
}

function sameShape(a: Statement, b: Statement): boolean {
  const strip = (s: Statement) =>
    JSON.stringify({ ...s, structure: { ...(s as { structure: object }).structure, name: "", docs: undefined } });
  return strip(a) === strip(b);
}

/** Input for the client (empty parts left out, optional parts optional) or for handlers (all present). */
function inputType(op: OperationModel, name: string, handler: boolean): Statement {
  const n = op.names;
  const members: { name: string; type: string; optional: boolean }[] = [];
  const part = (key: string, type: string, params: ParameterModel[]) => {
    if (params.length > 0) members.push({ name: key, type, optional: !handler && params.every((p) => !p.required) });
  };
  part("params", n.params, op.params.path);
  part("query", n.query, op.params.query);
  part("headers", n.headers, op.params.header);
  if (op.body) {
    const optional = !op.body.required;
    members.push({
      name: "body",
      type: handler && optional ? `${n.body} | undefined` : n.body,
      optional: !handler && optional,
    });
  }
  const docs = handler
    ? `What the ${op.operationId} handler receives, parsed and validated.`
    : `Input of ${op.operationId}.`;
  if (members.length === 0) return alias(name, EMPTY, docs);
  return {
    kind: "interface",
    structure: {
      name,
      isExported: true,
      docs: [docs],
      properties: members.map((m) => ({ name: m.name, type: m.type, hasQuestionToken: m.optional })),
    },
  };
}
