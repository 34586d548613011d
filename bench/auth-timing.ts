// How long the server takes to refuse a request, per kind of wrong credential: does the time depend on
// whether the key id exists, or on how much of the signature is right? Not a test (timings are noisy);
// a measurement that prints medians, their ratio and a Mann-Whitney U test per pair.
//
//   node --import tsx bench/auth-timing.ts [--samples N] [--http-samples N]
//
// Two levels: runtime/server/auth.ts authenticate() in-process (fine resolution, no network), and whole
// HTTP round trips to the generated server on loopback (what an attacker sees). Conditions of a pair
// are interleaved in random order sample by sample, so drift (GC, frequency scaling) hits both alike.
// The mechanism itself is pinned down by test/hardening-auth.test.ts.

import type { IncomingMessage } from "node:http";
import http from "node:http";
import { parseArgs } from "node:util";
import { createServer, type Handlers } from "../generated/server.ts";
import { signRequest } from "../runtime/http/hmac.ts";
import { authenticate } from "../runtime/server/auth.ts";
import { listen } from "../runtime/server/listen.ts";
import type { KeyRecord } from "../runtime/server/types.ts";

const PATH = "/api/v1/wallets";
// A secret shaped like the reference's (base64url of 32 random bytes), and an unknown key id of the
// same length as the known one, so that the two requests differ only in whether the key exists.
const KEY: KeyRecord = {
  keyId: "key_5f1c0a9e7b3d2c48",
  secret: "q3Jm0ZtV9xWb8R2yL5nK1pHc7sFd4gUe6iOa0TzXwYk",
  role: "owner",
  scopes: ["*"],
  workspaceId: "ws_1",
};
const UNKNOWN_KEY = "key_0000000000000000";
// A second existing key: how much two *known* keys differ is the yardstick for "unknown vs known".
const OTHER: KeyRecord = {
  ...KEY,
  keyId: "key_9a8b7c6d5e4f3a2b",
  secret: "Zp4Lr8Wt1Yq6Nc3Vb9Mx2Kd7Hs5Gf0Ja8Ue4Io1OyTl",
};
const KEYS = new Map([KEY, OTHER].map((k) => [k.keyId, k]));
const resolveKey = (id: string) => KEYS.get(id);

type Headers = Record<string, string>;

function flipAt(signature: string, index: number): string {
  const body = signature.replace(/=+$/, "");
  const at = index < 0 ? body.length + index : index;
  return signature.slice(0, at) + (signature[at] === "A" ? "B" : "A") + signature.slice(at + 1);
}

/** The header sets compared, fresh for `timestamp`. */
function conditions(timestamp: number): Record<string, Headers> {
  const good = signRequest({ apiKey: KEY.keyId, apiSecret: KEY.secret, method: "GET", path: PATH, timestamp });
  const wrong = { ...good, "ACCESS-SIGN": flipAt(good["ACCESS-SIGN"], 0) };
  return {
    "unknown key id": { ...wrong, "ACCESS-API-KEY": UNKNOWN_KEY },
    "known key, wrong signature": wrong,
    "other known key, wrong sig.": { ...wrong, "ACCESS-API-KEY": OTHER.keyId },
    "wrong in the first char": wrong,
    "wrong only in the last char": { ...good, "ACCESS-SIGN": flipAt(good["ACCESS-SIGN"], -1) },
    "A/A: the same request": { ...wrong },
  };
}

const PAIRS: [string, string][] = [
  // (a) does the time say whether the key id exists?
  ["unknown key id", "known key, wrong signature"],
  // yardstick for (a): two keys that both exist differ by a per-secret constant too
  ["other known key, wrong sig.", "known key, wrong signature"],
  // (b) does the time say how much of the signature is right?
  ["wrong in the first char", "wrong only in the last char"],
  // control: the harness itself (identical requests) should show no difference
  ["A/A: the same request", "known key, wrong signature"],
];

// ---------------------------------------------------------------- statistics

function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Standard normal CDF (Abramowitz-Stegun 7.1.26 for erf). */
function normalCdf(z: number): number {
  const t = 1 / (1 + 0.3275911 * (Math.abs(z) / Math.SQRT2));
  const erf =
    1 -
    t *
      (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))) *
      Math.exp(-(z * z) / 2);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/**
 * Mann-Whitney U (two-sided, normal approximation with tie correction): is one condition's time
 * distribution shifted against the other's? Also the common-language effect size P(a > b).
 */
export function mannWhitney(a: readonly number[], b: readonly number[]): { z: number; p: number; pAgreaterB: number } {
  const all = [...a.map((v) => ({ v, g: 0 })), ...b.map((v) => ({ v, g: 1 }))].sort((x, y) => x.v - y.v);
  const ranks = new Float64Array(all.length);
  let tieTerm = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j + 1 < all.length && all[j + 1].v === all[i].v) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) ranks[k] = rank;
    const t = j - i + 1;
    tieTerm += t ** 3 - t;
    i = j + 1;
  }
  let rankSumA = 0;
  all.forEach((x, i) => {
    if (x.g === 0) rankSumA += ranks[i];
  });
  const n1 = a.length;
  const n2 = b.length;
  const u = rankSumA - (n1 * (n1 + 1)) / 2;
  const n = n1 + n2;
  const sigma = Math.sqrt(((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1))));
  const z = sigma === 0 ? 0 : (u - (n1 * n2) / 2) / sigma;
  return { z, p: 2 * (1 - normalCdf(Math.abs(z))), pAgreaterB: u / (n1 * n2) };
}

