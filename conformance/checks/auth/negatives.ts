// Each negative check breaks exactly one part of an otherwise valid signed request.
import { HMAC_HEADERS, unixSeconds } from "../../../runtime/http/hmac.ts";
import type { Check } from "../check.ts";
import { macHex, negativeCheck, randomKeyId, randomSecret, signed, without } from "./matrix.ts";

const K = HMAC_HEADERS.key;
const T = HMAC_HEADERS.timestamp;
const S = HMAC_HEADERS.signature;
const SEED5 = "§5 rule 1";
// Outside the ±300 s window with a margin, so ordinary clock skew cannot make the check flaky.
const OUTSIDE_WINDOW_S = 360;
// Far outside any window a deployment could choose: the seed leaves the tolerance open (§8), not its absence.
const A_DAY_S = 86_400;
/**
 * Why the signing-input checks are seed MUSTs: the seed refuses "missing or wrong credentials" (§5
 * rule 1), and a signature made for another method, path, body or timestamp is a wrong one for this
 * request. Which inputs are signed is the spec's (x-custody-hmac, after the real service's SDK); a
 * deployment that signs otherwise fails auth.valid-signature and the preflight first.
 */
const SIGNED_FOR_ANOTHER_REQUEST =
  "(a signature made for another request is a wrong credential; signed inputs as x-custody-hmac)";

/** No authentication headers at all. */
export const noCredentials = negativeCheck({
  id: "auth.no-credentials",
  statements: ["s4.all-need-auth", "s5.rule1-401-envelope"],
  title: "A request without any authentication header is refused with 401",
  seedRef: SEED5,
  sends: "every operation in scope without any ACCESS header",
  build: () => [{ label: "no authentication headers", headers: {} }],
});

/** ACCESS-API-KEY left out. */
export const missingApiKey = negativeCheck({
  id: "auth.missing-access-api-key",
  statements: ["s5.three-headers", "s5.access-api-key", "s5.rule1-401-envelope"],
  title: "A request without ACCESS-API-KEY is refused with 401",
  seedRef: SEED5,
  sends: "every operation in scope, signed, without ACCESS-API-KEY",
  build: (plan, creds) => [{ label: "ACCESS-API-KEY missing", headers: without(signed(plan, creds), K) }],
});

/** ACCESS-TIMESTAMP left out. */
export const missingTimestamp = negativeCheck({
  id: "auth.missing-access-timestamp",
  statements: ["s5.three-headers", "s5.rule1-401-envelope"],
  title: "A request without ACCESS-TIMESTAMP is refused with 401",
  seedRef: SEED5,
  sends: "every operation in scope, signed, without ACCESS-TIMESTAMP (also signed over an empty one)",
  build: (plan, creds) => [
    { label: "ACCESS-TIMESTAMP missing", headers: without(signed(plan, creds), T) },
    // A deployment that treats a missing timestamp as empty (and skips the window) accepts this one.
    {
      label: "ACCESS-TIMESTAMP missing, signed over an empty timestamp",
      headers: without(signed(plan, creds, { timestamp: "" }), T),
    },
  ],
});

/** ACCESS-SIGN left out. */
export const missingSign = negativeCheck({
  id: "auth.missing-access-sign",
  statements: ["s5.three-headers", "s5.rule1-401-envelope"],
  title: "A request without ACCESS-SIGN is refused with 401",
  seedRef: SEED5,
  sends: "every operation in scope without ACCESS-SIGN",
  build: (plan, creds) => [{ label: "ACCESS-SIGN missing", headers: without(signed(plan, creds), S) }],
});

/** Each of the three headers present but empty. */
export const emptyHeaders = negativeCheck({
  id: "auth.empty-headers",
  statements: ["s5.rule1-401-envelope"],
  title: "An empty ACCESS-API-KEY, ACCESS-TIMESTAMP or ACCESS-SIGN is refused with 401",
  seedRef: SEED5,
  sends: "every operation in scope with ACCESS-API-KEY, ACCESS-TIMESTAMP or ACCESS-SIGN empty",
  build: (plan, creds) =>
    [K, T, S].map((name) => ({ label: `${name} empty`, headers: { ...signed(plan, creds), [name]: "" } })),
});

