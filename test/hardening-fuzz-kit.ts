// Shared by test/hardening-fuzz-server.test.ts, its .scale.test.ts (thousands of cases in CI) and
// scripts/fuzz.ts (the long run): fast-check arbitraries that build hostile HTTP/1.1 requests byte by
// byte for every operation of generated/operations.ts, a raw-socket client that sends exactly those
// bytes, and the checks every answer must pass. Requests are written by hand (not with fetch or
// http.request) so that malformed targets, invalid percent-encodings, duplicate headers and invalid
// UTF-8 reach the server unchanged.
import net from "node:net";
import fc from "fast-check";
import { type OperationEntry, operationList } from "../generated/operations.ts";
import { isFrontDoorPath } from "../reference/api/front-door.ts";
import { SANDBOX_ETH_ASSET_ID } from "../reference/domain/catalog.ts";
import { isEnvelope, UNAUTHORIZED_BODY } from "../runtime/envelope.ts";
import { computeSignature, unixSeconds } from "../runtime/http/hmac.ts";
import { createMatcher } from "../runtime/server/match.ts";
import { JSON_CONTENT_TYPE } from "../runtime/server/respond.ts";
import { splitTarget } from "../runtime/server/router.ts";

export interface Credential {
  key: string;
  secret: string;
}

/** What the arbitraries need to know about the target: where it is, who may call it, which ids exist. */
export interface FuzzTarget {
  host: string;
  port: number;
  workspaceId: string;
  keys: { owner: Credential; viewer: Credential; scoped: Credential };
  /** Ids of resources that exist (wallet, asset, webhook, delivery, withdrawal, a spare api key, ...). */
  knownIds: string[];
  /** The same ids by the path or query parameter that names them (wallet_id, asset_id, ...). */
  ids: Record<string, readonly string[]>;
  /** Ids that only one operation draws, over `ids` (deleteWebhook its own webhook, so the others keep theirs). */
  idsOf?: Record<string, Record<string, readonly string[]>>;
  /** A URL webhooks may be registered with (nothing listens there, so deliveries fail fast). */
  webhookUrl: string;
}

export type AuthMode =
  | "none"
  | "owner"
  | "viewer"
  | "scoped"
  | "bad-signature"
  | "unknown-key"
  | "stale"
  | "duplicate-sign"
  | "garbage";
const SIGNED_MODES: readonly AuthMode[] = ["owner", "viewer", "scoped"];

/** One request before it is signed and serialized. */
export interface RequestPlan {
  method: string;
  /** Request target (path and query) as raw bytes. */
  target: Buffer;
  /** Extra headers in order; names may repeat. */
  headers: [string, Buffer][];
  body: Buffer;
  framing: "length" | "chunked" | "none" | "length-and-chunked";
  auth: AuthMode;
  /** The operation the plan was made for (undefined for fully random requests). */
  operationId?: string;
}

export interface Answer {
  status: number;
  headers: [string, string][];
  body: Buffer;
}

export type Outcome =
  | { kind: "answer"; answer: Answer }
  | { kind: "timeout"; partial: number }
  | { kind: "closed"; partial: number; error?: string };

// ---------------------------------------------------------------- strings that must never be echoed

// Markers of a leaked stack trace or exception text. Generated strings have them removed, so that an
// input echoed in a validation message ("Unrecognized key: ...") can never look like a leak.
const LEAK_PATTERNS: readonly RegExp[] = [
  /\bat [\w.<>$]+ \(/,
  /\n\s+at /,
  /\.ts:\d/,
  /\.js:\d/,
  /Error:/,
  /node:internal/,
];
const LEAK_MARKERS = /Error:|\.ts:|\.js:|\bat |node:internal/gi;

function clean(s: string): string {
  return s.replace(LEAK_MARKERS, "_");
}

// ---------------------------------------------------------------- building blocks

const RESOURCE_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,24}$/;
const anyText = (maxLength: number) => fc.string({ unit: "binary", maxLength }).map(clean);
const asciiText = (maxLength: number) => fc.string({ unit: "binary-ascii", maxLength }).map(clean);

/** Percent-encodings that are invalid, overlong, or decode to something surprising. */
const ODD_ENCODINGS = [
  "%",
  "%z",
  "%zz",
  "%E0%A4",
  "%C0%AF",
  "%FF",
  "%FE%FF",
  "%00",
  "%0A",
  "%0D%0A",
  "%2e%2e",
  "%2E",
  "%2F",
  "%5C",
  "%25",
  "%u0041",
  "%ED%A0%80",
  "%F4%90%80%80",
];
const DOT_SEGMENTS = ["..", ".", "...", "%2e%2e", ".%2e", "%2e."];
const PROTOTYPE_WORDS = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "valueOf"];

/** One path segment: valid ids, known ids, encoded unicode, invalid encodings, dot segments, huge ones. */
function segmentArb(known: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...known) },
    { weight: 3, arbitrary: fc.stringMatching(RESOURCE_ID) },
    { weight: 2, arbitrary: anyText(24).map(encodeURIComponent) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        ...ODD_ENCODINGS,
        ...DOT_SEGMENTS,
        ...PROTOTYPE_WORDS,
        "",
        "a/b",
        "a%2Fb",
        "a;b",
        "a?b",
        "ü",
        "日本",
        "🚀",
      ),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.stringMatching(RESOURCE_ID), fc.constantFrom(...ODD_ENCODINGS)).map(([a, b]) => a + b),
    },
    { weight: 1, arbitrary: fc.integer({ min: 129, max: 20_000 }).map((n) => "w".repeat(n)) },
    { weight: 1, arbitrary: asciiText(16) },
  );
}

