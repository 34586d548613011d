import { join } from "node:path";
import { startWalletApi, type WalletApi } from "./api/server.ts";
import { ReferenceApp } from "./app.ts";
import type { ChainBackend } from "./chain/backend.ts";
// The reference deployment ("sandbox"): the wallet API (generated server + reference handlers) on one
// port and the node access (JSON-RPC gateway over the embedded chain, or --upstream) on another, both
// on loopback by default, over one state store.
import { startEmbeddedChain } from "./chain/embedded-chain.ts";
import type { SolanaRuntime } from "./chain/solana/runtime.ts";
import { connectUpstreamChain } from "./chain/upstream-chain.ts";
import { fixedCredentials, type SandboxOptions, seedOf, seedValues, webhookProfileOf } from "./config.ts";
import { type NodeAccess, startNodeAccess } from "./node/server.ts";
import { ensureSeeded } from "./seed-store.ts";
import { startSolanaSide } from "./solana-side.ts";
import { StateStore } from "./store/state-store.ts";

export type { SandboxOptions } from "./config.ts";

/**
 * What a started sandbox hands out: its URLs and seeded credentials. Declared once: the sandbox file
 * (`custody request`, `trigger`, `mcp`), certify's worker handle and `sandbox --json` all carry it.
 */
export interface SandboxCredentials {
  /** Wallet API base URL, without /api/v1. */
  base_url: string;
  /** Node access base URL; HTTP JSON-RPC at `${rpc_url}/rpc`. */
  rpc_url: string;
  /** WebSocket JSON-RPC URL, ending in /ws. */
  ws_url: string;
  /** Solana JSON-RPC (at "/", same API key rules); absent when the sandbox runs without Solana. */
  solana_rpc_url?: string;
  /** Its WebSocket, on the RPC port + 1 (where @solana/web3.js looks for it). */
  solana_ws_url?: string;
  workspace_id: string;
  api_key: string;
  api_secret: string;
  viewer_api_key: string;
  viewer_api_secret: string;
  scoped_api_key: string;
  scoped_api_secret: string;
  rpc_api_key: string;
  faucet_private_key: string;
  /** A second workspace and its owner key: another tenant (certify's isolation checks). */
  other_workspace_id: string;
  other_api_key: string;
  other_api_secret: string;
}

export interface Sandbox extends SandboxCredentials {
  /** The running core, for in-process tests and tools. */
  app: ReferenceApp;
  /** How long each start-up phase took, in ms (store: replaying the data directory; chain: both chains, started together; app: indexes and resuming work). */
  startup: { store_ms: number; chain_ms: number; app_ms: number; servers_ms: number };
  /** Stops both servers, the background work, flushes the store and closes the chain. Idempotent. */
  close(): Promise<void>;
}

