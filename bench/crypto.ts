// Section "crypto": the two hot-path primitives, each with the implementation the code uses ("ours")
// against the alternative: HMAC-SHA256 request signing (node:crypto vs @noble/hashes) and Ed25519
// webhook signatures (node:crypto vs @noble/ed25519, both through runtime/webhooks/signature.ts).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { computeSignature, type SignatureParts, stringToSign } from "../runtime/http/hmac.ts";
import {
  type Ed25519Backend,
  signWebhook,
  standardWebhookContent,
  verifyWebhook,
  webhookCrypto,
} from "../runtime/webhooks/signature.ts";
import type { BenchContext, SectionResult } from "./context.ts";
import { alternate, entry, median, type ResultEntry } from "./stats.ts";

/** Calls `op` for `ms` milliseconds; operations per second. */
export function opsPerSecond(ms: number, op: () => unknown): number {
  let count = 0;
  let sink: unknown;
  const started = performance.now();
  let now = started;
  while (now - started < ms) {
    for (let i = 0; i < 64; i++) sink = op();
    count += 64;
    now = performance.now();
  }
  if (sink === Symbol.for("never")) console.log(sink); // keeps the result alive
  return count / ((now - started) / 1000);
}

/** ACCESS-SIGN with @noble/hashes, byte for byte what runtime/http/hmac.ts computes. */
function nobleAccessSign(secret: string, parts: SignatureParts): string {
  const mac = hmac(sha256, utf8ToBytes(secret), utf8ToBytes(stringToSign(parts)));
  return Buffer.from(bytesToHex(mac), "utf8").toString("base64");
}

/** Which implementation the runtime source uses, read from the source so the table cannot lie. */
export function implementationsInUse(root: string): { hmac: string; ed25519: string } {
  const hmacSource = readFileSync(join(root, "runtime/http/hmac.ts"), "utf8");
  const webhookSource = readFileSync(join(root, "runtime/webhooks/signature.ts"), "utf8");
  const hmacImpl = /createHmac[^;]*from "node:crypto"/.test(hmacSource)
    ? "node:crypto"
    : /@noble\/hashes/.test(hmacSource)
      ? "@noble/hashes"
      : "unknown";
  const backend = webhookSource.match(/input\.backend \?\? (\w+)Backend/)?.[1];
  return {
    hmac: hmacImpl,
    ed25519: backend === "node" ? "node:crypto" : backend === "noble" ? "@noble/ed25519" : "unknown",
  };
}

const NAMES: Record<string, string> = { node: "node:crypto", noble: "@noble/ed25519" };

/** What the measurements share: the slice length, the alternation plan and the implementations in use. */
interface Plan {
  sliceMs: number;
  plan: { warmups: number; runs: number };
  inUse: { hmac: string; ed25519: string };
}

/** One `alternate` run of the same operation through node:crypto and through noble; samples by name. */
function nodeAgainstNoble(p: Plan, node: () => unknown, noble: () => unknown) {
  return alternate(
    [
      { name: "node", run: async () => opsPerSecond(p.sliceMs, node) },
      { name: "noble", run: async () => opsPerSecond(p.sliceMs, noble) },
    ],
    p.plan,
  );
}

/** HMAC-SHA256 ACCESS-SIGN of a GET and of a POST with a body, after checking both give the same bytes. */
async function measureAccessSign(p: Plan): Promise<ResultEntry[]> {
  const entries: ResultEntry[] = [];
  const secret = "s3cr3t-api-secret-0123456789abcdef";
  const getParts: SignatureParts = {
    method: "GET",
    path: "/api/v1/wallets/wal_0123456789/overview",
    timestamp: 1_700_000_000,
  };
  const postParts: SignatureParts = {
    method: "POST",
    path: "/api/v1/wallets/wal_0123456789/withdrawals",
    timestamp: 1_700_000_000,
    body: JSON.stringify({
      asset_id: "eth",
      amount: "0.5",
      recipient_address: `0x${"ab".repeat(20)}`,
      note: "x".repeat(400),
    }),
  };
  for (const [label, parts] of [
    ["GET, no body", getParts],
    ["POST, 0.5 KB body", postParts],
  ] as const) {
    if (computeSignature(secret, parts) !== nobleAccessSign(secret, parts))
      throw new Error("noble and node:crypto ACCESS-SIGN differ; the comparison would be meaningless");
    const samples = await nodeAgainstNoble(
      p,
      () => computeSignature(secret, parts),
      () => nobleAccessSign(secret, parts),
    );
    const [ours, other] =
      p.inUse.hmac === "@noble/hashes" ? (["noble", "node"] as const) : (["node", "noble"] as const);
    entries.push(
      entry(
        `HMAC-SHA256 ACCESS-SIGN (${label}), in use: ${p.inUse.hmac}`,
        median(samples[ours]),
        ours === "node" ? "@noble/hashes" : "node:crypto",
        median(samples[other]),
        "ops/s",
      ),
    );
  }
  return entries;
}

