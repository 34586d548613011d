// Envelope checks (seed 2.1, 4, 7): each looks at every sampled response for one rule.
import { UNAUTHORIZED_MESSAGE } from "../../../runtime/envelope.ts";
import type { CheckContext } from "../../context.ts";
import { envelopeProblem, expectError, failWith, isJsonContentType, isSuccessCode, schemaProblem } from "../../expect.ts";
import { skip } from "../../outcome.ts";
import { fillPath } from "../../api.ts";
import type { Check } from "../../check.ts";
import { seedShapeChecks } from "./seed-shapes.ts";
import { SAMPLE_PREREQUISITES, samples, unknownWalletId, type Sample } from "./samples.ts";

/** Sampling takes a round of requests; the checks that share it get twice the time. */
const SAMPLING: Pick<Check, "awaits" | "timeoutScale"> = { awaits: [...SAMPLE_PREREQUISITES], timeoutScale: 2 };

function parsed(s: Sample): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(s.ex.response.text) as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const is2xx = (s: Sample) => s.ex.response.status >= 200 && s.ex.response.status < 300;

/** Applies `problem` to each sample; fails on the first sample with a problem, counting the rest. */
async function everySample(ctx: CheckContext, filter: (s: Sample) => boolean, none: string, problem: (s: Sample) => string | undefined): Promise<void> {
  const chosen = (await samples(ctx)).filter(filter);
  // The one way to a successful read at seed level is a record the run is given.
  if (chosen.length === 0) skip(none, none === NO_SUCCESS ? "--wallet-id or --workspace-id" : undefined);
  const bad = chosen.map((s) => ({ s, p: problem(s) })).filter((x) => x.p !== undefined);
  if (bad.length > 0) {
    const { s, p } = bad[0];
    const more = bad.length > 1 ? ` (${bad.length} of ${chosen.length} responses; also ${bad.slice(1, 4).map((b) => b.s.op.operationId).join(", ")})` : "";
    failWith(s.ex, `${s.label}: ${p}${more}`);
  }
}

const NO_SUCCESS = "no successful read to examine (pass --wallet-id or --workspace-id at seed level)";

export const successShape: Check = {
  id: "envelope.success-shape",
  skipsWithout: [["wallet", "workspace"]],
  statements: ["s2.1.envelope-success", "s2.1.envelope-message", "s2.1.envelope-code", "s2.1.envelope-data", "s2.1.envelope-everywhere", "s4.success-envelope"],
  ...SAMPLING,
  group: "envelope",
  title: "Success responses are the envelope with success true, code 0 (integer or string) and the data",
  severity: "MUST",
  seedRef: "§2.1",
  level: "seed",
  run: (ctx) =>
    everySample(ctx, is2xx, NO_SUCCESS, (s) => {
      const body = parsed(s);
      const shape = envelopeProblem(body);
      if (shape) return `not the envelope: ${shape}`;
      if (body!.success !== true) return "success is not true";
      if (!isSuccessCode(body!.code)) return `code is ${JSON.stringify(body!.code)}, not 0 (or "0")`;
      if (typeof body!.data !== "object") return `data is ${JSON.stringify(body!.data).slice(0, 40)}, not an object, an array or null (seed 2.1)`;
      return undefined;
    }),
};

export const errorShape: Check = {
  id: "envelope.error-shape",
  statements: ["s2.1.envelope-success", "s2.1.envelope-data", "s2.1.envelope-everywhere", "s4.two-errors-ops-3-5-6-7", "s7.other-errors", "s7.every-error-shape"],
  ...SAMPLING,
  group: "envelope",
  title: "Error responses are the envelope with success false and data null",
  severity: "MUST",
  seedRef: "§2.1; §7",
  level: "seed",
  run: (ctx) =>
    everySample(ctx, (s) => !is2xx(s), "no error response to examine", (s) => {
      const body = parsed(s);
      const shape = envelopeProblem(body);
      if (shape) return `not the envelope: ${shape}`;
      if (body!.success !== false) return "success is not false";
      if (body!.data !== null) return "data is not null";
      return undefined;
    }),
};

export const successIff2xx: Check = {
  id: "envelope.success-iff-2xx",
  statements: ["s2.1.envelope-success"],
  ...SAMPLING,
  group: "envelope",
  title: "success is true exactly when the HTTP status is 2xx",
  severity: "MUST",
  seedRef: "§2.1",
  level: "seed",
  run: (ctx) =>
    everySample(ctx, () => true, "no response to examine", (s) => {
      const body = parsed(s);
      if (!body || typeof body.success !== "boolean") return "no boolean success member";
      return body.success !== is2xx(s) ? `success is ${body.success} on HTTP ${s.ex.response.status}` : undefined;
    }),
};

export const jsonContentType: Check = {
  id: "envelope.json-content-type",
  statements: ["s2.1.envelope-everywhere"],
  ...SAMPLING,
  group: "envelope",
  title: "Every response is declared as application/json",
  // The seed never names the wallet API's content type; its answers are JSON envelopes, whose media
  // type is application/json (RFC 8259): a SHOULD, which the charset does not enter.
  severity: "SHOULD",
  seedRef: "§2.1 (every answer is the JSON envelope; JSON's media type is application/json, RFC 8259)",
  level: "seed",
  run: (ctx) =>
    everySample(ctx, () => true, "no response to examine", (s) =>
      isJsonContentType(s.ex) ? undefined : `content-type is ${s.ex.response.headers["content-type"] ?? "missing"}`,
    ),
};

