// Answers as the spec declares them: content type, schema, status, the 401 envelope, request ids.
import { UNAUTHORIZED_MESSAGE } from "../../../runtime/envelope.ts";
import type { Check } from "../check.ts";
import { isJsonContentType, schemaProblem } from "../expect.ts";
import { everySample, parsed, SAMPLING } from "./sample-verdicts.ts";

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
  sends: "the shared sample (every read signed, the overview unsigned and of an unknown wallet)",
  run: (ctx) =>
    everySample(
      ctx,
      () => true,
      "no response to examine",
      (s) =>
        isJsonContentType(s.ex) ? undefined : `content-type is ${s.ex.response.headers["content-type"] ?? "missing"}`,
    ),
};

export const responseSchema: Check = {
  id: "envelope.response-schema",
  statements: [
    "s1.balances-per-wallet-and-asset",
    "s1.other-groups",
    "s2.2.wallet-balance",
    "s2.2.wallet-balance-refreshed-at",
    "s2.3.asset",
    "s2.4.network",
    "s2.5.withdrawal",
    "s2.6.wallet-creation-status",
    "s4.op1-wallet-overview",
    "s4.op2-wallet-asset-balance",
    "s4.op3-get-withdrawal",
    "s4.op4-list-wallet-withdrawals",
    "s4.op5-wallet-creation-status",
  ],
  ...SAMPLING,
  group: "envelope",
  title: "Response data matches the generated schema of its operation and status",
  severity: "MUST",
  // The generated schemas carry the spec's choices where the seed is silent (enums, id formats);
  // the seed's own field types are checked at seed level by envelope.seed-*-fields.
  seedRef: "§2; §4; assumed: the spec's schemas",
  level: "full",
  sends: "the shared sample (every read signed, the overview unsigned and of an unknown wallet)",
  run: (ctx) =>
    everySample(
      ctx,
      () => true,
      "no response to examine",
      (s) => {
        const body = parsed(s);
        if (!body) return "body is not a JSON object";
        return schemaProblem(s.op, s.ex.response.status, body);
      },
    ),
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
  sends: "the shared sample (every read signed, the overview unsigned and of an unknown wallet)",
  run: (ctx) =>
    everySample(
      ctx,
      () => true,
      "no response to examine",
      (s) =>
        s.op.declaredStatuses.length === 0 || s.op.declaredStatuses.includes(s.ex.response.status)
          ? undefined
          : `HTTP ${s.ex.response.status} is not declared for ${s.op.operationId} (declared: ${s.op.declaredStatuses.join(", ")})`,
    ),
};

export const unauthorizedMessage: Check = {
  id: "envelope.unauthorized-envelope",
  statements: [
    "s2.1.envelope-message",
    "s2.1.envelope-code",
    "s4.statuses-shown",
    "s5.rule1-401-envelope",
    "s7.auth-failed",
  ],
  ...SAMPLING,
  group: "envelope",
  title: 'A 401 says message "invalid api signature" and code "unauthorized"',
  severity: "MUST",
  seedRef: "§5 rule 1; §7",
  level: "seed",
  sends: "the shared sample; examines its 401 answers",
  run: (ctx) =>
    everySample(
      ctx,
      (s) => s.ex.response.status === 401,
      "no 401 response to examine",
      (s) => {
        const body = parsed(s);
        if (body?.message !== UNAUTHORIZED_MESSAGE) return `message is ${JSON.stringify(body?.message)}`;
        if (body?.code !== "unauthorized") return `code is ${JSON.stringify(body?.code)}`;
        return undefined;
      },
    ),
};

export const requestId: Check = {
  id: "envelope.request-id",
  ...SAMPLING,
  group: "envelope",
  title: "Every response carries an x-request-id header",
  severity: "SHOULD",
  seedRef: "assumed: x-request-id (the seed names no such header, so a full-level SHOULD)",
  level: "full",
  sends: "the shared sample (every read signed, the overview unsigned and of an unknown wallet)",
  run: (ctx) =>
    everySample(
      ctx,
      () => true,
      "no response to examine",
      (s) => (s.ex.response.headers["x-request-id"] ? undefined : "no x-request-id header"),
    ),
};
