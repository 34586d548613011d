// What the suite knows about a target: URLs and credentials, nothing else.
import type { Group, Level, SupplyMode } from "./types.ts";

export interface Credentials {
  apiKey: string;
  apiSecret: string;
}

export interface OtherTenant {
  credentials: Credentials;
  /** Its workspace id (--other-workspace-id); found with its own key when not given. */
  workspaceId?: string;
}

export interface SeedFixtureIds {
  walletId?: string;
  assetId?: string;
  withdrawalId?: string;
  deliveryId?: string;
  webhookId?: string;
}

export interface TargetConfig {
  /** Wallet API base; operation paths (which start with /api/v1) are appended. */
  baseUrl: string;
  /** Node access base; HTTP JSON-RPC at `${rpcUrl}/rpc`. */
  rpcUrl: string;
  /** Full WebSocket URL (default: rpcUrl with the ws scheme and /ws). */
  wsUrl: string;
  admin: Credentials;
  rpcApiKey: string;
  workspaceId?: string;
  viewer?: Credentials;
  scoped?: Credentials;
  /** A key of another workspace (--other-api-key/--other-api-secret): the tenant isolation checks. */
  other?: OtherTenant;
  faucetPrivateKey?: string;
  /** The deployment's Solana JSON-RPC (POST at this URL; the node-access key in api_key), for the chains checks. */
  solanaRpcUrl?: string;
  fixtureIds: SeedFixtureIds;
  /** Public URL of our webhook receiver when the deployment cannot reach 127.0.0.1. */
  webhookReceiverUrl?: string;
  /** Require this webhook signature profile (default: accept either, report which matched). */
  webhookProfile?: "standard-webhooks" | "canonical-json";
  /** Where the receiver listens (default 127.0.0.1, port 0 or the public URL's port). */
  webhookListenHost?: string;
  webhookListenPort?: number;
}

export interface RunOptions {
  level: Level;
  only?: Group[];
  /** Per-check time limit; a single request gets the same bound. */
  timeoutMs: number;
  /** Checks run at the same time. */
  concurrency: number;
  /** How fixtures are supplied (supply.ts); default: created at --level full, given at seed. */
  supply?: SupplyMode;
  /** Response body limit in bytes (--max-body-mib); default probe.ts's DEFAULT_MAX_BODY_BYTES. */
  maxBodyBytes?: number;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_CONCURRENCY = 8;

/** The seed's WebSocket address, wss://{rpc_host}/ws (4.1): the host of --rpc-url, path /ws (ws:// for an http:// rpc URL). */
export function defaultWsUrl(rpcUrl: string): string {
  const url = new URL(rpcUrl);
  return `${url.protocol === "https:" ? "wss:" : "ws:"}//${url.host}/ws`;
}

export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, "")}${path.startsWith("/") ? path : `/${path}`}`;
}

/** True when the host is this machine, so a receiver on 127.0.0.1 is reachable from the deployment. */
export function isLoopbackUrl(url: string): boolean {
  try {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
    return host === "localhost" || host === "::1" || host.startsWith("127.");
  } catch {
    return false;
  }
}
