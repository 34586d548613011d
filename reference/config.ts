// Options of the reference deployment and the values it seeds (workspace, API keys, node-access key,
// faucet key, wallet master seed, webhook signing key).
//
// Reproducible runs: with a `seed` every seeded value is derived from it (HMAC-SHA256(seed, label)), so
// two runs with the same seed print the same credentials and derive the same wallet addresses. Single
// values can also be fixed one by one, by option or by CUSTODY_SANDBOX_* environment variable (options
// win). Without either, everything is random. With a data directory the values of the first run are
// stored and reused on every restart.
import { createHmac, randomBytes } from "node:crypto";
import type { WebhookProfile } from "../runtime/webhooks/signature.ts";
import { CREDENTIAL_ENV, PROFILE_ENV, type SandboxCredentials, SEED_ENV } from "./credential-env.ts";
import { uuidFromBytes } from "./domain/ids.ts";
import type { RetrySchedule } from "./webhooks/backoff.ts";
import type { DeliverySchedule, PolicyChoice } from "./webhooks/policy.ts";

export type { SandboxCredentials };

export interface SandboxOptions {
  /** Default 127.0.0.1 (loopback only). */
  host?: string;
  /** Wallet API port; default 0 (a free port). */
  port?: number;
  /** Node-access port; default 0. */
  rpcPort?: number;
  /** Durable state directory; absent = in memory. */
  dataDir?: string;
  /** Forward node access to this JSON-RPC node instead of the embedded chain. */
  upstreamUrl?: string;
  /** Seconds between blocks of the embedded chain. Default 1. */
  blockTimeSeconds?: number;
  /** Chain id of the embedded chain. Default 1337. */
  chainId?: number;
  /** Run the embedded Solana runtime (LiteSVM). Default true; without its package the sandbox runs without it and says so. */
  solana?: boolean;
  /** Solana RPC port (its WebSocket is port + 1, where web3.js looks). Default 0: a free pair. */
  solanaRpcPort?: number;
  /** Milliseconds per Solana slot. Default 400 (Solana's target). */
  solanaSlotMs?: number;
  /** Slots until a Solana deposit counts. Default 32 (the depth of Solana's finalized commitment). */
  solanaConfirmationSlots?: number;
  /** confirmation_blocks of the sandbox network. Default 3. */
  confirmationBlocks?: number;
  /** Derive every seeded value from this string (reproducible runs). */
  seed?: string;
  credentials?: SandboxCredentials;
  /** Webhook signature profile. Default canonical-json (the real service's). */
  webhookProfile?: WebhookProfile;
  /** Webhook delays: "sandbox" (default: seconds, see reference/webhooks/policy.ts) or "production" (the spec's). */
  webhookSchedule?: DeliverySchedule;
  webhookRetry?: Partial<RetrySchedule>;
  /** Time allowed for one delivery attempt. Default 10000 ms (the spec's timeout). */
  webhookTimeoutMs?: number;
  /** Circuit breaker, disabling and slot settings of webhook delivery (tests, benchmarks). */
  webhookDelivery?: PolicyChoice["overrides"];
  /** Loopback/private receivers (the sandbox is for local development). Default true. */
  allowPrivateWebhookTargets?: boolean;
  /** Delay before a new wallet becomes `success`. Default 500 ms. */
  walletCreationDelayMs?: number;
  /** Approvals per withdrawal. Default 1. */
  requiredApprovals?: number;
  /** Origins allowed to call the wallet API from a browser (CORS); default ["*"], any origin. */
  corsOrigins?: readonly string[];
  /** Environment to read CUSTODY_SANDBOX_* from. Default process.env; pass {} to ignore it. */
  env?: Record<string, string | undefined>;
  /** Where internal errors go (never secrets). Default: stderr. */
  logger?: { error(message: string): void };
}

/** The values a sandbox is seeded with. */
export interface SeededValues {
  workspaceId: string;
  apiKey: string;
  apiSecret: string;
  viewerApiKey: string;
  viewerApiSecret: string;
  scopedApiKey: string;
  scopedApiSecret: string;
  rpcApiKey: string;
  faucetPrivateKey: `0x${string}`;
  walletMasterSeed: string;
  webhookPrivateKey: string;
  otherWorkspaceId: string;
  otherApiKey: string;
  otherApiSecret: string;
  otherWebhookPrivateKey: string;
}

// secp256k1 group order (a faucet key must be in [1, n-1]).
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const ID_SYNTAX = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

/** Fixed values from the environment, then from options (options win). */
export function fixedCredentials(options: SandboxOptions): SandboxCredentials {
  const env = options.env ?? process.env;
  const fromEnv: SandboxCredentials = {};
  for (const [k, name] of Object.entries(CREDENTIAL_ENV) as [keyof SandboxCredentials, string][]) {
    const v = env[name];
    if (v !== undefined && v !== "") fromEnv[k] = v;
  }
  const fromOptions = Object.fromEntries(
    Object.entries(options.credentials ?? {}).filter(([, v]) => v !== undefined && v !== ""),
  );
  return { ...fromEnv, ...fromOptions };
}

