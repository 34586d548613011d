// One fuzz case of an operation: a request drawn from its schemas, maybe with one mutation, and the
// oracle's verdict on it (valid or not, and why). Cases are drawn from the operation's own seeded
// stream, so case i of a seed is the same on every run against the same fixtures.
import type { OperationInfo } from "../run/operations.ts";
import { specProblem, specRules } from "./constraints.ts";
import type { Prng } from "./prng.ts";
import { INPUT_PARTS, type InputPart, inputSchema, type JsonSchema, zodOf } from "./schema.ts";
import { type Flavor, type Mutation, mutations, nonAsciiUri, validValue } from "./values.ts";

export interface FuzzInput {
  params: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** The JSON body (undefined: none); `rawBody` wins when set (malformed JSON). */
  body?: unknown;
  rawBody?: string;
}

export interface FuzzCase extends FuzzInput {
  index: number;
  valid: boolean;
  /** Why the oracle finds it invalid (the first problem). */
  reason?: string;
  /** The change made to a valid draw, when there is one. */
  mutation?: { part: InputPart; path: string[]; what: string };
}

export interface CaseSource {
  op: OperationInfo;
  prng: Prng;
  /** Ids of existing records by parameter name (wallet_id, workspace_id, ...). */
  ids: Record<string, string>;
  /** Replace every id but the workspace with one nobody has (guarded operations). */
  placeholderIds: boolean;
  /** Whether valid cases may be sent (false: only invalid ones). */
  validAllowed: boolean;
}

const FLAVORS: readonly Flavor[] = ["typical", "boundary", "unicode"];

/** Draws case `index`; undefined when no sendable case came out (e.g. only valid ones, not allowed). */
export function drawCase(src: CaseSource, index: number): FuzzCase | undefined {
  for (let attempt = 0; attempt < 8; attempt++) {
    const c = drawOnce(src, index);
    if (c && (c.valid ? src.validAllowed : true)) return c;
  }
  return undefined;
}

function drawOnce(src: CaseSource, index: number): FuzzCase | undefined {
  const { op, prng } = src;
  const flavor: Flavor = index === 0 ? "typical" : prng.pick(FLAVORS);
  const input: FuzzInput = {
    params: textual(draw(op, "params", prng, flavor), (name, value) => idFor(src, name, value)),
    query: textual(draw(op, "query", prng, flavor)),
    headers: textual(draw(op, "headers", prng, "typical")),
  };
  if (op.bodySchema) input.body = draw(op, "body", prng, flavor);
  const mutate = !src.validAllowed || prng.bool(0.5);
  let mutation: FuzzCase["mutation"];
  if (mutate) {
    const picked = pickMutation(src, input);
    if (picked) {
      mutation = { part: picked.part, path: picked.mutation.path, what: picked.mutation.what };
      applyMutation(input, picked.part, picked.mutation);
    }
  }
  const verdict = judgeInput(op, input);
  return {
    ...input,
    index,
    valid: verdict === undefined,
    ...(verdict ? { reason: verdict } : {}),
    ...(mutation ? { mutation } : {}),
  };
}

function draw(op: OperationInfo, part: InputPart, prng: Prng, flavor: Flavor): unknown {
  const schema = inputSchema(op, part);
  return schema ? validValue(schema, prng, flavor) : part === "body" ? undefined : {};
}

/** Path, query and header values travel as text. */
function textual(value: unknown, map?: (name: string, value: string) => string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!value || typeof value !== "object") return out;
  for (const [name, v] of Object.entries(value as Record<string, unknown>)) {
    if (v === undefined) continue;
    const text = typeof v === "string" ? v : JSON.stringify(v);
    out[name] = map ? map(name, text) : text;
  }
  return out;
}

function idFor(src: CaseSource, name: string, drawn: string): string {
  if (src.placeholderIds && name !== "workspace_id") return randomUUIDFrom(src.prng);
  const known = src.ids[name];
  return known !== undefined && src.prng.bool(0.8) ? known : drawn;
}

/** A v4-shaped UUID from the seeded stream (an id no deployment has). */
function randomUUIDFrom(prng: Prng): string {
  const hex = prng.chars("0123456789abcdef", 32);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${"89ab"[prng.int(0, 3)]}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

interface Picked {
  part: InputPart;
  mutation: Mutation;
}

function pickMutation(src: CaseSource, input: FuzzInput): Picked | undefined {
  const all: Picked[] = [];
  for (const part of INPUT_PARTS) {
    const schema = inputSchema(src.op, part);
    if (!schema) continue;
    const value = part === "body" ? input.body : input[part];
    const isText = part !== "body";
    for (const m of mutations(schema as JsonSchema, value, { textual: isText })) {
      // An empty path segment changes the route, not the parameter; header values must stay ASCII.
      if (part === "params" && m.what.startsWith("an empty")) continue;
      if (part === "headers" && /pattern|non-ASCII/.test(m.what)) continue;
      all.push({ part, mutation: m });
    }
  }
  if (src.op.bodySchema) {
    for (const path of specRules(src.op.operationId).uri)
      if (!path.includes("*")) all.push({ part: "body", mutation: nonAsciiUri(path) });
    all.push({ part: "body", mutation: { path: [], what: "a body that is not JSON", apply: () => RAW_MALFORMED } });
  }
  return all.length > 0 ? src.prng.pick(all) : undefined;
}

const RAW_MALFORMED = Symbol("malformed");

function applyMutation(input: FuzzInput, part: InputPart, m: Mutation): void {
  if (part === "body") {
    const next = m.apply(input.body);
    if (next === RAW_MALFORMED) input.rawBody = '{"certify": ';
    else input.body = next;
    return;
  }
  const next = m.apply(input[part]);
  input[part] = next && typeof next === "object" && !Array.isArray(next) ? textual(next) : {};
}

/** Undefined when the operation's schemas (and the spec's extra rules) accept the input; else why not. */
export function judgeInput(op: OperationInfo, input: FuzzInput): string | undefined {
  if (input.rawBody !== undefined) return "the body is not JSON";
  for (const part of INPUT_PARTS) {
    const schema = zodOf(op, part);
    if (!schema) continue;
    const value = part === "body" ? input.body : input[part];
    const result = schema.safeParse(value);
    if (!result.success) {
      const issue = result.error.issues[0];
      return `${part}${issue?.path.length ? `.${issue.path.join(".")}` : ""}: ${issue?.message ?? "invalid"}`;
    }
  }
  if (op.bodySchema) {
    const extra = specProblem(specRules(op.operationId), input.body);
    if (extra) return `body.${extra}`;
  }
  return undefined;
}

/** The body as sent. */
export function bodyText(op: OperationInfo, input: FuzzInput): string | undefined {
  if (input.rawBody !== undefined) return input.rawBody;
  if (!op.bodySchema) return undefined;
  return JSON.stringify(input.body ?? null);
}