// ---------------------------------------------------------------- measuring

/** Runs `measure` for both conditions of a pair `samples` times, in random order each time. */
async function alternated(
  samples: number,
  names: [string, string],
  measure: (name: string) => Promise<number> | number,
): Promise<[number[], number[]]> {
  const out: [number[], number[]] = [[], []];
  for (let i = 0; i < samples; i++) {
    const first = Math.random() < 0.5 ? 0 : 1;
    for (const which of [first, 1 - first]) out[which].push(await measure(names[which]));
  }
  return out;
}

function fakeRequest(headers: Headers): IncomingMessage {
  return { method: "GET", rawHeaders: Object.entries(headers).flat() } as unknown as IncomingMessage;
}

async function inProcess(samples: number): Promise<string[]> {
  const now = Math.floor(Date.now() / 1000);
  const sets = conditions(now);
  const requests = Object.fromEntries(Object.entries(sets).map(([name, h]) => [name, fakeRequest(h)]));
  const body = new Uint8Array(0);
  const once = async (name: string) => {
    const started = process.hrtime.bigint();
    const auth = await authenticate({ req: requests[name], path: PATH, body, resolveKey, nowSeconds: now });
    const ns = Number(process.hrtime.bigint() - started);
    if (auth !== undefined) throw new Error(`${name} was accepted`);
    return ns;
  };
  for (const name of Object.keys(requests)) for (let i = 0; i < 5_000; i++) await once(name); // warm-up
  return report(
    "authenticate() in-process",
    samples,
    "ns",
    await Promise.all(PAIRS.map((pair) => alternated(samples, pair, once))),
  );
}

async function overHttp(samples: number): Promise<string[]> {
  const handlers = new Proxy({}, { get: () => async () => [] }) as unknown as Handlers;
  const server = await listen(createServer(handlers, { resolveKey }));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const once = (name: string) =>
    new Promise<number>((resolve, reject) => {
      const headers = conditions(Math.floor(Date.now() / 1000))[name];
      const started = process.hrtime.bigint();
      const req = http.request(server.url + PATH, { method: "GET", headers, agent }, (res) => {
        res.resume();
        res.on("end", () =>
          res.statusCode === 401
            ? resolve(Number(process.hrtime.bigint() - started))
            : reject(new Error(`${name}: status ${res.statusCode}`)),
        );
      });
      req.on("error", reject);
      req.end();
    });
  try {
    for (const name of Object.keys(conditions(0))) for (let i = 0; i < 500; i++) await once(name); // warm-up
    const results: [number[], number[]][] = [];
    for (const pair of PAIRS) results.push(await alternated(samples, pair, once));
    return report("HTTP round trip on loopback", samples, "ns", results);
  } finally {
    agent.destroy();
    await server.close();
  }
}

function report(title: string, samples: number, unit: string, results: [number[], number[]][]): string[] {
  const lines = [`${title}: ${samples} samples per condition, alternated in random order`];
  PAIRS.forEach(([a, b], i) => {
    const [ta, tb] = results[i];
    const ma = median(ta);
    const mb = median(tb);
    const mw = mannWhitney(ta, tb);
    lines.push(`  ${a.padEnd(28)} median ${(ma / 1000).toFixed(2)} µs`);
    lines.push(`  ${b.padEnd(28)} median ${(mb / 1000).toFixed(2)} µs`);
    lines.push(
      `    ratio ${(ma / mb).toFixed(3)}, difference ${((ma - mb) / 1000).toFixed(3)} µs; Mann-Whitney z=${mw.z.toFixed(2)} p=${mw.p.toFixed(3)}, P(first slower)=${mw.pAgreaterB.toFixed(3)}`,
    );
  });
  void unit;
  return lines;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { samples: { type: "string" }, "http-samples": { type: "string" } } });
  const samples = Number(values.samples ?? 100_000);
  const httpSamples = Number(values["http-samples"] ?? 10_000);
  if (!Number.isInteger(samples) || samples < 100 || !Number.isInteger(httpSamples) || httpSamples < 100) {
    console.error("usage: node --import tsx bench/auth-timing.ts [--samples N>=100] [--http-samples N>=100]");
    process.exit(2);
  }
  console.log(`auth rejection timing (node ${process.version})`);
  for (const line of await inProcess(samples)) console.log(line);
  for (const line of await overHttp(httpSamples)) console.log(line);
  console.log(
    "Reading: (a) is an oracle only if it stands out from the yardstick of two existing keys (secrets differ by a few ns of\n" +
      "constant cost each); (b) only if it stands out from the A/A control. Ratios are first/second condition.",
  );
}

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].split("/").pop() as string);
if (invokedDirectly) await main();