/** Fills the operation's path template; sometimes also bends the template itself. */
function pathArb(op: OperationEntry, known: readonly string[]): fc.Arbitrary<string> {
  const params = op.path.match(/\{[^}]+\}/g) ?? [];
  const filled = fc.array(segmentArb(known), { minLength: params.length, maxLength: params.length }).map((values) => {
    let i = 0;
    return op.path.replace(/\{[^}]+\}/g, () => values[i++] ?? "");
  });
  return fc.oneof(
    { weight: 12, arbitrary: filled },
    {
      weight: 3,
      arbitrary: fc
        .tuple(
          filled,
          fc.constantFrom(
            "trailing-slash",
            "double-slash",
            "extra-segment",
            "drop-last",
            "upper",
            "dots",
            "encoded-literal",
            "no-prefix",
          ),
        )
        .map(([p, bend]) => bendPath(p, bend)),
    },
    { weight: 1, arbitrary: fc.webPath() },
    { weight: 1, arbitrary: fc.array(segmentArb(known), { maxLength: 8 }).map((parts) => `/${parts.join("/")}`) },
  );
}

function bendPath(path: string, bend: string): string {
  switch (bend) {
    case "trailing-slash":
      return `${path}/`;
    case "double-slash":
      return path.replace("/api/v1/", "/api/v1//");
    case "extra-segment":
      return `${path}/extra`;
    case "drop-last":
      return path.slice(0, path.lastIndexOf("/")) || "/";
    case "upper":
      return path.toUpperCase();
    case "dots":
      return path.replace("/api/v1/", "/api/v1/../v1/./");
    case "encoded-literal":
      return path.replace("/api/", "/%61pi/");
    default:
      return path.replace("/api/v1", "");
  }
}

const QUERY_NAMES = [
  "network_id",
  "asset_id",
  "format",
  "from",
  "to",
  "webhook_id",
  "status",
  "__proto__",
  "constructor",
  "limit",
  "a[b]",
  "",
];
const QUERY_VALUES = [
  "json",
  "csv",
  "xml",
  "pending",
  "delivered",
  "failed",
  "2026-01-01T00:00:00Z",
  "2026-13-45T99:99:99Z",
  "not-a-date",
  SANDBOX_ETH_ASSET_ID,
  "net_sandbox",
  "",
  "%",
  "%zz",
  "%E0%A4",
  "+",
  "a+b",
  "&",
  "=",
];

function queryArb(known: readonly string[]): fc.Arbitrary<string> {
  const pair = fc.tuple(
    fc.oneof(fc.constantFrom(...QUERY_NAMES), asciiText(12).map(encodeURIComponent)),
    fc.oneof(
      fc.constantFrom(...QUERY_VALUES, ...known),
      anyText(30).map(encodeURIComponent),
      fc.integer({ min: 300, max: 9_000 }).map((n) => "q".repeat(n)),
    ),
    fc.boolean(),
  );
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant("") },
    {
      weight: 6,
      arbitrary: fc
        .array(pair, { maxLength: 5 })
        .map((pairs) => `?${pairs.map(([k, v, bare]) => (bare && v === "" ? k : `${k}=${v}`)).join("&")}`),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        "?",
        "??",
        "?&&&",
        "?=",
        "?a=1&a=2&a=3",
        "?asset_id=a&asset_id=b",
        "?format=json&format=csv",
        "?%",
        "?#frag",
      ),
    },
  );
}

// ---------------------------------------------------------------- bodies

const ETH = SANDBOX_ETH_ASSET_ID;
const SCOPES = [
  "*",
  "catalog:read",
  "wallets:read",
  "wallets:write",
  "balances:read",
  "withdrawals:read",
  "withdrawals:write",
  "withdrawals:approve",
  "transactions:read",
  "signing:write",
  "webhooks:read",
  "webhooks:write",
  "api-keys:read",
  "api-keys:write",
  "audit:read",
  "observability:read",
];

