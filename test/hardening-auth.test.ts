// The mechanism behind "the time of a refusal says nothing" (bench/auth-timing.ts measures the times):
// every request that carries the three headers costs exactly one HMAC-SHA256 and one timingSafeEqual of
// equal-length buffers, whether the key id exists or not (an unknown key is checked against a random
// dummy secret) and wherever the signature is wrong; and every refusal is the same bytes with the same
// headers, so no answer says which check failed. node:crypto is wrapped to count the calls.
import http from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createServer, type Handlers } from "../generated/server.ts";
import { UNAUTHORIZED_BODY } from "../runtime/envelope.ts";
import { computeSignature, signRequest } from "../runtime/http/hmac.ts";
import { listen, type RunningServer } from "../runtime/server/listen.ts";
import type { KeyRecord } from "../runtime/server/types.ts";

const calls = vi.hoisted(() => ({ hmacKeys: [] as Buffer[], compares: [] as [number, number][] }));

vi.mock("node:crypto", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:crypto")>();
  const createHmac = (algorithm: string, key: import("node:crypto").BinaryLike, ...rest: unknown[]) => {
    calls.hmacKeys.push(Buffer.from(key as Buffer));
    return (real.createHmac as (...a: unknown[]) => import("node:crypto").Hmac)(algorithm, key, ...rest);
  };
  const timingSafeEqual = (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
    calls.compares.push([a.byteLength, b.byteLength]);
    return real.timingSafeEqual(a, b);
  };
  return { ...real, default: { ...real, createHmac, timingSafeEqual }, createHmac, timingSafeEqual };
});

const NOW = 1_800_000_000;
const SECRET = "s3cret-of-the-known-key";
const KEY: KeyRecord = { keyId: "key_known", secret: SECRET, role: "owner", scopes: ["*"], workspaceId: "ws_1" };
const PATH = "/api/v1/workspaces/ws_1/wallets";
/** base64 of the 64 lowercase hex digits of an HMAC-SHA256. */
const SIGNATURE_LENGTH = 88;
let server: RunningServer;
let handled = 0;

beforeAll(async () => {
  // Every handler answers an empty list; only authentication matters here.
  const handlers = new Proxy(
    {},
    {
      get: () => async () => {
        handled++;
        return [];
      },
    },
  ) as unknown as Handlers;
  const listener = createServer(handlers, { resolveKey: (id) => (id === KEY.keyId ? KEY : undefined), now: () => NOW });
  server = await listen(listener);
});
afterAll(async () => {
  await server?.close();
});
beforeEach(() => {
  calls.hmacKeys.length = 0;
  calls.compares.length = 0;
});

interface Sent {
  status: number;
  headers: [string, string][];
  body: string;
}

/** GET PATH with exactly these headers (arrays repeat a header). */
function send(headers: Record<string, string | string[]>): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const req = http.request(server.url + PATH, { method: "GET", headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const pairs: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2)
          pairs.push([res.rawHeaders[i].toLowerCase(), res.rawHeaders[i + 1]]);
        resolve({ status: res.statusCode ?? 0, headers: pairs, body: Buffer.concat(chunks).toString("utf8") });
      });
    });
    req.on("error", reject);
    req.end();
  });
}

const good = () => signRequest({ apiKey: KEY.keyId, apiSecret: SECRET, method: "GET", path: PATH, timestamp: NOW });

/** The signature with one character changed at `index` (still valid base64 of the same length). */
function flip(signature: string, index: number): string {
  const i = index < 0 ? signature.length + index : index;
  // The last characters may be '=' padding; change the last data character instead.
  const at = signature[i] === "=" ? signature.replace(/=+$/, "").length - 1 : i;
  return signature.slice(0, at) + (signature[at] === "A" ? "B" : "A") + signature.slice(at + 1);
}

/** Every way a request carrying the three headers can fail authentication. */
function failures(): Record<string, Record<string, string | string[]>> {
  const g = good();
  const sign = g["ACCESS-SIGN"];
  return {
    "unknown key id": { ...g, "ACCESS-API-KEY": "key_unknown" },
    "wrong first character": { ...g, "ACCESS-SIGN": flip(sign, 0) },
    "wrong last character": { ...g, "ACCESS-SIGN": flip(sign, -1) },
    "signed with another secret": {
      ...g,
      "ACCESS-SIGN": computeSignature("another secret", { method: "GET", path: PATH, timestamp: NOW }),
    },
    "signature of another length": { ...g, "ACCESS-SIGN": sign.slice(0, 20) },
    "signed for another path": {
      ...g,
      "ACCESS-SIGN": computeSignature(SECRET, { method: "GET", path: "/api/v1/networks", timestamp: NOW }),
    },
    "timestamp 301 s old": signRequest({
      apiKey: KEY.keyId,
      apiSecret: SECRET,
      method: "GET",
      path: PATH,
      timestamp: NOW - 301,
    }),
    "timestamp 301 s ahead": signRequest({
      apiKey: KEY.keyId,
      apiSecret: SECRET,
      method: "GET",
      path: PATH,
      timestamp: NOW + 301,
    }),
    "timestamp not decimal": { ...g, "ACCESS-TIMESTAMP": `${NOW}.0` },
  };
}

