// Section "chains": the embedded Solana runtime against the embedded EVM chain it sits beside, in the
// same run. (1) Engine start → ready, in a fresh child process (wall time of the child, Node and the
// TypeScript loader included for both; peak resident memory of the process tree, anvil's own process
// included). (2) Deposit → confirmed: a transfer to a wallet until its API balance shows it, at the
// sandbox defaults (EVM: 1 s blocks, 3 confirmations; Solana: 400 ms slots, 32 confirmations).
// (3) Withdrawal request → completed, no approval needed, same defaults.
import { join } from "node:path";
import { base58 } from "@scure/base";
import { type Hex, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { CustodialWalletServiceClient } from "../generated/client.ts";
import { keypairFromSeed } from "../lib/solana/keys.ts";
import { SANDBOX_ETH_ASSET_ID, SANDBOX_SOL_ASSET_ID } from "../reference/domain/catalog.ts";
import { startSandbox } from "../reference/sandbox.ts";
import { measureNode } from "./child.ts";
import type { BenchContext, SectionResult } from "./context.ts";
import { alternate, entry, median } from "./stats.ts";
import { until } from "./until.ts";

export async function benchChains(ctx: BenchContext): Promise<SectionResult> {
  const runs = ctx.quick ? 3 : 5;
  const notes: string[] = [];
  const entries = [];

  // (1) start-up, each engine in its own child
  const startSamples = {
    solana: { ms: [] as number[], rss: [] as number[] },
    anvil: { ms: [] as number[], rss: [] as number[] },
  };
  await alternate(
    (["solana", "anvil"] as const).map((name) => ({
      name,
      run: async () => {
        const m = await measureNode({
          script: join(ctx.root, "bench/servers/chain-start.ts"),
          args: [name],
          nodeFlags: ["--import", "tsx"],
          cwd: ctx.root,
          timeoutMs: 60_000,
        });
        if (!m.ok) throw new Error(`${name} did not start: ${m.failure}`);
        startSamples[name].ms.push(Number(m.stdout.trim().split("\n").pop()));
        if (m.peakRssMB !== null) startSamples[name].rss.push(m.peakRssMB);
        return m.wallSeconds;
      },
    })),
    { runs, warmups: 1 },
  );
  const drop = (xs: number[]) => xs.slice(xs.length - runs); // the warm-up's sample is the first
  entries.push(
    entry(
      "chain engine start → ready (in-process time)",
      median(drop(startSamples.solana.ms)),
      "anvil (embedded EVM chain)",
      median(drop(startSamples.anvil.ms)),
      "ms",
    ),
  );
  entries.push(
    entry(
      "chain engine peak memory (child process tree)",
      median(drop(startSamples.solana.rss)),
      "anvil (embedded EVM chain)",
      median(drop(startSamples.anvil.rss)),
      "MB",
    ),
  );

  // (2) and (3) in one sandbox at its defaults
  const sandbox = await startSandbox({ env: {}, requiredApprovals: 0, walletCreationDelayMs: 10 });
  try {
    if (!sandbox.app.ctx.solana) throw new Error("the sandbox runs without its Solana runtime");
    const client = new CustodialWalletServiceClient({
      baseUrl: sandbox.base_url,
      apiKey: sandbox.api_key,
      apiSecret: sandbox.api_secret,
    });
    const faucet = privateKeyToAccount(sandbox.faucet_private_key as Hex);
    const deposit = async (asset: string): Promise<number> => {
      const id = (await client.createWallet({ body: { name: `bench-${asset}` } })).wallet_id as string;
      await until(
        async () => (await client.getWalletCreationStatus({ params: { wallet_id: id } })).status === "success",
      );
      const family = asset === SANDBOX_SOL_ASSET_ID ? "sol" : "evm";
      const address = (await client.getDepositAddress({ params: { wallet_id: id }, query: { address_type: family } }))
        .address;
      const t0 = performance.now();
      if (family === "sol") sandbox.app.ctx.solana!.airdrop(base58.decode(address), 1_000_000_000n);
      else {
        const fees = await sandbox.app.chain.fees();
        const nonce = await sandbox.app.chain.pendingNonce(faucet.address);
        await sandbox.app.chain.sendRaw(
          await faucet.signTransaction({
            type: "eip1559",
            chainId: sandbox.app.chain.chainId,
            nonce,
            to: address as Hex,
            value: parseEther("1"),
            gas: 21_000n,
            maxFeePerGas: fees.maxFeePerGas,
            maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
          }),
        );
      }
      await until(
        async () =>
          (await client.getWalletAssetBalance({ params: { wallet_id: id, asset_id: asset } })).balance !== "0",
        60_000,
        50,
      );
      const seconds = (performance.now() - t0) / 1000;
      // (3) from the funded wallet: request → completed
      const to =
        family === "sol"
          ? keypairFromSeed(crypto.getRandomValues(new Uint8Array(32))).address
          : privateKeyToAccount(generatePrivateKey()).address;
      const t1 = performance.now();
      const w = await client.createWithdrawal({
        params: { wallet_id: id },
        body: { asset_id: asset, amount: "0.1", recipient_address: to },
      });
      await until(
        async () =>
          (await client.getWithdrawal({ params: { withdrawal_id: w.withdrawal.id as string } })).status === "completed",
        60_000,
        50,
      );
      withdrawalSeconds[family].push((performance.now() - t1) / 1000);
      return seconds;
    };
    const withdrawalSeconds = { sol: [] as number[], evm: [] as number[] };
    const depositSamples = await alternate(
      [
        { name: "sol", run: () => deposit(SANDBOX_SOL_ASSET_ID) },
        { name: "evm", run: () => deposit(SANDBOX_ETH_ASSET_ID) },
      ],
      { runs, warmups: 0 },
    );
    entries.push(
      entry(
        "SOL deposit → confirmed balance (400 ms slots, 32 confirmations)",
        median(depositSamples.sol),
        "ETH deposit (1 s blocks, 3 confirmations)",
        median(depositSamples.evm),
        "s",
      ),
    );
    entries.push(
      entry(
        "SOL withdrawal request → completed",
        median(withdrawalSeconds.sol),
        "ETH withdrawal request → completed",
        median(withdrawalSeconds.evm),
        "s",
      ),
    );
  } finally {
    await sandbox.close();
  }
  notes.push(
    `chains: ${runs} runs each, interleaved. Start-up: a fresh child per run (node --import tsx); the time is in-process, from the start call to the first answer; ` +
      "memory is the child's peak process-tree RSS (GNU time, anvil's process included for the EVM chain). Deposits and withdrawals in one sandbox at its defaults, " +
      "no approval; a deposit counts when getWalletAssetBalance shows it.",
  );
  return { entries, notes };
}