/** A body the operation's schema accepts (so that the handler runs), per operation with a body. */
function validBodyArb(operationId: string, target: FuzzTarget): fc.Arbitrary<Record<string, unknown>> | undefined {
  const name = anyText(100).filter((s) => s.length >= 1);
  switch (operationId) {
    case "createWallet":
      return fc.record({ name, wallet_type: fc.constantFrom("mpc", "standard") }, { requiredKeys: ["name"] });
    case "attachAsset":
      return fc.record({ asset_id: fc.oneof(fc.constant(ETH), fc.stringMatching(RESOURCE_ID)) });
    case "createWithdrawal":
      return fc.record(
        {
          asset_id: fc.oneof(fc.constant(ETH), fc.stringMatching(RESOURCE_ID)),
          amount: fc.oneof(
            fc.constantFrom("0.0001", "0.001", "0", "1", "1000000", "0.0000000000000000001"),
            fc.stringMatching(/^[0-9]{1,30}(\.[0-9]{1,25})?$/),
          ),
          recipient_address: fc.oneof(
            fc.constant("0x000000000000000000000000000000000000dEaD"),
            fc.stringMatching(/^0x[0-9a-fA-F]{40}$/),
          ),
          notes: anyText(500),
        },
        { requiredKeys: ["asset_id", "amount", "recipient_address"] },
      );
    case "approveWithdrawal":
      return fc.record({ comment: anyText(500) }, { requiredKeys: [] });
    case "rejectWithdrawal":
      return fc.record({ reason: anyText(500) }, { requiredKeys: [] });
    case "signMessage":
      return fc.oneof(
        fc.record(
          { message: anyText(4096).filter((s) => s.length >= 1), encoding: fc.constant("utf8") },
          { requiredKeys: ["message"] },
        ),
        fc.record({
          message: fc
            .oneof(fc.stringMatching(/^(0x)?([0-9a-f]{2}){0,40}$/), fc.stringMatching(/^[0-9a-fA-F]{1,9}$/))
            .filter((s) => s.length >= 1),
          encoding: fc.constant("hex"),
        }),
      );
    case "rescanTransaction":
      return fc.record({
        tx_hash: fc.oneof(
          fc.constant(target.ids.tx_hash?.[0] ?? `0x${"00".repeat(32)}`),
          fc.stringMatching(/^0x[0-9a-f]{64}$/),
        ),
        network_id: fc.constantFrom(...(target.ids.network_id ?? [])),
      });
    case "requestSign":
      return fc.oneof(
        fc.record({
          method: fc.constantFrom("eth_sign", "personal_sign"),
          message: anyText(1000),
          chain_id: fc.integer(),
        }),
        fc.record({
          method: fc.constant("eth_signTypedData_v4"),
          message: fc.constant(""),
          chain_id: fc.integer(),
          typed_data: fc.oneof(
            anyText(200),
            fc.constant('{"types":{"M":[{"name":"a","type":"uint256"}]},"message":{"a":"1"}}'),
          ),
        }),
      );
    case "signRawTransaction":
      return fc.record(
        {
          to: fc.oneof(fc.constant(null), fc.stringMatching(/^0x[0-9a-fA-F]{40}$/)),
          value: fc.oneof(fc.constant("1"), fc.nat().map(String), fc.constant(null)),
          data: fc.constantFrom("0x", null, "0xdeadbeef"),
          gasLimit: fc.constantFrom("21000", null, 1, "1"),
        },
        { requiredKeys: [] },
      );
    case "createWebhook":
      return fc.record(
        {
          url: fc.constantFrom(target.webhookUrl, `${target.webhookUrl}?q=1`),
          event_types: fc.subarray(
            [
              "wallet.created",
              "deposit.pending",
              "deposit.confirmed",
              "withdrawal.pending",
              "withdrawal.executed",
              "withdrawal.confirmed",
              "withdrawal.failed",
            ],
            { minLength: 1 },
          ),
          description: anyText(500),
        },
        { requiredKeys: ["url", "event_types"] },
      );
    case "requeueFailedWebhookDeliveries":
      return fc.record(
        {
          since: fc.oneof(
            fc.constant("2020-01-01T00:00:00Z"),
            fc
              .date({ min: new Date("2000-01-01"), max: new Date("2100-01-01"), noInvalidDate: true })
              .map((d) => d.toISOString()),
            anyText(40),
          ),
          until: fc.oneof(
            fc
              .date({ min: new Date("2000-01-01"), max: new Date("2100-01-01"), noInvalidDate: true })
              .map((d) => d.toISOString()),
            anyText(40),
          ),
        },
        { requiredKeys: ["since"] },
      );
    case "createApiKey":
      return fc.record({
        name,
        role: fc.constantFrom("viewer", "admin", "owner", "root"),
        scopes: fc.subarray(SCOPES, { minLength: 1 }),
      });
    default:
      return undefined;
  }
}

const WRONG_TYPES: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1e308, -0, [], {}, [null], { $ref: "#" }, "", "🚀"),
  fc.jsonValue({ maxDepth: 2 }),
);

function deepNesting(depth: number, open: string, close: string, closed: boolean): string {
  return open.repeat(depth) + (closed ? close.repeat(depth) : "");
}

/** Valid JSON text with bytes that are not UTF-8 spliced in (inside a string, or outside one). */
function invalidUtf8(text: string, where: number, bytes: number[]): Buffer {
  const raw = Buffer.from(text, "utf8");
  const at = Math.min(where, raw.length);
  return Buffer.concat([raw.subarray(0, at), Buffer.from(bytes), raw.subarray(at)]);
}
const BAD_UTF8 = [
  [0xff],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xe2, 0x82],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0x80],
  [0xf4, 0x90, 0x80, 0x80],
];

function bodyArb(op: OperationEntry | undefined, target: FuzzTarget): fc.Arbitrary<Buffer> {
  const valid = op ? validBodyArb(op.operationId, target) : undefined;
  const validText = valid
    ? valid.map((b) => JSON.stringify(b))
    : fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v));
  const validObject = valid ?? fc.dictionary(asciiText(8), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
  const utf8 = (a: fc.Arbitrary<string>) => a.map((s) => Buffer.from(s, "utf8"));
  const arbs: fc.WeightedArbitrary<Buffer>[] = [
    { weight: 4, arbitrary: fc.constant(Buffer.alloc(0)) },
    { weight: 10, arbitrary: utf8(validText) },
    // An unknown field, a field of the wrong type, a field with a huge string.
    {
      weight: 3,
      arbitrary: utf8(
        fc
          .tuple(validObject, asciiText(12), WRONG_TYPES)
          .map(([b, k, v]) => JSON.stringify({ ...b, [k || "extra"]: v })),
      ),
    },
    {
      weight: 3,
      arbitrary: utf8(fc.tuple(validObject, WRONG_TYPES).map(([b, v]) => JSON.stringify(replaceOneField(b, v)))),
    },
    {
      weight: 1,
      arbitrary: utf8(
        fc
          .tuple(validObject, fc.integer({ min: 1_000, max: 200_000 }))
          .map(([b, n]) => JSON.stringify(replaceOneField(b, "x".repeat(n)))),
      ),
    },
    { weight: 2, arbitrary: utf8(fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v))) },
    {
      weight: 2,
      arbitrary: utf8(
        fc
          .tuple(fc.integer({ min: 30, max: 100_000 }), fc.constantFrom(["[", "]"], ['{"a":', "}"]), fc.boolean())
          .map(([d, [o, c], closed]) => deepNesting(d, o, c, closed)),
      ),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(validText, fc.nat(200), fc.constantFrom(...BAD_UTF8))
        .map(([t, at, bytes]) => invalidUtf8(t, at, bytes)),
    },
    { weight: 2, arbitrary: utf8(anyText(200)) },
    {
      weight: 2,
      arbitrary: utf8(
        fc.constantFrom(
          "{",
          "}",
          "[",
          "null",
          "true",
          "0",
          '"str"',
          "   ",
          "\t\n",
          '{"__proto__":{"role":"owner"},"name":"x"}',
          '{"constructor":{"prototype":{"x":1}}}',
          '{"name":"a","name":"b"}',
          '{"name":"\\ud800"}',
          '{"name":"\\u0000"}',
          '\ufeff{"name":"bom"}',
          "{'name':'single'}",
          '{"name":NaN}',
          '{"name":1e999999}',
          "<xml/>",
          "name=x&wallet_type=mpc",
          '--boundary\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--boundary--',
        ),
      ),
    },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)) },
  ];
  return fc.oneof(...arbs);
}