// Signed up front: the test's own signing must not show up in the counts.
const GOOD = good();
const FAILURES = failures();

describe("every request with the three headers costs one HMAC and one constant-time compare", () => {
  it("a correctly signed request: one HMAC under the key's secret, one timingSafeEqual of equal lengths", async () => {
    expect((await send(GOOD)).status).toBe(200);
    expect(calls.hmacKeys.map((k) => k.toString("utf8"))).toEqual([SECRET]);
    expect(calls.compares).toEqual([[SIGNATURE_LENGTH, SIGNATURE_LENGTH]]);
  });

  for (const [name, headers] of Object.entries(FAILURES)) {
    it(`${name}: the same work, then 401`, async () => {
      const res = await send(headers);
      expect(res.status).toBe(401);
      expect(calls.hmacKeys).toHaveLength(1);
      expect(calls.compares).toHaveLength(1);
      // Equal lengths: timingSafeEqual ran over the expected signature's 88 bytes whatever was sent.
      expect(calls.compares[0]).toEqual([SIGNATURE_LENGTH, SIGNATURE_LENGTH]);
    });
  }

  it("an unknown key id is checked against a random dummy secret, never an empty or fixed one", async () => {
    await send(FAILURES["unknown key id"]);
    await send({ ...GOOD, "ACCESS-API-KEY": "key_other_unknown" });
    const [first, second] = calls.hmacKeys;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(first.toString("utf8")).not.toBe(SECRET);
    // The same dummy for every unknown key (one per process): the work cannot depend on the key id.
    expect(second.equals(first)).toBe(true);
  });

  it("the work does not depend on where the signature is wrong: first and last character take the same path", async () => {
    const f = FAILURES;
    await send(f["wrong first character"]);
    const first = { hmacs: calls.hmacKeys.map((k) => k.toString("hex")), compares: [...calls.compares] };
    calls.hmacKeys.length = 0;
    calls.compares.length = 0;
    await send(f["wrong last character"]);
    expect({ hmacs: calls.hmacKeys.map((k) => k.toString("hex")), compares: calls.compares }).toEqual(first);
  });
});

describe("no refusal says which check failed", () => {
  it("every failure variant answers byte-identical bodies with identical header sets (x-request-id aside)", async () => {
    const variants: Record<string, Record<string, string | string[]>> = {
      ...failures(),
      "no headers": {},
      "only the key id": { "ACCESS-API-KEY": KEY.keyId },
      "empty signature": { ...good(), "ACCESS-SIGN": "" },
      "signature twice": { ...good(), "ACCESS-SIGN": [good()["ACCESS-SIGN"], good()["ACCESS-SIGN"]] },
      "key id twice": { ...good(), "ACCESS-API-KEY": [KEY.keyId, KEY.keyId] },
      "huge key id": { ...good(), "ACCESS-API-KEY": "k".repeat(5_000) },
      "huge signature": { ...good(), "ACCESS-SIGN": "A".repeat(5_000) },
    };
    // Date is the clock, x-request-id is per request; everything else must be equal.
    const shape = (r: Sent) => ({
      status: r.status,
      body: r.body,
      headers: r.headers.filter(([n]) => n !== "x-request-id" && n !== "date").sort(),
    });
    const answers = await Promise.all(
      Object.entries(variants).map(async ([name, h]) => [name, shape(await send(h))] as const),
    );
    const [, reference] = answers[0];
    expect(reference.status).toBe(401);
    expect(reference.body).toBe(UNAUTHORIZED_BODY);
    for (const [name, answer] of answers) expect(answer, name).toEqual(reference);
    expect(reference.headers.map(([n]) => n)).toEqual(
      ["cache-control", "connection", "content-length", "content-type", "keep-alive", "x-content-type-options"].filter(
        (n) => reference.headers.some(([h]) => h === n),
      ),
    );
  });

  it("authentication comes before everything else: no handler ran for any refusal", async () => {
    const before = handled;
    for (const headers of Object.values(FAILURES)) await send(headers);
    expect(handled).toBe(before);
  });
});