/** A key id the deployment never issued, signed with a secret. */
export const unknownKey = negativeCheck({
  id: "auth.unknown-key",
  statements: ["s5.access-api-key", "s5.rule1-401-envelope"],
  title: "An unknown API key id is refused with 401",
  seedRef: SEED5,
  sends: "every operation in scope signed under a key id nobody issued",
  build: (plan, creds) => [{ label: "an unknown key id", headers: { ...signed(plan, creds), [K]: randomKeyId() } }],
});

/** The right key id, signed with another secret. */
export const wrongSecret = negativeCheck({
  id: "auth.wrong-secret",
  statements: ["s5.access-sign", "s5.rule1-401-envelope"],
  title: "A signature made with the wrong secret is refused with 401",
  seedRef: SEED5,
  sends: "every operation in scope signed with a random secret",
  build: (plan, creds) => [
    { label: "a wrong secret", headers: signed(plan, { apiKey: creds.apiKey, apiSecret: randomSecret() }) },
  ],
});

/** Signed for another HTTP method than the one sent. */
export const otherMethod = negativeCheck({
  id: "auth.signed-other-method",
  statements: ["s5.rule1-401-envelope"],
  title: "A signature over another method is refused with 401",
  seedRef: `${SEED5} ${SIGNED_FOR_ANOTHER_REQUEST}`,
  sends: "every operation in scope signed over the other method (GET ↔ POST)",
  build: (plan, creds) => [
    {
      label: "a signature over another method",
      headers: signed(plan, creds, { method: plan.method === "GET" ? "POST" : "GET" }),
    },
  ],
});

/** Signed for another path than the one sent. */
export const otherPath = negativeCheck({
  id: "auth.signed-other-path",
  statements: ["s5.rule1-401-envelope"],
  title: "A signature over another path is refused with 401",
  seedRef: `${SEED5} ${SIGNED_FOR_ANOTHER_REQUEST}`,
  sends: "every operation in scope signed over another path, and over the path without /api/v1",
  build: (plan, creds) => [
    { label: "a signature over another path", headers: signed(plan, creds, { path: "/api/v1/certify/other-path" }) },
    {
      label: "a signature over the path without /api/v1",
      headers: signed(plan, creds, { path: plan.path.replace(/^\/api\/v1/, "") }),
    },
  ],
});

/** Signed over another body than the one sent (or a body when none is sent). */
export const otherBody = negativeCheck({
  id: "auth.signed-other-body",
  statements: ["s5.rule1-401-envelope"],
  title: "A signature over another body is refused with 401",
  seedRef: `${SEED5} ${SIGNED_FOR_ANOTHER_REQUEST}`,
  sends: "every operation in scope signed over another body",
  build: (plan, creds) => [
    { label: "a signature over another body", headers: signed(plan, creds, { body: '{"certify":"other body"}' }) },
  ],
});

/** Signed over another timestamp than the one sent. */
export const otherTimestamp = negativeCheck({
  id: "auth.signed-other-timestamp",
  statements: ["s5.rule1-401-envelope"],
  title: "A signature over another timestamp than ACCESS-TIMESTAMP is refused with 401",
  seedRef: `${SEED5} ${SIGNED_FOR_ANOTHER_REQUEST}`,
  sends: "every operation in scope signed over the second before ACCESS-TIMESTAMP",
  build: (plan, creds) => {
    const now = unixSeconds();
    return [
      {
        label: "a signature over another timestamp",
        headers: { ...signed(plan, creds, { timestamp: now - 1 }), [T]: String(now) },
      },
    ];
  },
});

/** The body changed after signing: one added space, then one added member. */
export const bodyTampered = negativeCheck({
  id: "auth.body-tampered",
  statements: ["s5.rule1-401-envelope"],
  title: "A body changed after signing (even by whitespace), or left out of the signature, is refused with 401",
  seedRef: `${SEED5} ${SIGNED_FOR_ANOTHER_REQUEST}`,
  withBodyOnly: true,
  sends: "every operation with a body: a space added after signing, a member added, a signature made without the body",
  build: (plan, creds) => {
    const headers = signed(plan, creds);
    const body = plan.body ?? "{}";
    const extended =
      body.trim().startsWith("{") && body.trim() !== "{}"
        ? body.replace(/}\s*$/, ',"certify":true}')
        : '{"certify":true}';
    return [
      { label: "one space added to the body after signing", headers, body: `${body} ` },
      { label: "a member added to the body after signing", headers, body: extended },
      // A deployment that leaves the body out of the string to sign accepts this one.
      { label: "a signature made without the body", headers: signed(plan, creds, { body: "" }) },
    ];
  },
});