function replaceOneField(body: Record<string, unknown>, value: unknown): Record<string, unknown> {
  const keys = Object.keys(body);
  if (keys.length === 0) return { field: value };
  const key = keys[Math.abs(JSON.stringify(value)?.length ?? 0) % keys.length];
  return { ...body, [key]: value };
}

// ---------------------------------------------------------------- headers and authentication

const CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=boundary",
  "application/json; charset=latin1",
  "*/*",
  "",
];

function headerValueArb(): fc.Arbitrary<Buffer> {
  return fc.oneof(
    { weight: 6, arbitrary: asciiText(40).map((s) => Buffer.from(s.replace(/[\r\n]/g, " "), "latin1")) },
    // obs-text: bytes 0x80-0xff are allowed in values, and are not UTF-8 here.
    {
      weight: 1,
      arbitrary: fc
        .uint8Array({ minLength: 1, maxLength: 20 })
        .map((a) => Buffer.from(a.map((b) => (b < 0x20 ? 0x41 : b === 0x7f ? 0x42 : b)))),
    },
    // Huge values: some within node's 16 KiB header limit, some beyond it.
    { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 24_000 }).map((n) => Buffer.from("h".repeat(n))) },
    // Control characters are not allowed at all.
    { weight: 1, arbitrary: fc.constantFrom("\u0000", "a\u0001b", "\u007f").map((s) => Buffer.from(s, "latin1")) },
  );
}

function extraHeadersArb(op: OperationEntry | undefined, known: readonly string[]): fc.Arbitrary<[string, Buffer][]> {
  const name = fc.oneof(
    fc.constantFrom(
      "content-type",
      "x-request-id",
      "idempotency-key",
      "Idempotency-Key",
      "accept",
      "x-forwarded-for",
      "host",
      "cookie",
      "authorization",
      "x-custom",
    ),
    fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/),
  );
  const idempotency = fc.oneof(
    fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/),
    fc.constantFrom(...known),
    fc.integer({ min: 256, max: 400 }).map((n) => "k".repeat(n)),
  );
  const required: fc.Arbitrary<[string, Buffer][]> =
    op?.operationId === "createWithdrawal"
      ? fc.oneof(
          { weight: 6, arbitrary: idempotency.map((k): [string, Buffer][] => [["Idempotency-Key", Buffer.from(k)]]) },
          { weight: 1, arbitrary: fc.constant<[string, Buffer][]>([]) },
          {
            weight: 1,
            arbitrary: fc.tuple(idempotency, idempotency).map(([a, b]): [string, Buffer][] => [
              ["Idempotency-Key", Buffer.from(a)],
              ["idempotency-key", Buffer.from(b)],
            ]),
          },
        )
      : fc.constant([]);
  const contentType = fc.oneof(
    { weight: 5, arbitrary: fc.constant<[string, Buffer][]>([["content-type", Buffer.from("application/json")]]) },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom(...CONTENT_TYPES)
        .map((t): [string, Buffer][] => (t === "" ? [] : [["content-type", Buffer.from(t)]])),
    },
  );
  const extras = fc.array(fc.tuple(name, headerValueArb()), { maxLength: 4 });
  return fc.tuple(required, contentType, extras).map(([a, b, c]) => [...a, ...b, ...c]);
}

function authArb(): fc.Arbitrary<AuthMode> {
  return fc.oneof(
    { weight: 10, arbitrary: fc.constant<AuthMode>("owner") },
    { weight: 2, arbitrary: fc.constantFrom<AuthMode>("viewer", "scoped") },
    { weight: 3, arbitrary: fc.constant<AuthMode>("none") },
    {
      weight: 3,
      arbitrary: fc.constantFrom<AuthMode>("bad-signature", "unknown-key", "stale", "duplicate-sign", "garbage"),
    },
  );
}

const OTHER_METHODS = [
  "GET",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "HEAD",
  "OPTIONS",
  "TRACE",
  "PROPFIND",
  "get",
  "G E T",
  "BREW",
  "",
];

/** Path parameter values that name existing resources, by parameter name. */
function validPathArb(op: OperationEntry, target: FuzzTarget): fc.Arbitrary<string> {
  const names = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const values = names.map((name) =>
    fc.constantFrom(...(target.idsOf?.[op.operationId]?.[name] ?? target.ids[name] ?? target.knownIds)),
  );
  return fc.tuple(...values).map((picked) => {
    let i = 0;
    return op.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(picked[i++] as string));
  });
}

const QUERY_VALUES_BY_NAME: Readonly<Record<string, readonly string[]>> = {
  format: ["json", "csv"],
  // The paging parameters of every list (their schema: integers, limit 1..100).
  offset: ["0", "1", "5"],
  limit: ["1", "20", "100"],
  address_type: ["evm", "sol"],
  direction: ["deposit", "withdrawal"],
  from: ["2020-01-01T00:00:00Z", "2020-01-01T00:00:00+02:00"],
  to: ["2100-01-01T00:00:00Z"],
  status: ["pending", "delivered", "failed"],
};

