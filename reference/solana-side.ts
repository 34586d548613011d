// Starting the sandbox's Solana side: the runtime (LiteSVM, loaded only here, so nothing else pays for
// it) and its JSON-RPC. When LiteSVM is not installed the sandbox runs without Solana and says why in
// one line; Solana addresses are still derived, only transfers are missing.
import { createHmac } from "node:crypto";
import { join } from "node:path";
import type { SolanaRuntime } from "./chain/solana/runtime.ts";
import type { ApiKeys } from "./node/auth.ts";
import type { SolanaRpc } from "./node/solana/server.ts";

export interface SolanaSide {
  runtime: SolanaRuntime;
  rpc: SolanaRpc;
  close(): Promise<void>;
}

export interface SolanaSideOptions {
  /** The EVM faucet key (0x hex): the Solana faucet's seed is derived from it, so a seed reproduces both. */
  faucetPrivateKey: string;
  apiKeys: ApiKeys;
  host: string;
  port?: number;
  slotMs?: number;
  /** The sandbox's data folder; the ledger goes to DIR/solana. */
  dataDir?: string;
  log: (message: string) => void;
}

export async function startSolanaSide(opts: SolanaSideOptions): Promise<SolanaSide | undefined> {
  const { SolanaRuntime } = await import("./chain/solana/runtime.ts");
  const { SolanaRuntimeUnavailable } = await import("./chain/solana/litesvm-binding.ts");
  let runtime: SolanaRuntime;
  try {
    runtime = SolanaRuntime.start({
      faucetSeed: new Uint8Array(
        createHmac("sha256", Buffer.from(opts.faucetPrivateKey.replace(/^0x/, ""), "hex"))
          .update("custody-sandbox/solana-faucet/v1")
          .digest(),
      ),
      ...(opts.slotMs !== undefined ? { slotMs: opts.slotMs } : {}),
      ...(opts.dataDir ? { dataDir: join(opts.dataDir, "solana") } : {}),
    });
  } catch (error) {
    if (error instanceof SolanaRuntimeUnavailable) {
      opts.log(`${error.message}; Solana addresses are still derived, SOL transfers are off`);
      return undefined;
    }
    throw error;
  }
  try {
    const { startSolanaRpc } = await import("./node/solana/server.ts");
    const rpc = await startSolanaRpc({ runtime, apiKeys: opts.apiKeys, host: opts.host, port: opts.port ?? 0 });
    return {
      runtime,
      rpc,
      async close() {
        await rpc.close();
        runtime.close();
      },
    };
  } catch (error) {
    runtime.close();
    throw error;
  }
}
