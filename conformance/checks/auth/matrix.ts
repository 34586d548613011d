// The negative authentication matrix (seed 5 rule 1, brief "Request authentication"): for each
// operation, a request whose signature is right in every part but one must get 401 with the one
// unauthorized envelope. One check per broken part, so a report names exactly what leaked through.
import { createHmac, randomBytes } from "node:crypto";
import { HMAC_HEADERS, unixSeconds } from "../../../runtime/http/hmac.ts";
import type { Credentials } from "../../run/config.ts";
import type { CheckContext } from "../../run/context.ts";
import { authHeaders } from "../../transport/api.ts";
import type { HttpExchange } from "../../transport/probe.ts";
import type { Check } from "../check.ts";
import { expectUnauthorized } from "../expect.ts";
import { CheckFailed, skip } from "../outcome.ts";
import { knownIds, mapLimit, operationsInScope, planRequest, type RequestPlan } from "../request-plans.ts";
import type { Level, Severity } from "../types.ts";

/** One request to send: the headers (auth ones included), and optionally a different body or path. */
export interface AuthCase {
  label: string;
  headers: Record<string, string>;
  body?: string | undefined;
}

export type CaseBuilder = (plan: RequestPlan, creds: Credentials) => AuthCase[];

const PER_CHECK_CONCURRENCY = 6;

/** Sends one case for a plan; the body is the plan's unless the case replaces it. */
export function sendCase(ctx: CheckContext, plan: RequestPlan, c: AuthCase): Promise<HttpExchange> {
  const body = "body" in c ? c.body : plan.body;
  return ctx.api.sendRaw(plan.method, plan.path, { ...plan.headers, ...c.headers }, body, plan.query);
}

/** Correct headers for the plan, with optional overrides of the signed parts. */
export function signed(
  plan: RequestPlan,
  creds: Credentials,
  over: { method?: string; path?: string; body?: string; timestamp?: string | number } = {},
): Record<string, string> {
  const ts = over.timestamp ?? unixSeconds();
  const headers = authHeaders(
    creds,
    over.method ?? plan.method,
    over.path ?? plan.path,
    over.body ?? plan.body ?? "",
    ts,
  );
  headers[HMAC_HEADERS.timestamp] = String(ts);
  return headers;
}

/** The raw HMAC (hex) of a plan, to build wrongly encoded signatures from. */
export function macHex(plan: RequestPlan, creds: Credentials, timestamp: string): string {
  const message = `method=${plan.method}&path=${plan.path}&timestamp=${timestamp}&body=${plan.body ?? ""}`;
  return createHmac("sha256", Buffer.from(creds.apiSecret, "utf8")).update(message, "utf8").digest("hex");
}

export function without(headers: Record<string, string>, ...names: string[]): Record<string, string> {
  const out = { ...headers };
  for (const name of names) delete out[name];
  return out;
}

/** Defines one negative check over every operation in scope. */
export function negativeCheck(spec: {
  id: string;
  /** Seed statements (spec/trace.yaml ids) the check enforces. */
  statements: string[];
  title: string;
  seedRef: string;
  severity?: Severity;
  /** Default seed; full for a rule that enforces a choice the seed leaves open. */
  level?: Level;
  /** Only operations that carry a body (for body tampering). */
  withBodyOnly?: boolean;
  /** What the check sends, for the check catalog page. */
  sends: string;
  build: CaseBuilder;
}): Check {
  return {
    id: spec.id,
    group: "auth",
    title: spec.title,
    severity: spec.severity ?? "MUST",
    seedRef: spec.seedRef,
    level: spec.level ?? "seed",
    statements: spec.statements,
    sends: spec.sends,
    async run(ctx) {
      const ids = knownIds(ctx);
      const plans = operationsInScope(ctx)
        .map((op) => planRequest(op, ids))
        .filter((plan) => !spec.withBodyOnly || plan.body !== undefined);
      if (plans.length === 0)
        skip(spec.withBodyOnly ? "no operation with a request body in scope" : "no operation in scope");
      await failEachThatFails(ctx, plans, PER_CHECK_CONCURRENCY, async (plan) => {
        for (const c of spec.build(plan, ctx.config.admin)) {
          if (ctx.signal.aborted) break;
          expectUnauthorized(await sendCase(ctx, plan, c), `${plan.op.operationId} with ${c.label}`);
        }
      });
    },
  };
}

/**
 * Runs `task` for each item, `limit` at a time, and fails the check once, summing up every item whose
 * task failed a rule (CheckFailed); any other error propagates.
 */
export async function failEachThatFails<T>(
  ctx: CheckContext,
  items: T[],
  limit: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  const failures = (
    await mapLimit(
      items,
      limit,
      async (item) => {
        try {
          await task(item);
          return undefined;
        } catch (err) {
          if (err instanceof CheckFailed) return err;
          throw err;
        }
      },
      ctx.signal,
    )
  ).filter((f): f is CheckFailed => f !== undefined);
  if (failures.length > 0) throw summarize(failures, items.length);
}

/** One failure for a matrix row: the first reason and evidence, and how many operations failed. */
export function summarize(failures: CheckFailed[], total: number): CheckFailed {
  const first = failures[0];
  const more =
    failures.length > 1 ? ` (and ${failures.length - 1} more of ${total} operations)` : ` (1 of ${total} operations)`;
  const others = failures.slice(1, 6).map((f) => f.message.split(":")[0]);
  return new CheckFailed(`${first.message}${more}`, {
    ...first.evidence,
    details: others.length > 0 ? { also_failing: others } : first.evidence?.details,
  });
}

export function randomKeyId(): string {
  return `certify-unknown-${randomBytes(8).toString("hex")}`;
}

export function randomSecret(): string {
  return randomBytes(24).toString("base64url");
}