/** A query string the operation's query schema accepts (required keys always, optional ones sometimes). */
function validQueryArb(op: OperationEntry, target: FuzzTarget): fc.Arbitrary<string> {
  const shape =
    (
      op.querySchema as unknown as
        | { shape?: Record<string, { safeParse(v: unknown): { success: boolean } }> }
        | undefined
    )?.shape ?? {};
  const entries = Object.entries(shape).map(([name, schema]) => {
    const values =
      QUERY_VALUES_BY_NAME[name] ?? target.ids[name === "network_id" ? "network_id" : name] ?? target.knownIds;
    const optional = schema.safeParse(undefined).success;
    const pair = fc.constantFrom(...values).map((v) => `${name}=${encodeURIComponent(v)}`);
    return optional ? fc.option(pair, { nil: undefined }) : pair;
  });
  return fc.tuple(...entries).map((pairs) => {
    const present = pairs.filter((p): p is string => p !== undefined);
    return present.length === 0 ? "" : `?${present.join("&")}`;
  });
}

function validHeadersArb(op: OperationEntry): fc.Arbitrary<[string, Buffer][]> {
  const json: [string, Buffer] = ["content-type", Buffer.from("application/json")];
  if (op.operationId !== "createWithdrawal") return fc.constant([json]);
  return fc
    .stringMatching(/^[A-Za-z0-9_-]{1,40}$/)
    .map((k): [string, Buffer][] => [json, ["Idempotency-Key", Buffer.from(k)]]);
}

const DIMENSIONS = ["method", "path", "query", "headers", "body", "framing", "auth", "rawUnicode"] as const;
type Dimension = (typeof DIMENSIONS)[number];

/**
 * Requests aimed at one operation: a request the operation accepts, with zero, one or two of its parts
 * (method, path, query, headers, body, framing, authentication, raw bytes in the target) replaced by
 * hostile ones. Valid requests reach the handlers; the mutations probe every layer in front of them.
 */
/** The parts of a request the operation accepts, signed with one of `auths`. */
function validPartsArb(op: OperationEntry, target: FuzzTarget, auths: AuthMode[]) {
  const validBody = validBodyArb(op.operationId, target);
  return fc.record({
    method: fc.constant(op.method),
    path: validPathArb(op, target),
    query: validQueryArb(op, target),
    headers: validHeadersArb(op),
    body: validBody ? validBody.map((b) => Buffer.from(JSON.stringify(b), "utf8")) : fc.constant(Buffer.alloc(0)),
    framing: fc.constantFrom<RequestPlan["framing"]>("length", "length", "chunked"),
    auth: fc.constantFrom<AuthMode>(...auths),
    rawUnicode: fc.constant(""),
  });
}

/**
 * Requests the operation accepts, signed by the owner, nothing hostile: the positive control that the
 * harness signs and builds requests a handler answers (the mixed property reaches some operations'
 * handlers only a few times in a hundred cases).
 */
export function ownerRequestArb(op: OperationEntry, target: FuzzTarget): fc.Arbitrary<RequestPlan> {
  return validPartsArb(op, target, ["owner"]).map((v) => ({
    method: v.method,
    target: Buffer.from(v.path + v.query, "utf8"),
    headers: v.headers,
    body: v.body,
    framing: v.framing,
    auth: v.auth,
    operationId: op.operationId,
  }));
}

export function requestArb(op: OperationEntry, target: FuzzTarget): fc.Arbitrary<RequestPlan> {
  const known = target.knownIds;
  const valid = validPartsArb(op, target, ["owner", "owner", "owner", "viewer", "scoped"]);
  const hostile = fc.record({
    method: fc.constantFrom(...OTHER_METHODS),
    path: pathArb(op, known),
    query: queryArb(known),
    headers: extraHeadersArb(op, known),
    body: bodyArb(op, target),
    framing: fc.constantFrom<RequestPlan["framing"]>("chunked", "none", "length-and-chunked"),
    auth: authArb(),
    rawUnicode: fc.constantFrom("ü", "日本", "\u00ff", "%ü", "\t", "\u0000"),
  });
  const mutated = fc.array(fc.constantFrom(...DIMENSIONS), { maxLength: 2 });
  return fc.tuple(valid, hostile, mutated).map(([v, h, dims]) => {
    const pick = <K extends Dimension>(k: K) => (dims.includes(k) ? h[k] : v[k]);
    const framing = pick("framing");
    return {
      method: pick("method"),
      target: Buffer.from(pick("path") + pick("rawUnicode") + pick("query"), "utf8"),
      headers: pick("headers"),
      body: framing === "none" ? Buffer.alloc(0) : pick("body"),
      framing,
      auth: pick("auth"),
      operationId: op.operationId,
    };
  });
}

/** Requests aimed at nothing in particular: random methods, paths, headers and bodies. */
export function strayRequestArb(target: FuzzTarget): fc.Arbitrary<RequestPlan> {
  return fc
    .record({
      method: fc.constantFrom(...OTHER_METHODS),
      target: fc.oneof(
        fc.webPath().map((p) => p || "/"),
        fc.webUrl({ withQueryParameters: true }),
        fc.constantFrom(
          "*",
          "/",
          "//",
          "/api",
          "/api/v1",
          "/api/v1/",
          "/api/v2/networks",
          "http://evil.example/api/v1/networks",
          "/%",
          "/%zz/..",
          "/api/v1/%2e%2e/%2e%2e/etc/passwd",
        ),
        fc.uint8Array({ minLength: 1, maxLength: 60 }).map((a) => `/${Buffer.from(a).toString("latin1")}`),
      ),
      headers: extraHeadersArb(undefined, target.knownIds),
      body: bodyArb(undefined, target),
      auth: authArb(),
    })
    .map((r) => ({
      method: r.method,
      target: Buffer.from(r.target, "latin1"),
      headers: r.headers,
      body: r.body,
      framing: "length" as const,
      auth: r.auth,
    }));
}

// ---------------------------------------------------------------- serializing and sending

/** The path the server signs: the target's path, as node hands it over (latin1 of the raw bytes). */
function signedPath(target: Buffer): string {
  return splitTarget(target.toString("latin1")).path;
}

