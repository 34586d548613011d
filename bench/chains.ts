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
import { alternate, entry, median, type ResultEntry } from "./stats.ts";
import { until } from "./until.ts";

type Family = "sol" | "evm";
type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

/** Engine start → ready in a fresh child per run: in-process time and peak process-tree memory. */
async function measureStartUp(ctx: BenchContext, runs: number): Promise<ResultEntry[]> {
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
  return [
    entry(
      "chain engine start → ready (in-process time)",
      median(drop(startSamples.solana.ms)),
      "anvil (embedded EVM chain)",
      median(drop(startSamples.anvil.ms)),
      "ms",
    ),
    entry(
      "chain engine peak memory (child process tree)",
      median(drop(startSamples.solana.rss)),
      "anvil (embedded EVM chain)",
      median(drop(startSamples.anvil.rss)),
      "MB",
    ),
  ];
}

/** A new wallet, ready for deposits: its id and its deposit address in the asset's family. */
async function readyWallet(client: CustodialWalletServiceClient, asset: string, family: Family) {
  const id = (await client.createWallet({ body: { name: `bench-${asset}` } })).wallet_id as string;
  await until(async () => (await client.getWalletCreationStatus({ params: { wallet_id: id } })).status === "success");
  const address = (await client.getDepositAddress({ params: { wallet_id: id }, query: { address_type: family } }))
    .address;
  return { id, address };
}

/** Sends one unit of the family's coin to the address: an airdrop on Solana, a faucet transfer on the EVM chain. */
async function fund(sandbox: Sandbox, faucet: ReturnType<typeof privateKeyToAccount>, family: Family, address: string) {
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
}

/** Withdrawal request → completed from the funded wallet, to a fresh address; the seconds it took. */
async function timeWithdrawal(
  client: CustodialWalletServiceClient,
  id: string,
  asset: string,
  family: Family,
): Promise<number> {
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
  return (performance.now() - t1) / 1000;
}

/** Deposit → confirmed and withdrawal → completed, interleaved, in one sandbox at its defaults. */
async function measureTransfers(runs: number): Promise<ResultEntry[]> {
  const sandbox = await startSandbox({ env: {}, requiredApprovals: 0, walletCreationDelayMs: 10 });
  try {
    if (!sandbox.app.ctx.solana) throw new Error("the sandbox runs without its Solana runtime");
    const client = new CustodialWalletServiceClient({
      baseUrl: sandbox.base_url,
      apiKey: sandbox.api_key,
      apiSecret: sandbox.api_secret,
    });
    const faucet = privateKeyToAccount(sandbox.faucet_private_key as Hex);
    const withdrawalSeconds = { sol: [] as number[], evm: [] as number[] };
    const deposit = async (asset: string): Promise<number> => {
      const family = asset === SANDBOX_SOL_ASSET_ID ? "sol" : "evm";
      const { id, address } = await readyWallet(client, asset, family);
      const t0 = performance.now();
      await fund(sandbox, faucet, family, address);
      await until(
        async () =>
          (await client.getWalletAssetBalance({ params: { wallet_id: id, asset_id: asset } })).balance !== "0",
        60_000,
        50,
      );
      const seconds = (performance.now() - t0) / 1000;
      withdrawalSeconds[family].push(await timeWithdrawal(client, id, asset, family));
      return seconds;
    };
    const depositSamples = await alternate(
      [
        { name: "sol", run: () => deposit(SANDBOX_SOL_ASSET_ID) },
        { name: "evm", run: () => deposit(SANDBOX_ETH_ASSET_ID) },
      ],
      { runs, warmups: 0 },
    );
    return [
      entry(
        "SOL deposit → confirmed balance (400 ms slots, 32 confirmations)",
        median(depositSamples.sol),
        "ETH deposit (1 s blocks, 3 confirmations)",
        median(depositSamples.evm),
        "s",
      ),
      entry(
        "SOL withdrawal request → completed",
        median(withdrawalSeconds.sol),
        "ETH withdrawal request → completed",
        median(withdrawalSeconds.evm),
        "s",
      ),
    ];
  } finally {
    await sandbox.close();
  }
}

export async function benchChains(ctx: BenchContext): Promise<SectionResult> {
  const runs = ctx.quick ? 3 : 5;
  const notes: string[] = [];
  const entries = [...(await measureStartUp(ctx, runs)), ...(await measureTransfers(runs))];
  notes.push(
    `chains: ${runs} runs each, interleaved. Start-up: a fresh child per run (node --import tsx); the time is in-process, from the start call to the first answer; ` +
      "memory is the child's peak process-tree RSS (GNU time, anvil's process included for the EVM chain). Deposits and withdrawals in one sandbox at its defaults, " +
      "no approval; a deposit counts when getWalletAssetBalance shows it.",
  );
  return { entries, notes };
}