export function seedOf(options: SandboxOptions): string | undefined {
  const env = options.env ?? process.env;
  return options.seed ?? (env[SEED_ENV] || undefined);
}

export function webhookProfileOf(options: SandboxOptions): WebhookProfile {
  const env = options.env ?? process.env;
  const p = options.webhookProfile ?? env[PROFILE_ENV] ?? "canonical-json";
  if (p !== "standard-webhooks" && p !== "canonical-json")
    throw new Error(`unknown webhook profile '${p}' (standard-webhooks or canonical-json)`);
  return p;
}

/** Every seeded value: fixed ones as given, the rest derived from the seed, or random. */
export function seedValues(fixed: SandboxCredentials, seed: string | undefined): SeededValues {
  const bytes = (label: string): Buffer =>
    seed === undefined ? randomBytes(32) : createHmac("sha256", seed).update(`custody-sandbox/${label}`).digest();
  const hex = (label: string, n: number) => bytes(label).toString("hex").slice(0, n);
  // The sk_ prefix keeps a secret from starting with "-", which command lines would read as a flag.
  const secret = (label: string) => `sk_${bytes(label).toString("base64url")}`;
  const values: SeededValues = {
    workspaceId: fixed.workspaceId ?? uuidFromBytes(bytes("workspace")),
    apiKey: fixed.apiKey ?? `key_${hex("key/admin", 24)}`,
    apiSecret: fixed.apiSecret ?? secret("secret/admin"),
    viewerApiKey: fixed.viewerApiKey ?? `key_${hex("key/viewer", 24)}`,
    viewerApiSecret: fixed.viewerApiSecret ?? secret("secret/viewer"),
    scopedApiKey: fixed.scopedApiKey ?? `key_${hex("key/scoped", 24)}`,
    scopedApiSecret: fixed.scopedApiSecret ?? secret("secret/scoped"),
    rpcApiKey: fixed.rpcApiKey ?? `rpc_${hex("rpc", 32)}`,
    faucetPrivateKey: (fixed.faucetPrivateKey ?? faucetKey(bytes)) as `0x${string}`,
    walletMasterSeed: fixed.walletMasterSeed ?? hex("wallet-master-seed", 64),
    webhookPrivateKey: fixed.webhookPrivateKey ?? hex("webhook-ed25519", 64),
    otherWorkspaceId: fixed.otherWorkspaceId ?? uuidFromBytes(bytes("other-workspace")),
    otherApiKey: fixed.otherApiKey ?? `key_${hex("key/other-owner", 24)}`,
    otherApiSecret: fixed.otherApiSecret ?? secret("secret/other-owner"),
    otherWebhookPrivateKey: hex("other-webhook-ed25519", 64),
  };
  validateSeeded(values);
  return values;
}

function faucetKey(bytes: (label: string) => Buffer): string {
  for (let n = 0; ; n++) {
    const b = bytes(`faucet/${n}`);
    const k = BigInt(`0x${b.toString("hex")}`);
    if (k > 0n && k < SECP256K1_N) return `0x${b.toString("hex")}`;
  }
}

function validateSeeded(v: SeededValues): void {
  for (const [name, id] of [
    ["workspace id", v.workspaceId],
    ["api key", v.apiKey],
    ["viewer api key", v.viewerApiKey],
    ["scoped api key", v.scopedApiKey],
    ["other workspace id", v.otherWorkspaceId],
    ["other api key", v.otherApiKey],
  ] as const) {
    if (!ID_SYNTAX.test(id)) throw new Error(`${name} must match ${ID_SYNTAX.source}`);
  }
  if (new Set([v.apiKey, v.viewerApiKey, v.scopedApiKey, v.otherApiKey]).size !== 4)
    throw new Error("the four seeded API keys must differ");
  if (v.otherWorkspaceId === v.workspaceId) throw new Error("the other workspace id must differ from the workspace id");
  for (const [name, s] of [
    ["api secret", v.apiSecret],
    ["viewer api secret", v.viewerApiSecret],
    ["scoped api secret", v.scopedApiSecret],
    ["other api secret", v.otherApiSecret],
    ["rpc api key", v.rpcApiKey],
  ] as const) {
    if (s.length < 8 || s.length > 256 || /\s/.test(s))
      throw new Error(`${name} must be 8..256 characters without spaces`);
  }
  if (!/^0x[0-9a-fA-F]{64}$/.test(v.faucetPrivateKey))
    throw new Error("faucet private key must be 0x followed by 64 hex digits");
  if (!/^[0-9a-fA-F]{64}$/.test(v.walletMasterSeed)) throw new Error("wallet master seed must be 64 hex digits");
  if (!/^[0-9a-fA-F]{64}$/.test(v.webhookPrivateKey)) throw new Error("webhook private key must be 64 hex digits");
  if (!/^[0-9a-fA-F]{64}$/.test(v.otherWebhookPrivateKey))
    throw new Error("other webhook private key must be 64 hex digits");
}
