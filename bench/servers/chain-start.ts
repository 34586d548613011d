// A measured child of bench/chains.ts: starts one chain engine the way the sandbox does, waits until it
// answers, stops it and exits. `solana`: the embedded LiteSVM runtime (in this process); `anvil`: the
// embedded EVM chain (a supervised child process). Prints the start-to-ready milliseconds.
import { startEmbeddedChain } from "../../reference/chain/embedded-chain.ts";
import { SolanaRuntime } from "../../reference/chain/solana/runtime.ts";

const which = process.argv[2];
const t0 = performance.now();
if (which === "solana") {
  const runtime = SolanaRuntime.start({ faucetSeed: new Uint8Array(32).fill(1) });
  void runtime.latestBlockhash("processed");
  process.stdout.write(`${(performance.now() - t0).toFixed(1)}\n`);
  runtime.close();
} else if (which === "anvil") {
  const chain = await startEmbeddedChain({ blockTimeSeconds: 1 });
  await chain.request({ method: "eth_blockNumber", params: [] });
  process.stdout.write(`${(performance.now() - t0).toFixed(1)}\n`);
  await chain.close();
} else {
  process.stderr.write("usage: chain-start.ts solana|anvil\n");
  process.exit(2);
}
