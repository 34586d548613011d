// Schema-driven cases for every operation (`certify --fuzz N`): N signed requests drawn from the
// operation's schemas, valid and invalid. A valid request never gets a 5xx and gets a declared status
// with a conforming envelope; an invalid one gets a 4xx error envelope. A failure is shrunk to the
// smallest case that still fails the same way and names the seed that reproduces it.
// Safety: operations that move funds, sign, delete or mint credentials get only invalid cases, with
// ids nobody has, unless --allow-writes (test networks and sandboxes only).
import type { CheckContext } from "../../context.ts";
import { responseProblems } from "../../expect.ts";
import { bodyText, drawCase, judgeInput, type FuzzCase, type FuzzInput } from "../../fuzz/cases.ts";
import { Prng } from "../../fuzz/prng.ts";
import { removeAt } from "../../fuzz/values.ts";
import type { OperationInfo } from "../../operations.ts";
import { CheckFailed } from "../../outcome.ts";
import type { HttpExchange } from "../../probe.ts";
import type { Check } from "../../check.ts";
import type { Evidence, Level } from "../../types.ts";

export interface FuzzOptions {
  /** Cases per operation. */
  cases: number;
  seed: string;
  /** Send valid cases to guarded operations too. */
  allowWrites: boolean;
  /** Wall-clock budget of the whole fuzz run, in seconds (cases stop being drawn after it). */
  timeSeconds?: number;
}

/** Scopes whose operations move funds, sign, or create and revoke credentials. */
const GUARDED_SCOPES = new Set(["withdrawals:write", "withdrawals:approve", "signing:write", "api-keys:write"]);

/** True when a valid request to the operation could move funds, sign, delete or mint a key. */
export function isGuarded(op: OperationInfo): boolean {
  return op.method === "DELETE" || op.scopes.some((s) => GUARDED_SCOPES.has(s));
}

/** Id parameters the fuzzer fills with existing records when the run has them. */
const ID_FIXTURES = ["workspace", "wallet", "asset"] as const;

/**
 * One check per operation. At --level full every operation, MUST. At --level seed only the seed's
 * operations, as SHOULD: the seed states the envelope of answers, not how invalid input is refused.
 */
export function fuzzChecks(operations: OperationInfo[], options: FuzzOptions, level: Level = "full", after: string[] = []): Check[] {
  const deadline = options.timeSeconds !== undefined ? Date.now() + options.timeSeconds * 1000 : undefined;
  const inScope = level === "full" ? operations : operations.filter((op) => op.source === "seed");
  return inScope.map((op) => ({
    id: `fuzz.${op.operationId}`,
    group: "fuzz" as const,
    title: `${op.operationId}: ${options.cases} schema-driven cases; valid ones never 5xx, invalid ones get a 4xx envelope`,
    severity: level === "full" ? ("MUST" as const) : ("SHOULD" as const),
    seedRef: "§2.1 (every answer is the envelope); assumed: requests that break the schema are refused with 400",
    level,
    awaits: [...ID_FIXTURES],
    // After the rest of the suite: the records valid cases create (webhooks to unreachable URLs, wallets)
    // would otherwise slow the deliveries and chain watching other checks time.
    after,
    // N requests, each bounded by --timeout-ms; the check's own limit grows with N.
    timeoutScale: Math.max(1, options.cases / 20),
    sends: `${op.operationId}, ${options.cases} times, signed, with inputs drawn from its schemas (valid and invalid)`,
    run: (ctx) => fuzzOperation(ctx, op.operationId, options, deadline),
  }));
}

async function fuzzOperation(ctx: CheckContext, operationId: string, options: FuzzOptions, deadline?: number): Promise<void> {
  const op = ctx.operation(operationId);
  const guarded = isGuarded(op) && !options.allowWrites;
  const prng = new Prng(options.seed, op.operationId);
  const ids = await knownIds(ctx);
  let sent = 0;
  let valid = 0;
  for (let index = 0; index < options.cases; index++) {
    if ((deadline !== undefined && Date.now() > deadline) || ctx.signal.aborted) break;
    const c = drawCase({ op, prng, ids, placeholderIds: guarded, validAllowed: !guarded }, index);
    if (!c) continue;
    sent++;
    if (c.valid) valid++;
    const failure = await attempt(ctx, op, c);
    if (!failure) continue;
    const smallest = await shrink(ctx, op, c, failure);
    throw new CheckFailed(
      `${smallest.failure.message} — ${describe(smallest.case)}; seed ${options.seed}, case ${index} (reproduce: --fuzz ${options.cases} --seed ${options.seed} --only fuzz)`,
      { ...smallest.failure.evidence, details: { seed: options.seed, case: index, valid: smallest.case.valid, reason: smallest.case.reason, mutation: smallest.case.mutation, shrinkSteps: smallest.steps } },
    );
  }
  ctx.fact("fuzz", `${sent} cases (${valid} valid, ${sent - valid} invalid), seed ${options.seed}${guarded ? ", invalid only (guarded; --allow-writes)" : ""}`);
}

async function knownIds(ctx: CheckContext): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  const workspace = await ctx.settle("workspace");
  if (workspace.ok) ids.workspace_id = workspace.value;
  const wallet = await ctx.settle("wallet");
  if (wallet.ok) ids.wallet_id = wallet.value.walletId;
  const asset = await ctx.settle("asset");
  if (asset.ok) ids.asset_id = asset.value.assetId;
  return ids;
}

