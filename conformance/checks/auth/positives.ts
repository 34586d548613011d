// Positive controls: a valid signature is accepted, so the negative matrix cannot pass by refusing
// everything. "Accepted" means anything but 401 (a placeholder id may well be 404).
import { UNAUTHORIZED_BODY } from "../../../runtime/envelope.ts";
import { unixSeconds } from "../../../runtime/http/hmac.ts";
import { canonicalJson } from "../../../runtime/webhooks/signature.ts";
import type { CheckContext } from "../../run/context.ts";
import { isRead } from "../../run/operations.ts";
import type { HttpExchange } from "../../transport/probe.ts";
import type { Check } from "../check.ts";
import { envelopeProblem, failWith } from "../expect.ts";
import { fail, skip } from "../outcome.ts";
import { knownIds, mapLimit, operationsInScope, planRequest, type RequestPlan } from "../request-plans.ts";
import { failEachThatFails, randomKeyId, randomSecret, sendCase, signed } from "./matrix.ts";

// Inside the ±300 s window with a margin for clock skew between the runner and the target.
const NEAR_EDGE_S = 290;

function readPlans(ctx: CheckContext): RequestPlan[] {
  const ids = knownIds(ctx);
  return operationsInScope(ctx)
    .filter(isRead)
    .map((op) => planRequest(op, ids));
}

/** The read whose path parameters are all known, so it reaches a real record; else any read. */
function bestReadPlan(ctx: CheckContext): RequestPlan {
  const plans = readPlans(ctx);
  if (plans.length === 0) skip("no read operation in scope");
  return plans.find((p) => !p.path.includes("certify-missing")) ?? plans[0];
}

/** Past authentication: anything but 401, answered by the API (an envelope, not a proxy's page). */
function expectAccepted(ex: HttpExchange, what: string): void {
  if (ex.response.status === 401) failWith(ex, `${what} was refused with 401`);
  let body: unknown;
  try {
    body = JSON.parse(ex.response.text);
  } catch {
    failWith(ex, `${what} was not answered by the API: HTTP ${ex.response.status} is not JSON`);
  }
  const problem = envelopeProblem(body);
  if (problem) failWith(ex, `${what} was not answered with the envelope: ${problem}`);
}

/** Every read operation accepts a correctly signed request. */
export const validSignature: Check = {
  id: "auth.valid-signature",
  statements: [
    "s4.base-url",
    "s4.no-body-no-query",
    "s4.path-params-strings-required",
    "s5.three-headers",
    "s9.prefix",
  ],
  group: "auth",
  title: "A correctly signed request is accepted on every read operation (positive control)",
  severity: "MUST",
  seedRef: "§5",
  level: "seed",
  sends: "every read operation in scope, correctly signed",
  async run(ctx) {
    const plans = readPlans(ctx);
    if (plans.length === 0) skip("no read operation in scope");
    await failEachThatFails(ctx, plans, 6, async (plan) => {
      expectAccepted(
        await sendCase(ctx, plan, { label: "valid", headers: signed(plan, ctx.config.admin) }),
        `a correctly signed ${plan.op.operationId}`,
      );
    });
  },
};

/** The query string is not part of the string to sign (the spec's choice, so --level full). */
export const queryNotSigned: Check = {
  id: "auth.query-not-signed",
  group: "auth",
  title: "A query string is not signed: a request signed without it is accepted",
  severity: "MUST",
  seedRef: "§5; assumed: path without query string",
  // No seed operation takes a query (section 4) and the string to sign is not shown (section 5 rule 4).
  level: "full",
  sends: "reads with a query string (or one with ?certify=1), signed over the path alone",
  async run(ctx) {
    const withQuery = readPlans(ctx).filter((p) => p.query !== undefined);
    const plans = withQuery.length > 0 ? withQuery : [{ ...bestReadPlan(ctx), query: { certify: "1" } }];
    for (const plan of plans) {
      const ex = await sendCase(ctx, plan, {
        label: "signed without the query",
        headers: signed(plan, ctx.config.admin),
      });
      expectAccepted(ex, `${plan.op.operationId} with a query string, signed over the path alone,`);
    }
  },
};