export const responseSchema: Check = {
  id: "envelope.response-schema",
  statements: ["s1.balances-per-wallet-and-asset", "s1.other-groups", "s2.2.wallet-balance", "s2.2.wallet-balance-refreshed-at", "s2.3.asset", "s2.4.network", "s2.5.withdrawal", "s2.6.wallet-creation-status", "s4.op1-wallet-overview", "s4.op2-wallet-asset-balance", "s4.op3-get-withdrawal", "s4.op4-list-wallet-withdrawals", "s4.op5-wallet-creation-status"],
  ...SAMPLING,
  group: "envelope",
  title: "Response data matches the generated schema of its operation and status",
  severity: "MUST",
  // The generated schemas carry the spec's choices where the seed is silent (enums, id formats);
  // the seed's own field types are checked at seed level by envelope.seed-*-fields.
  seedRef: "§2; §4; assumed: the spec's schemas",
  level: "full",
  run: (ctx) =>
    everySample(ctx, () => true, "no response to examine", (s) => {
      const body = parsed(s);
      if (!body) return "body is not a JSON object";
      return schemaProblem(s.op, s.ex.response.status, body);
    }),
};

export const declaredStatus: Check = {
  id: "envelope.declared-status",
  statements: ["s4.statuses-shown", "s4.two-errors-ops-3-5-6-7"],
  ...SAMPLING,
  group: "envelope",
  title: "Every status returned is declared for its operation",
  severity: "MUST",
  // The seed leaves the statuses of most error envelopes open (section 7), so this is the spec's choice.
  seedRef: "§4 (statuses shown per operation); assumed: the spec's statuses",
  level: "full",
  run: (ctx) =>
    everySample(ctx, () => true, "no response to examine", (s) =>
      s.op.declaredStatuses.length === 0 || s.op.declaredStatuses.includes(s.ex.response.status)
        ? undefined
        : `HTTP ${s.ex.response.status} is not declared for ${s.op.operationId} (declared: ${s.op.declaredStatuses.join(", ")})`,
    ),
};

export const unauthorizedMessage: Check = {
  id: "envelope.unauthorized-envelope",
  statements: ["s2.1.envelope-message", "s2.1.envelope-code", "s4.statuses-shown", "s5.rule1-401-envelope", "s7.auth-failed"],
  ...SAMPLING,
  group: "envelope",
  title: "A 401 says message \"invalid api signature\" and code \"unauthorized\"",
  severity: "MUST",
  seedRef: "§5 rule 1; §7",
  level: "seed",
  run: (ctx) =>
    everySample(ctx, (s) => s.ex.response.status === 401, "no 401 response to examine", (s) => {
      const body = parsed(s);
      if (body?.message !== UNAUTHORIZED_MESSAGE) return `message is ${JSON.stringify(body?.message)}`;
      if (body?.code !== "unauthorized") return `code is ${JSON.stringify(body?.code)}`;
      return undefined;
    }),
};

export const notFoundOverview: Check = {
  id: "envelope.not-found-wallet",
  statements: ["s4.path-params-strings-required", "s4.op1-wallet-overview", "s4.op1-404", "s7.not-found"],
  group: "envelope",
  title: "The overview of an unknown wallet is 404 with the error envelope",
  severity: "MUST",
  seedRef: "§4 (operation 1: 404); §7",
  level: "seed",
  async run(ctx) {
    const op = ctx.operation("getWalletOverview");
    const ex = await ctx.api.send({ method: op.method, path: fillPath(op, { wallet_id: unknownWalletId() }), credentials: ctx.config.admin });
    expectError(ex, 404, undefined, "the overview of an unknown wallet");
  },
};

export const requestId: Check = {
  id: "envelope.request-id",
  ...SAMPLING,
  group: "envelope",
  title: "Every response carries an x-request-id header",
  severity: "SHOULD",
  seedRef: "assumed: x-request-id (the seed names no such header, so a full-level SHOULD)",
  level: "full",
  run: (ctx) =>
    everySample(ctx, () => true, "no response to examine", (s) => (s.ex.response.headers["x-request-id"] ? undefined : "no x-request-id header")),
};

export const invalidBody: Check = {
  id: "envelope.invalid-request",
  group: "envelope",
  title: "A malformed or invalid body is 400 with the error envelope",
  severity: "MUST",
  seedRef: "assumed: 400 with code 400",
  level: "full",
  async run(ctx) {
    const op = ctx.operation("createWallet");
    for (const [body, what] of [["{not json", "a body that is not JSON"], ['{"name":123}', "a name that is not a string"]] as const) {
      const ex = await ctx.api.send({ method: op.method, path: op.path, body, credentials: ctx.config.admin, headers: { "content-type": "application/json" } });
      expectError(ex, 400, 400, `createWallet with ${what}`);
    }
  },
};

export const envelopeChecks: Check[] = [
  ...seedShapeChecks,
  successShape,
  errorShape,
  successIff2xx,
  jsonContentType,
  responseSchema,
  declaredStatus,
  unauthorizedMessage,
  notFoundOverview,
  requestId,
  invalidBody,
];
