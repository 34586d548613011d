// A deployment as every command knows it: URLs and credentials, nothing else. `custody certify`
// needs all of it (Target); `request`, `trigger` and `mcp` need the wallet API part (ApiTarget).
// cli/target.ts resolves one from flags, the config file, the environment and a sandbox.

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

/** The wallet API of a deployment and the owner's (or an admin's) key. */
export interface ApiTarget {
  /** Wallet API base; operation paths (which start with /api/v1) are appended. */
  baseUrl: string;
  admin: Credentials;
  workspaceId?: string;
  /** Where the values came from, for messages ("flags/environment", a sandbox file, "--sandbox"). */
  source?: string;
}

/** Everything certify may use: node access, restricted keys, a second tenant, fixtures, the receiver. */
export interface Target extends ApiTarget {
  /** Node access base; HTTP JSON-RPC at `${rpcUrl}/rpc`. */
  rpcUrl: string;
  /** Full WebSocket URL (default: rpcUrl with the ws scheme and /ws). */
  wsUrl: string;
  rpcApiKey: string;
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

/** A setting that is missing or wrong; the message names the flag (and its environment variable). */
export class TargetError extends Error {
  override name = "TargetError";
}

/** `raw` as an http(s) URL without trailing slashes; a TargetError naming `setting` otherwise. */
export function httpUrl(raw: string, setting: string): string {
  const url = parseUrl(raw, setting);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TargetError(`${setting} must be http:// or https://, not ${url.protocol}`);
  }
  return raw.replace(/\/+$/, "");
}

/** `raw` as a ws(s) URL; a TargetError naming `setting` otherwise. */
export function wsUrl(raw: string, setting: string): string {
  const url = parseUrl(raw, setting);
  if (url.protocol !== "ws:" && url.protocol !== "wss:") {
    throw new TargetError(`${setting} must be ws:// or wss://, not ${url.protocol}`);
  }
  return raw;
}

function parseUrl(raw: string, setting: string): URL {
  try {
    return new URL(raw);
  } catch {
    throw new TargetError(`${setting} is not a URL: "${raw}"`);
  }
}

/** The seed's WebSocket address, wss://{rpc_host}/ws (4.1): the host of the RPC URL, path /ws. */
export function defaultWsUrl(rpcUrl: string): string {
  const url = new URL(rpcUrl);
  return `${url.protocol === "https:" ? "wss:" : "ws:"}//${url.host}/ws`;
}