function authHeaders(plan: RequestPlan, target: FuzzTarget): [string, string][] {
  if (plan.auth === "none") return [];
  if (plan.auth === "garbage")
    return [
      ["ACCESS-API-KEY", "\u00ff".repeat(3)],
      ["ACCESS-TIMESTAMP", "-1e3"],
      ["ACCESS-SIGN", "=".repeat(600)],
    ];
  const cred =
    plan.auth === "viewer" ? target.keys.viewer : plan.auth === "scoped" ? target.keys.scoped : target.keys.owner;
  const timestamp = String(unixSeconds() - (plan.auth === "stale" ? 301 : 0));
  let sign = computeSignature(cred.secret, {
    method: plan.method,
    path: signedPath(plan.target),
    timestamp,
    body: plan.body,
  });
  if (plan.auth === "bad-signature") sign = (sign[0] === "A" ? "B" : "A") + sign.slice(1);
  const key = plan.auth === "unknown-key" ? "key_does_not_exist" : cred.key;
  const headers: [string, string][] = [
    ["ACCESS-API-KEY", key],
    ["ACCESS-TIMESTAMP", timestamp],
    ["ACCESS-SIGN", sign],
  ];
  if (plan.auth === "duplicate-sign") headers.push(["access-sign", sign]);
  return headers;
}

export function isSigned(plan: RequestPlan): boolean {
  return SIGNED_MODES.includes(plan.auth);
}

/**
 * Whether the server reads the request-target as it was signed. A space or tab ends the target
 * (RFC 9112 §3: method SP request-target SP HTTP-version), so the HTTP layer may read a shorter one
 * (`/api/v1/wallets/! ` arrives as `/api/v1/wallets/!`), and a signature over the bytes sent then does
 * not match what arrived: a 401 is right.
 */
export function targetArrivesAsSent(plan: RequestPlan): boolean {
  return !plan.target.includes(0x20) && !plan.target.includes(0x09);
}

/** The exact bytes of the request. */
export function serialize(plan: RequestPlan, target: FuzzTarget): Buffer {
  const head: Buffer[] = [
    Buffer.from(`${plan.method} `, "latin1"),
    plan.target,
    Buffer.from(` HTTP/1.1\r\nHost: ${target.host}:${target.port}\r\nConnection: close\r\n`, "latin1"),
  ];
  for (const [name, value] of authHeaders(plan, target)) head.push(Buffer.from(`${name}: ${value}\r\n`, "latin1"));
  for (const [name, value] of plan.headers) head.push(Buffer.from(`${name}: `, "latin1"), value, Buffer.from("\r\n"));
  const chunked = chunk(plan.body);
  if (plan.framing === "length" || plan.framing === "length-and-chunked")
    head.push(Buffer.from(`Content-Length: ${plan.body.length}\r\n`));
  if (plan.framing === "chunked" || plan.framing === "length-and-chunked")
    head.push(Buffer.from("Transfer-Encoding: chunked\r\n"));
  head.push(Buffer.from("\r\n"));
  if (plan.framing === "length") head.push(plan.body);
  if (plan.framing === "chunked" || plan.framing === "length-and-chunked") head.push(chunked);
  return Buffer.concat(head);
}

/** Chunked transfer coding of `body` in pieces of varying size. */
function chunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 0, size = 1; at < body.length; at += size, size = Math.min(size * 3, 65_536)) {
    const piece = body.subarray(at, at + size);
    parts.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from("\r\n"));
  }
  parts.push(Buffer.from("0\r\n\r\n"));
  return Buffer.concat(parts);
}

/** Parses one HTTP/1.1 response with a content-length (all the server sends); undefined if incomplete. */
export function parseAnswer(bytes: Buffer, head = false): Answer | undefined {
  const end = bytes.indexOf("\r\n\r\n");
  if (end === -1) return undefined;
  const lines = bytes.subarray(0, end).toString("latin1").split("\r\n");
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? "");
  if (!status) return undefined;
  const headers = lines.slice(1).map((l): [string, string] => {
    const colon = l.indexOf(":");
    return [l.slice(0, colon).trim().toLowerCase(), l.slice(colon + 1).trim()];
  });
  const length = headers.find(([n]) => n === "content-length");
  const body = bytes.subarray(end + 4);
  // A HEAD answer announces the length of a body it does not carry.
  if (head) return { status: Number(status[1]), headers, body: Buffer.alloc(0) };
  if (length === undefined || body.length < Number(length[1])) return undefined;
  return { status: Number(status[1]), headers, body: body.subarray(0, Number(length[1])) };
}

/** Sends raw bytes on a fresh connection and waits for the whole answer or `timeoutMs`. */
export function sendRaw(host: string, port: number, bytes: Buffer, timeoutMs: number, head = false): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const received = () => Buffer.concat(chunks);
    const settle = (error?: string) => {
      const answer = parseAnswer(received(), head);
      finish(
        answer
          ? { kind: "answer", answer }
          : { kind: "closed", partial: received().length, ...(error ? { error } : {}) },
      );
    };
    const timer = setTimeout(() => finish({ kind: "timeout", partial: received().length }), timeoutMs);
    socket.on("data", (c: Buffer) => {
      chunks.push(c);
      const answer = parseAnswer(received(), head);
      if (answer) finish({ kind: "answer", answer });
    });
    socket.on("end", () => settle());
    socket.on("close", () => settle());
    // EPIPE/ECONNRESET while still writing happens when the server answered early (413) and closed.
    socket.on("error", (e: NodeJS.ErrnoException) => settle(e.code ?? e.message));
    socket.write(bytes);
  });
}

// ---------------------------------------------------------------- what every answer must satisfy

const matcher = createMatcher(operationList.map((op) => ({ method: op.method, path: op.path, value: op })));

/** The operation the router would pick for this request, if any. */
export function routeOf(plan: RequestPlan): OperationEntry | undefined {
  const { path } = splitTarget(plan.target.toString("latin1"));
  return matcher.match(plan.method, path)?.value;
}