/** A timestamp a day behind or a day ahead: far outside any tolerance, so a timestamp that checks something. */
export const timestampADayOff = negativeCheck({
  id: "auth.timestamp-a-day-off",
  statements: ["s5.access-timestamp", "s5.rule1-401-envelope"],
  title: "A timestamp a day in the past or a day in the future is refused with 401",
  // §8 leaves the tolerance open, not whether there is one: a timestamp accepted a day off checks
  // nothing, so a captured request replays for ever, which is a credential check missing (rule 1).
  seedRef: `§5 (ACCESS-TIMESTAMP, a Unix timestamp, is one of the three credentials); ${SEED5} (a timestamp accepted at any distance checks nothing: a captured request would replay for ever)`,
  sends: "every operation in scope signed with a timestamp a day old, and a day ahead",
  build: (plan, creds) => [
    { label: "a timestamp a day old", headers: signed(plan, creds, { timestamp: unixSeconds() - A_DAY_S }) },
    { label: "a timestamp a day ahead", headers: signed(plan, creds, { timestamp: unixSeconds() + A_DAY_S }) },
  ],
});

/** A timestamp just older than the spec's window. */
export const staleTimestamp = negativeCheck({
  id: "auth.stale-timestamp",
  // The seed leaves the accepted clock skew open (section 5 rule 4, section 8): the window is the spec's choice.
  statements: [],
  severity: "SHOULD",
  level: "full",
  title: `A timestamp ${OUTSIDE_WINDOW_S} s in the past is refused with 401`,
  seedRef: `${SEED5}; assumed: ±300 s window (the real service's docs/api-key-signing.md; the seed leaves the skew open, so a full-level SHOULD)`,
  sends: "every operation in scope signed with a timestamp 360 s old, and a day old",
  build: (plan, creds) => [
    {
      label: `a timestamp ${OUTSIDE_WINDOW_S} s old`,
      headers: signed(plan, creds, { timestamp: unixSeconds() - OUTSIDE_WINDOW_S }),
    },
  ],
});

/** A timestamp just ahead of the spec's window. */
export const futureTimestamp = negativeCheck({
  id: "auth.future-timestamp",
  // The seed leaves the accepted clock skew open (section 5 rule 4, section 8): the window is the spec's choice.
  statements: [],
  severity: "SHOULD",
  level: "full",
  title: `A timestamp ${OUTSIDE_WINDOW_S} s in the future is refused with 401`,
  seedRef: `${SEED5}; assumed: ±300 s window (the real service's docs/api-key-signing.md; the seed leaves the skew open, so a full-level SHOULD)`,
  sends: "every operation in scope signed with a timestamp 360 s ahead",
  build: (plan, creds) => [
    {
      label: `a timestamp ${OUTSIDE_WINDOW_S} s ahead`,
      headers: signed(plan, creds, { timestamp: unixSeconds() + OUTSIDE_WINDOW_S }),
    },
  ],
});

/** Milliseconds instead of seconds (the most common client mistake), correctly signed. */
export const timestampMilliseconds = negativeCheck({
  id: "auth.timestamp-milliseconds",
  statements: ["s5.access-timestamp"],
  title: "A timestamp in milliseconds is refused with 401",
  seedRef: "§5 (ACCESS-TIMESTAMP is Unix seconds)",
  sends: "every operation in scope signed with the timestamp in milliseconds",
  build: (plan, creds) => [
    { label: "a timestamp in milliseconds", headers: signed(plan, creds, { timestamp: Date.now() }) },
  ],
});

/** Timestamps that are not a number of seconds at all, each correctly signed as sent. */
export const timestampNotNumeric = negativeCheck({
  id: "auth.timestamp-not-numeric",
  statements: ["s5.access-timestamp"],
  title: "A timestamp that is not a number of seconds (an ISO date, a word) is refused with 401",
  seedRef: "§5 (ACCESS-TIMESTAMP is a Unix timestamp in seconds); §5 rule 1",
  sends: "every operation in scope signed with an ISO date and with `now` as ACCESS-TIMESTAMP",
  build: (plan, creds) =>
    [new Date(unixSeconds() * 1000).toISOString(), "now"].map((ts) => ({
      label: `ACCESS-TIMESTAMP ${JSON.stringify(ts)}`,
      headers: signed(plan, creds, { timestamp: ts }),
    })),
});