interface Failure {
  /** 5xx | accepted | conformance | transport: a shrunk case must fail the same way. */
  kind: string;
  message: string;
  evidence?: Evidence;
}

function describe(c: FuzzCase): string {
  const what = c.mutation ? `${c.mutation.part}${c.mutation.path.length ? `.${c.mutation.path.join(".")}` : ""}: ${c.mutation.what}` : "an unmutated draw";
  return c.valid ? `valid case (${what})` : `invalid case (${what}; ${c.reason})`;
}

async function attempt(ctx: CheckContext, op: OperationInfo, c: FuzzCase): Promise<Failure | undefined> {
  let ex: HttpExchange;
  try {
    ex = await ctx.call(op.operationId, { params: c.params, query: c.query, headers: c.headers, body: bodyText(op, c) });
  } catch (err) {
    if (err instanceof CheckFailed && !ctx.signal.aborted) return { kind: "transport", message: `no answer: ${err.message}`, evidence: err.evidence };
    throw err;
  }
  if (ex.response.status >= 200 && ex.response.status < 300) tidyCreated(ctx, op, c, ex);
  return judgeAnswer(op, c, ex);
}

/** Operations whose records a valid case creates, and how to remove them after the run. */
const UNDO: Record<string, { operationId: string; idParam: string }> = {
  createWebhook: { operationId: "deleteWebhook", idParam: "webhook_id" },
  createApiKey: { operationId: "revokeApiKey", idParam: "key_id" },
};

/** A secret in an answer joins the redaction list at once; created webhooks and keys are removed at the end. */
function tidyCreated(ctx: CheckContext, op: OperationInfo, c: FuzzCase, ex: HttpExchange): void {
  let data: Record<string, unknown> | undefined;
  try {
    data = (JSON.parse(ex.response.text) as { data?: Record<string, unknown> }).data;
  } catch {
    return;
  }
  if (!data || typeof data !== "object") return;
  for (const field of ["secret", "api_secret"]) if (typeof data[field] === "string") ctx.redactor.addSecret(data[field] as string);
  const undo = UNDO[op.operationId];
  if (undo && typeof data.id === "string") {
    const params = { workspace_id: c.params.workspace_id, [undo.idParam]: data.id };
    ctx.suite.removeAtEnd(`${op.operationId} record ${data.id} (fuzz)`, undo.operationId, { params });
  }
}

/** What is wrong with the answer to this case, or undefined. */
export function judgeAnswer(op: OperationInfo, c: FuzzCase, ex: HttpExchange): Failure | undefined {
  const status = ex.response.status;
  const kind = c.valid ? "valid" : "invalid";
  if (status >= 500) return { kind: "5xx", message: `HTTP ${status} to a ${kind} request of ${op.operationId}`, evidence: ex.evidence };
  if (!c.valid && status < 400) return { kind: "accepted", message: `HTTP ${status} to an invalid request of ${op.operationId}: it must be refused with a 4xx`, evidence: ex.evidence };
  const problems = responseProblems(op, ex);
  if (problems.length > 0) return { kind: "conformance", message: `${op.operationId} answered a ${kind} request wrongly: ${problems.join("; ")}`, evidence: ex.evidence };
  return undefined;
}

const SHRINK_BUDGET = 30;

/** Smaller variants of a case (one change each), largest first. */
function smaller(op: OperationInfo, c: FuzzCase): FuzzInput[] {
  const out: FuzzInput[] = [];
  const keep = c.mutation ? c.mutation.path.join(".") : "";
  const on = (part: string, path: string[]) => c.mutation?.part === part && (keep.startsWith(path.join(".")) || path.join(".").startsWith(keep));
  if (c.rawBody === undefined && c.body && typeof c.body === "object" && !Array.isArray(c.body)) {
    for (const name of Object.keys(c.body)) {
      if (!on("body", [name])) out.push({ ...c, body: removeAt(c.body, [name]) });
    }
    for (const [name, value] of Object.entries(c.body as Record<string, unknown>)) {
      if (typeof value === "string" && value.length > 8 && !on("body", [name])) out.push({ ...c, body: { ...(c.body as object), [name]: value.slice(0, Math.ceil(value.length / 2)) } });
    }
  }
  for (const name of Object.keys(c.query)) {
    if (!on("query", [name])) {
      const query = { ...c.query };
      delete query[name];
      out.push({ ...c, query });
    }
  }
  void op;
  return out;
}

async function shrink(ctx: CheckContext, op: OperationInfo, start: FuzzCase, failure: Failure): Promise<{ case: FuzzCase; failure: Failure; steps: number }> {
  let current = start;
  let currentFailure = failure;
  let budget = SHRINK_BUDGET;
  let steps = 0;
  let improved = true;
  while (improved && budget > 0 && !ctx.signal.aborted) {
    improved = false;
    for (const input of smaller(op, current)) {
      if (budget-- <= 0) break;
      const verdict = judgeInput(op, input);
      if ((verdict === undefined) !== current.valid) continue;
      const candidate: FuzzCase = { ...input, index: current.index, valid: current.valid, ...(verdict ? { reason: verdict } : {}), ...(current.mutation ? { mutation: current.mutation } : {}) };
      const again = await attempt(ctx, op, candidate).catch(() => undefined);
      if (again && again.kind === currentFailure.kind) {
        current = candidate;
        currentFailure = again;
        steps++;
        improved = true;
        break;
      }
    }
  }
  return { case: current, failure: currentFailure, steps };
}