/** Messages of answers the HTTP layer gives before any route is known (runtime/server/listen.ts). */
export const HTTP_LEVEL_PREFIX = "bad HTTP request";

/** Every property violation of one answer; empty when it is fine. */
export function violations(plan: RequestPlan, outcome: Outcome): string[] {
  if (outcome.kind === "timeout") return [`no complete answer in time (${outcome.partial} bytes received)`];
  if (outcome.kind === "closed")
    return [
      `connection closed without a complete answer (${outcome.partial} bytes received${outcome.error ? `, ${outcome.error}` : ""})`,
    ];
  const { status, headers, body } = outcome.answer;
  // The sandbox's pages and actions beside the API (reference/api/front-door.ts) are not operations.
  if (isFrontDoorPath(splitTarget(plan.target.toString("latin1")).path))
    return status >= 500 ? [`server error ${status}`] : [];
  const out: string[] = [];
  const text = body.toString("utf8");
  const header = (name: string) => headers.filter(([n]) => n === name).map(([, v]) => v);
  if (status >= 500) out.push(`server error ${status}`);
  // No operation takes HEAD; the answer has headers only (404, or 400 from the HTTP layer).
  if (plan.method === "HEAD") return out.concat(status === 404 || status === 400 ? [] : [`HEAD answered ${status}`]);
  if (header("content-type").join() !== JSON_CONTENT_TYPE)
    out.push(`content-type ${JSON.stringify(header("content-type"))}`);
  if (header("x-request-id").length !== 1 || header("x-request-id")[0] === "") out.push("no single x-request-id");
  let envelope: unknown;
  try {
    envelope = JSON.parse(text);
  } catch {
    out.push("body is not JSON");
  }
  if (envelope !== undefined) {
    if (!isEnvelope(envelope)) out.push("body is not an envelope");
    else {
      const ok = status >= 200 && status < 300;
      if (envelope.success !== ok) out.push(`success=${envelope.success} with status ${status}`);
      if (!envelope.success && envelope.data !== null) out.push("error without data null");
      // x-custody-error-codes: the HTTP status as an integer, except the 401's "unauthorized".
      if (!envelope.success && status !== 401 && envelope.code !== status)
        out.push(`error code ${JSON.stringify(envelope.code)} is not the HTTP status ${status}`);
    }
  }
  for (const pattern of LEAK_PATTERNS)
    if (pattern.test(text)) out.push(`body looks like a stack trace or exception (${pattern})`);
  if (status === 401 && text !== UNAUTHORIZED_BODY) out.push("401 body differs from the one unauthorized body");

  const httpLevel =
    status === 400 &&
    typeof envelope === "object" &&
    envelope !== null &&
    String((envelope as { message?: unknown }).message).startsWith(HTTP_LEVEL_PREFIX);
  const op = routeOf(plan);
  if (!httpLevel) {
    if (op === undefined && status !== 404) out.push(`no operation matches, yet status ${status}`);
    if (op !== undefined && !(op.declaredStatuses as readonly number[]).includes(status))
      out.push(`status ${status} is not declared for ${op.operationId}`);
    if (isSigned(plan) && status === 401 && targetArrivesAsSent(plan))
      out.push("a correctly signed request was refused as unauthorized");
  }
  return out;
}

/** Counts of what a run sent and got, for docs/explanation/hardening.md. */
export class FuzzTally {
  requests = 0;
  readonly byStatus = new Map<number, number>();
  readonly byOperation = new Map<string, number>();
  readonly handlerReached = new Map<string, number>();

  add(plan: RequestPlan, outcome: Outcome): void {
    this.requests++;
    const key = plan.operationId ?? "(stray)";
    this.byOperation.set(key, (this.byOperation.get(key) ?? 0) + 1);
    if (outcome.kind !== "answer") return;
    const s = outcome.answer.status;
    this.byStatus.set(s, (this.byStatus.get(s) ?? 0) + 1);
    // 2xx, 404 from a handler, 409: the request passed routing, auth and validation.
    if (s < 300 || s === 409) this.handlerReached.set(key, (this.handlerReached.get(key) ?? 0) + 1);
  }