/** Numbers of seconds written otherwise than decimal digits: the spec's choice, so --level full. */
export const timestampDecimalDigits = negativeCheck({
  id: "auth.timestamp-decimal-digits",
  statements: [],
  level: "full",
  title: "A timestamp written otherwise than decimal digits (a fraction, a sign, hex) is refused with 401",
  seedRef: "§5; assumed: decimal digits only (x-custody-hmac; the seed says Unix seconds, not how they are written)",
  sends: "every operation in scope signed with a timestamp written as a fraction, with a sign, and in hex",
  build: (plan, creds) => {
    const now = unixSeconds();
    return [`${now}.0`, `+${now}`, `0x${now.toString(16)}`].map((ts) => ({
      label: `ACCESS-TIMESTAMP ${JSON.stringify(ts)}`,
      headers: signed(plan, creds, { timestamp: ts }),
    }));
  },
});

/** The signature sent as bare hex, or as text that is not base64 at all. */
export const signatureNotBase64 = negativeCheck({
  id: "auth.signature-not-base64",
  statements: ["s5.access-sign"],
  title: "A signature that is not base64 (bare hex, or garbage) is refused with 401",
  seedRef: "§5 (ACCESS-SIGN is base64 of the hex signature)",
  sends: "every operation in scope with ACCESS-SIGN as bare hex, and as text that is not base64",
  build: (plan, creds) => {
    const headers = signed(plan, creds);
    return [
      { label: "ACCESS-SIGN as bare hex", headers: { ...headers, [S]: macHex(plan, creds, headers[T]) } },
      { label: "ACCESS-SIGN not base64", headers: { ...headers, [S]: "%%not base64%%" } },
    ];
  },
});

/** base64 of the hex digest in upper case. */
export const uppercaseHex = negativeCheck({
  id: "auth.uppercase-hex",
  // The seed says "base64-encoded hex" without a case: upper-case hex is within it, so a full-level SHOULD.
  statements: [],
  severity: "SHOULD",
  level: "full",
  title: "A signature of upper-case hex is refused with 401",
  seedRef: "§5 (hex, case not fixed); assumed: lower-case hex, as the real service's SDK signs (a full-level SHOULD)",
  sends: "every operation in scope with ACCESS-SIGN as base64 of the upper-case hex",
  build: (plan, creds) => {
    const headers = signed(plan, creds);
    const upper = Buffer.from(macHex(plan, creds, headers[T]).toUpperCase(), "utf8").toString("base64");
    return [{ label: "ACCESS-SIGN over upper-case hex", headers: { ...headers, [S]: upper } }];
  },
});

/** base64 of the raw 32-byte digest instead of its hex text. */
export const rawDigest = negativeCheck({
  id: "auth.raw-digest-signature",
  statements: ["s5.access-sign"],
  title: "A signature encoded as base64 of the raw digest (not of its hex) is refused with 401",
  seedRef: "§5 (base64-encoded hex signature)",
  sends: "every operation in scope with ACCESS-SIGN as base64 of the raw 32-byte digest",
  build: (plan, creds) => {
    const headers = signed(plan, creds);
    const raw = Buffer.from(macHex(plan, creds, headers[T]), "hex").toString("base64");
    return [{ label: "ACCESS-SIGN as base64 of the raw digest", headers: { ...headers, [S]: raw } }];
  },
});

export const negativeChecks: Check[] = [
  noCredentials,
  missingApiKey,
  missingTimestamp,
  missingSign,
  emptyHeaders,
  unknownKey,
  wrongSecret,
  otherMethod,
  otherPath,
  otherBody,
  otherTimestamp,
  bodyTampered,
  timestampADayOff,
  staleTimestamp,
  futureTimestamp,
  timestampMilliseconds,
  timestampNotNumeric,
  timestampDecimalDigits,
  signatureNotBase64,
  uppercaseHex,
  rawDigest,
];