/** The webhook fixture: a key, an event body, its Standard Webhooks content and node's signature of it. */
function webhookFixture() {
  const seed = new Uint8Array(32).map((_, i) => i + 1);
  const body = JSON.stringify({
    id: "evt_0123456789",
    type: "deposit.confirmed",
    created_at: "2025-01-01T00:00:00Z",
    workspace_id: "ws_1",
    data: { wallet_id: "wal_1", amount: "1.25", tx_hash: `0x${"cd".repeat(32)}` },
  });
  const message = standardWebhookContent("evt_0123456789", 1_700_000_000, body);
  const publicKey = webhookCrypto.node.publicKey(seed);
  const signature = webhookCrypto.node.sign(message, seed);
  if (
    !webhookCrypto.noble.verify(signature, message, publicKey) ||
    Buffer.compare(Buffer.from(webhookCrypto.noble.sign(message, seed)), Buffer.from(signature)) !== 0
  ) {
    throw new Error("noble and node:crypto Ed25519 disagree; the comparison would be meaningless");
  }
  return { seed, body, message, publicKey, signature };
}

type Fixture = ReturnType<typeof webhookFixture>;

/** The backend in use and the other one, by their short names. */
function ed25519Names(p: Plan) {
  const oursName = p.inUse.ed25519 === "@noble/ed25519" ? "noble" : "node";
  const otherName = oursName === "node" ? "noble" : "node";
  return { oursName, otherName } as const;
}

/** Ed25519 sign and verify alone, per backend. */
async function measureEd25519(p: Plan, f: Fixture): Promise<ResultEntry[]> {
  const entries: ResultEntry[] = [];
  const { oursName, otherName } = ed25519Names(p);
  const ops: Array<[string, (b: Ed25519Backend) => unknown]> = [
    ["sign", (b) => b.sign(f.message, f.seed)],
    ["verify", (b) => b.verify(f.signature, f.message, f.publicKey)],
  ];
  for (const [label, op] of ops) {
    const samples = await nodeAgainstNoble(
      p,
      () => op(webhookCrypto.node),
      () => op(webhookCrypto.noble),
    );
    entries.push(
      entry(
        `Ed25519 webhook ${label}, in use: ${p.inUse.ed25519}`,
        median(samples[oursName]),
        NAMES[otherName],
        median(samples[otherName]),
        "ops/s",
      ),
    );
  }
  return entries;
}

/** The whole receiver path (header parsing, canonical JSON, hex and base64 decoding, verify), per backend. */
async function measureReceiver(p: Plan, f: Fixture): Promise<ResultEntry[]> {
  const entries: ResultEntry[] = [];
  const { oursName, otherName } = ed25519Names(p);
  const { seed, body } = f;
  const deliveries = [
    ["canonical-json", signWebhook({ profile: "canonical-json", privateKey: seed, body })],
    [
      "standard-webhooks",
      signWebhook({
        profile: "standard-webhooks",
        privateKey: seed,
        body,
        id: "evt_0123456789",
        timestamp: 1_700_000_000,
      }),
    ],
  ] as const;
  const publicKeyBase64 = Buffer.from(f.publicKey).toString("base64");
  for (const [profile, headers] of deliveries) {
    const verify = (backend: Ed25519Backend) =>
      verifyWebhook({ publicKeyBase64, headers, body, now: 1_700_000_000, backend });
    if (!verify(webhookCrypto.node).ok || !verify(webhookCrypto.noble).ok)
      throw new Error(`verifyWebhook refuses its own ${profile} delivery`);
    const samples = await nodeAgainstNoble(
      p,
      () => verify(webhookCrypto.node),
      () => verify(webhookCrypto.noble),
    );
    entries.push(
      entry(
        `verifyWebhook (${profile}), in use: ${p.inUse.ed25519}`,
        median(samples[oursName]),
        NAMES[otherName],
        median(samples[otherName]),
        "ops/s",
      ),
    );
  }
  return entries;
}

export async function benchCrypto(ctx: BenchContext): Promise<SectionResult> {
  const sliceMs = ctx.quick ? 200 : 500;
  const plan = { warmups: 1, runs: ctx.quick ? 3 : 7 };
  const inUse = implementationsInUse(ctx.root);
  ctx.log(`crypto: ${plan.warmups} warm-up + ${plan.runs} slices of ${sliceMs} ms per implementation`);
  const p: Plan = { sliceMs, plan, inUse };
  const entries: ResultEntry[] = [...(await measureAccessSign(p))];
  const fixture = webhookFixture();
  entries.push(...(await measureEd25519(p, fixture)), ...(await measureReceiver(p, fixture)));
  const notes = [
    `crypto: the code uses ${inUse.hmac} for HMAC-SHA256 (runtime/http/hmac.ts) and ${inUse.ed25519} by default for Ed25519 (runtime/webhooks/signature.ts); ratio > 1 means that choice is the faster one.`,
  ];
  return { entries, notes };
}