  summary(): string {
    const statuses = [...this.byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}:${n}`)
      .join(" ");
    const reached = [...this.handlerReached.values()].reduce((a, b) => a + b, 0);
    return `${this.requests} requests over ${this.byOperation.size} targets; statuses ${statuses}; ${reached} answered 2xx/409 (reached a handler)`;
  }
}

/** One request: serialize, send, check. Throws with the reproducing request when a check fails. */
export async function fuzzOnce(
  plan: RequestPlan,
  target: FuzzTarget,
  tally: FuzzTally,
  timeoutMs = 10_000,
): Promise<void> {
  const outcome = await sendRaw(target.host, target.port, serialize(plan, target), timeoutMs, plan.method === "HEAD");
  tally.add(plan, outcome);
  const found = violations(plan, outcome);
  if (found.length > 0) {
    const shown =
      outcome.kind === "answer"
        ? `${outcome.answer.status} ${outcome.answer.body.toString("utf8").slice(0, 300)}`
        : outcome.kind;
    throw new Error(`${found.join("; ")}\n  request: ${describePlan(plan)}\n  answer: ${shown}`);
  }
}

export function describePlan(plan: RequestPlan): string {
  const target =
    plan.target.length > 200
      ? `${plan.target.subarray(0, 200).toString("latin1")}…(${plan.target.length} bytes)`
      : plan.target.toString("latin1");
  const headers = plan.headers
    .map(
      ([n, v]) =>
        `${n}: ${v.length > 60 ? `${v.subarray(0, 60).toString("latin1")}…(${v.length})` : v.toString("latin1")}`,
    )
    .join(" | ");
  const body =
    plan.body.length > 200
      ? `${plan.body.subarray(0, 200).toString("latin1")}…(${plan.body.length} bytes)`
      : plan.body.toString("latin1");
  return `${plan.method} ${JSON.stringify(target)} auth=${plan.auth} framing=${plan.framing} headers=[${headers}] body=${JSON.stringify(body)}`;
}

export { operationList };

// ---------------------------------------------------------------- the target: a sandbox with one of everything

export interface FuzzSandbox {
  target: FuzzTarget;
  /** Internal errors the sandbox logged while fuzzed (must stay empty). */
  internalErrors: string[];
  close(): Promise<void>;
}

/**
 * Starts the reference deployment and creates one resource of each kind (a funded wallet with an asset,
 * a webhook with a delivery, a withdrawal waiting for approval, a spare API key), so that fuzzed
 * requests also reach handlers with ids that exist.
 */
export async function startFuzzSandbox(): Promise<FuzzSandbox> {
  const { startSandbox } = await import("../reference/sandbox.ts");
  const { CustodialWalletServiceClient } = await import("../generated/client.ts");
  const { chainClients, waitFor } = await import("./reference-helpers.ts");
  const { parseEther } = await import("viem");
  const internalErrors: string[] = [];
  const sandbox = await startSandbox({
    env: {},
    blockTimeSeconds: 0.2,
    walletCreationDelayMs: 5,
    confirmationBlocks: 1,
    webhookTimeoutMs: 200,
    webhookRetry: { maxAttempts: 2, initialDelayMs: 50, maxDelayMs: 100 },
    logger: { error: (m) => void internalErrors.push(m) },
  });
  try {
    const owner = new CustodialWalletServiceClient({
      baseUrl: sandbox.base_url,
      apiKey: sandbox.api_key,
      apiSecret: sandbox.api_secret,
    });
    const ws = sandbox.workspace_id;
    const closedPort = await unusedPort();
    const webhookUrl = `http://127.0.0.1:${closedPort}/hook`;
    const webhook = await owner.createWebhook({
      params: { workspace_id: ws },
      body: { url: webhookUrl, event_types: ["wallet.created"] },
    });
    const wallet = await owner.createWallet({ body: { name: "fuzz target" } });
    const walletId = wallet.wallet_id as string;
    await waitFor(
      "wallet",
      async () => (await owner.getWalletCreationStatus({ params: { wallet_id: walletId } })).status === "success",
    );
    const asset = await owner.attachAsset({ params: { wallet_id: walletId }, body: { asset_id: ETH } });
    const [network] = await owner.listNetworks();
    const { wallet: faucet } = chainClients(
      sandbox.rpc_url,
      sandbox.rpc_api_key,
      network.chain_id as number,
      sandbox.faucet_private_key,
    );
    await faucet.sendTransaction({ to: asset.address as `0x${string}`, value: parseEther("5") });
    await waitFor(
      "funds",
      async () =>
        (await owner.getWalletAssetBalance({ params: { wallet_id: walletId, asset_id: ETH } })).balance === "5",
    );
    const signing = await owner.requestSign({
      params: { wallet_id: walletId },
      body: { method: "eth_sign", message: "fuzz", chain_id: network.chain_id as number },
    });
    const sent = await owner.signRawTransaction({
      params: { wallet_id: walletId },
      body: { to: "0x000000000000000000000000000000000000dEaD", value: "1" },
    });
    const deposits = await owner.listTransactions({ params: { workspace_id: ws } });
    const { withdrawal } = await owner.createWithdrawal({
      params: { wallet_id: walletId },
      headers: { "idempotency-key": "fuzz-setup" },
      body: { asset_id: ETH, amount: "0.001", recipient_address: "0x000000000000000000000000000000000000dEaD" },
    });
    const [delivery] = await waitFor("a delivery", async () => {
      const list = await owner.listWebhookDeliveries({ params: { workspace_id: ws } });
      return list.length > 0 && list;
    });
    // deleteWebhook is fuzzed on a webhook of its own, so the delivery above keeps its webhook.
    const doomed = await owner.createWebhook({
      params: { workspace_id: ws },
      body: { url: webhookUrl, event_types: ["deposit.pending"] },
    });
    const spare = await owner.createApiKey({
      params: { workspace_id: ws },
      body: { name: "spare", role: "viewer", scopes: ["*"] },
    });
    const { port, hostname } = new URL(sandbox.base_url);
    return {
      target: {
        host: hostname,
        port: Number(port),
        workspaceId: ws,
        keys: {
          owner: { key: sandbox.api_key, secret: sandbox.api_secret },
          viewer: { key: sandbox.viewer_api_key, secret: sandbox.viewer_api_secret },
          scoped: { key: sandbox.scoped_api_key, secret: sandbox.scoped_api_secret },
        },
        // Not webhook.id: any path segment may draw a known id, and a deleteWebhook that drew it would
        // delete the delivery's webhook, after which resendWebhookDelivery can only answer 404.
        knownIds: [
          ws,
          walletId,
          ETH,
          network.id as string,
          doomed.id,
          delivery.id as string,
          withdrawal.id as string,
          spare.id,
        ],
        ids: {
          workspace_id: [ws],
          wallet_id: [walletId],
          asset_id: [ETH],
          network_id: [network.id as string],
          // The delivery's webhook: deleteWebhook draws only `doomed` (idsOf below), so this one stays for
          // enableWebhook, requeueFailedWebhookDeliveries and the webhook reads.
          webhook_id: [webhook.id],
          delivery_id: [delivery.id as string],
          withdrawal_id: [withdrawal.id as string],
          key_id: [spare.id],
          transaction_id: [signing.transaction_id, sent.transaction_id],
          tx_hash: deposits.map((t) => t.tx_hash as string).filter(Boolean),
        },
        idsOf: { deleteWebhook: { webhook_id: [doomed.id] } },
        webhookUrl,
      },
      internalErrors,
      close: () => sandbox.close(),
    };
  } catch (error) {
    await sandbox.close();
    throw error;
  }
}

/** A loopback port nobody listens on (webhook deliveries to it are refused at once). */
async function unusedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}