/** The credentials record of a started sandbox, without its running parts (what crosses a thread or a file). */
export function sandboxCredentials(s: Sandbox): SandboxCredentials {
  const { app: _app, startup: _startup, close: _close, ...credentials } = s;
  return credentials;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const host = options.host ?? "127.0.0.1";
  const logError =
    options.logger?.error.bind(options.logger) ?? ((m: string) => process.stderr.write(`custody sandbox: ${m}\n`));
  const fresh = seedValues(fixedCredentials(options), seedOf(options));
  let mark = performance.now();
  const lap = () => Math.round(-mark + (mark = performance.now()));
  const store = StateStore.open(options.dataDir ? { dataDir: options.dataDir } : {});
  const startup = { store_ms: lap(), chain_ms: 0, app_ms: 0, servers_ms: 0 };
  const cleanups: Array<() => Promise<void> | void> = [() => store.close()];
  const unwind = async () => {
    for (const c of cleanups.splice(0).reverse()) {
      try {
        await c();
      } catch (error) {
        logError(`while stopping: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  };
  try {
    const { values } = ensureSeeded(store, fresh, new Date());
    const rpcApiKeys = new Set([values.rpcApiKey]);
    // Both chains start at once: LiteSVM loads while the EVM node starts up in its own process.
    const [evm, sol] = await Promise.allSettled([
      startChain(options, values, logError),
      options.solana === false
        ? undefined
        : startSolanaSide({
            faucetPrivateKey: values.faucetPrivateKey,
            apiKeys: rpcApiKeys,
            host,
            port: options.solanaRpcPort,
            slotMs: options.solanaSlotMs,
            dataDir: options.dataDir,
            log: logError,
          }),
    ]);
    if (evm.status === "fulfilled") cleanups.push(() => evm.value.close());
    if (sol.status === "fulfilled" && sol.value) cleanups.push(() => sol.value?.close());
    if (evm.status === "rejected") throw evm.reason;
    if (sol.status === "rejected") throw sol.reason;
    const backend = evm.value;
    const solana = sol.value;
    startup.chain_ms = lap();

    const app = referenceApp(options, store, backend, solana?.runtime, values, logError);
    cleanups.push(() => app.close());
    await app.start();
    startup.app_ms = lap();

    const node: NodeAccess = await startNodeAccess({ backend, apiKeys: rpcApiKeys, host, port: options.rpcPort ?? 0 });
    cleanups.push(() => node.close());
    const owner = {
      workspace_id: values.workspaceId,
      api_key: values.apiKey,
      api_secret: values.apiSecret,
      key_role: "owner",
    };
    const frontDoor = {
      corsOrigins: options.corsOrigins,
      console: owner,
      faucetPrivateKey: values.faucetPrivateKey,
      embeddedChain: backend.kind === "embedded",
      host,
    };
    const api: WalletApi = await startWalletApi(app, { host, port: options.port ?? 0, logError, frontDoor });
    cleanups.push(() => api.close());
    startup.servers_ms = lap();

    let closing: Promise<void> | undefined;
    const urls = { base_url: api.url, rpc_url: node.url, ws_url: node.wsUrl };
    const solanaUrls = solana ? { solana_rpc_url: solana.rpc.url, solana_ws_url: solana.rpc.wsUrl } : {};
    return { ...sandboxRecord(values, urls, solanaUrls), app, startup, close: () => (closing ??= unwind()) };
  } catch (error) {
    await unwind();
    throw error;
  }
}

type Values = ReturnType<typeof seedValues>;
type LogError = (message: string) => void;

/** The EVM chain the sandbox serves: an upstream node, or the embedded one. */
async function startChain(options: SandboxOptions, values: Values, logError: LogError): Promise<ChainBackend> {
  return options.upstreamUrl
    ? connectUpstreamChain({ url: options.upstreamUrl })
    : startEmbeddedChain({
        blockTimeSeconds: options.blockTimeSeconds ?? 1,
        faucetPrivateKey: values.faucetPrivateKey,
        onEvent: logError,
        // With --data the chain lives beside the journal, so withdrawals and deposits survive a restart.
        ...(options.dataDir ? { dbPath: join(options.dataDir, "chain") } : {}),
        ...(options.chainId !== undefined ? { chainId: options.chainId } : {}),
      });
}

/** The wallet service over the store and the chains, configured from the sandbox options. */
function referenceApp(
  options: SandboxOptions,
  store: StateStore,
  backend: ChainBackend,
  solana: SolanaRuntime | undefined,
  values: Values,
  logError: LogError,
): ReferenceApp {
  return new ReferenceApp({
    store,
    backend,
    ...(solana ? { solana } : {}),
    solanaConfirmationSlots: options.solanaConfirmationSlots,
    walletMasterSeed: Buffer.from(values.walletMasterSeed, "hex"),
    confirmationBlocks: options.confirmationBlocks,
    settings: {
      ...(options.walletCreationDelayMs !== undefined ? { walletCreationDelayMs: options.walletCreationDelayMs } : {}),
      ...(options.requiredApprovals !== undefined ? { requiredApprovals: options.requiredApprovals } : {}),
    },
    webhookProfile: webhookProfileOf(options),
    webhookSchedule: options.webhookSchedule,
    webhookRetry: options.webhookRetry,
    webhookTimeoutMs: options.webhookTimeoutMs,
    webhookDelivery: options.webhookDelivery,
    allowPrivateWebhookTargets: options.allowPrivateWebhookTargets,
    chainPollIntervalMs: Math.max(250, (options.blockTimeSeconds ?? 1) * 2000),
    onError: logError,
  });
}

/** The credentials record: URLs and the seeded keys. */
function sandboxRecord(
  values: Values,
  urls: Pick<SandboxCredentials, "base_url" | "rpc_url" | "ws_url">,
  solanaUrls: Pick<SandboxCredentials, "solana_rpc_url" | "solana_ws_url">,
): SandboxCredentials {
  return {
    ...urls,
    ...solanaUrls,
    workspace_id: values.workspaceId,
    api_key: values.apiKey,
    api_secret: values.apiSecret,
    viewer_api_key: values.viewerApiKey,
    viewer_api_secret: values.viewerApiSecret,
    scoped_api_key: values.scopedApiKey,
    scoped_api_secret: values.scopedApiSecret,
    rpc_api_key: values.rpcApiKey,
    faucet_private_key: values.faucetPrivateKey,
    other_workspace_id: values.otherWorkspaceId,
    other_api_key: values.otherApiKey,
    other_api_secret: values.otherApiSecret,
  };
}