/** Timestamps close to both edges of the ±300 s window are accepted. */
export const windowEdge: Check = {
  id: "auth.window-edge",
  statements: [],
  group: "auth",
  title: `Timestamps ${NEAR_EDGE_S} s in the past and in the future are accepted`,
  severity: "SHOULD", // the seed leaves the accepted clock skew open (section 5 rule 4, section 8)
  seedRef: "§5; assumed: ±300 s window, inclusive (the seed leaves the skew open, so a full-level SHOULD)",
  level: "full",
  sends: "one read signed with a timestamp 290 s old, then 290 s ahead",
  async run(ctx) {
    const plan = bestReadPlan(ctx);
    for (const offset of [-NEAR_EDGE_S, NEAR_EDGE_S]) {
      const ex = await sendCase(ctx, plan, {
        label: "near the edge",
        headers: signed(plan, ctx.config.admin, { timestamp: unixSeconds() + offset }),
      });
      expectAccepted(
        ex,
        `a timestamp ${Math.abs(offset)} s ${offset < 0 ? "old" : "ahead"} (if the target's clock is off by more than 10 s, this fails too)`,
      );
    }
  },
};

/**
 * Different failures, different operations: always the one 401 envelope, so nothing hints at what was
 * wrong. Compared as JSON values: the seed gives the envelope, not its serialization (bytes are
 * auth.canonical-401-body's, at full level).
 */
export const identical401: Check = {
  id: "auth.identical-401",
  statements: ["s4.all-need-auth", "s5.rule1-401-envelope", "s7.auth-failed"],
  group: "auth",
  title:
    "Every authentication failure gets the same 401 answer (same status and JSON envelope: no hint which part was wrong)",
  severity: "MUST",
  seedRef: "§5 rule 1; §7",
  level: "seed",
  sends: "every operation in scope with no credentials, an unknown key, a wrong secret and a timestamp an hour old",
  async run(ctx) {
    const ids = knownIds(ctx);
    const plans = operationsInScope(ctx).map((op) => planRequest(op, ids));
    if (plans.length === 0) skip("no operation in scope");
    const creds = ctx.config.admin;
    const variants = (plan: RequestPlan) => [
      { label: "no credentials", headers: {} },
      { label: "an unknown key", headers: { ...signed(plan, creds), "ACCESS-API-KEY": randomKeyId() } },
      { label: "a wrong secret", headers: signed(plan, { apiKey: creds.apiKey, apiSecret: randomSecret() }) },
      { label: "a stale timestamp", headers: signed(plan, creds, { timestamp: unixSeconds() - 3_600 }) },
    ];
    const seen = new Map<string, { label: string; ex: HttpExchange }>();
    await mapLimit(
      plans,
      6,
      async (plan) => {
        for (const v of variants(plan)) {
          const ex = await sendCase(ctx, plan, v);
          const key = `${ex.response.status}|${canonicalBody(ex.response.text)}`;
          if (!seen.has(key)) seen.set(key, { label: `${plan.op.operationId} with ${v.label}`, ex });
        }
      },
      ctx.signal,
    );
    if (seen.size > 1) {
      const [a, b] = [...seen.values()];
      fail(
        `authentication failures are answered in ${seen.size} different ways; e.g. ${a.label} → HTTP ${a.ex.response.status} ${a.ex.response.text.slice(0, 100)} but ${b.label} → HTTP ${b.ex.response.status} ${b.ex.response.text.slice(0, 100)}`,
        { ...b.ex.evidence, details: { other_request: a.ex.evidence.request, other_response: a.ex.evidence.response } },
      );
    }
    const only = [...seen.values()][0];
    if (only && only.ex.response.status !== 401)
      failWith(only.ex, `${only.label}: expected HTTP 401, got ${only.ex.response.status}`);
  },
};

/** The JSON value of a body with its members sorted (the text itself when it is not JSON). */
function canonicalBody(text: string): string {
  try {
    return canonicalJson(JSON.parse(text));
  } catch {
    return text;
  }
}

/** The 401 body is exactly the bytes the spec gives (same member order, no whitespace). */
export const canonical401Body: Check = {
  id: "auth.canonical-401-body",
  statements: [],
  group: "auth",
  title: "The 401 body is exactly the spec's serialized unauthorized envelope",
  severity: "SHOULD",
  seedRef: "§5 rule 1; assumed: serialized form (the seed gives the envelope, not its bytes, so a full-level SHOULD)",
  level: "full",
  sends: "one read without credentials",
  async run(ctx) {
    const plan = bestReadPlan(ctx);
    const ex = await sendCase(ctx, plan, { label: "no credentials", headers: {} });
    if (ex.response.text !== UNAUTHORIZED_BODY) failWith(ex, `401 body differs from ${UNAUTHORIZED_BODY}`);
  },
};

export const positiveChecks: Check[] = [validSignature, queryNotSigned, windowEdge, identical401, canonical401Body];
