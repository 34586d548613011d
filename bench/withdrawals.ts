// Section "withdrawals": 512 withdrawals through the sandbox's wallet API, from request to `completed`
// (receipt on chain), against the chain engine's own transfer rate in the same run: 512 signed
// transfers sent straight to the same anvil node and waited for until their receipts. Same senders'
// count, same block time. Every withdrawal must complete (a stuck one fails the section).
import { type Hex, keccak256, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { CustodialWalletServiceClient } from "../generated/client.ts";
import type { EmbeddedChain } from "../reference/chain/embedded-chain.ts";
import { SANDBOX_ETH_ASSET_ID } from "../reference/domain/catalog.ts";
import { startSandbox } from "../reference/sandbox.ts";
import type { BenchContext, SectionResult } from "./context.ts";
import { entry } from "./stats.ts";
import { until } from "./until.ts";

const COUNT = 512;
const SENDERS = 8;
const IN_FLIGHT = 16;
const ETH = SANDBOX_ETH_ASSET_ID;

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
type Account = ReturnType<typeof privateKeyToAccount>;
type Rpc = (method: string, params?: unknown[]) => Promise<unknown>;

/** What the phases share: the API client, the chain's RPC, the faucet and the funded senders. */
interface Rig {
  client: CustodialWalletServiceClient;
  rpc: Rpc;
  faucet: Account;
  faucetNonce: number;
  signTransfer: (account: Account, nonce: number, to: Hex, value: bigint) => Promise<Hex>;
  wallets: Array<{ id: string; address: Hex }>;
  direct: Account[];
}

/** The client, the RPC, the faucet's next nonce and a transfer signer at the chain's current fees. */
async function connect(sandbox: Sandbox): Promise<Rig> {
  const client = new CustodialWalletServiceClient({
    baseUrl: sandbox.base_url,
    apiKey: sandbox.api_key,
    apiSecret: sandbox.api_secret,
  });
  const chain = sandbox.app.chain.backend as EmbeddedChain;
  const rpc = (method: string, params: unknown[] = []) => chain.request({ method, params });
  const faucet = privateKeyToAccount(sandbox.faucet_private_key as Hex);
  const fees = await sandbox.app.chain.fees();
  const faucetNonce = Number(BigInt(String(await rpc("eth_getTransactionCount", [faucet.address, "pending"]))));
  const signTransfer = (account: Account, nonce: number, to: Hex, value: bigint) =>
    account.signTransaction({
      type: "eip1559",
      chainId: chain.chainId,
      nonce,
      to,
      value,
      gas: 21_000n,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    });
  return { client, rpc, faucet, faucetNonce, signTransfer, wallets: [], direct: [] };
}

/** Senders: 8 sandbox wallets (withdrawals) and 8 plain accounts (direct transfers), all funded. */
async function fundSenders(rig: Rig): Promise<void> {
  const { client, rpc } = rig;
  for (let i = 0; i < SENDERS; i++) {
    const id = (await client.createWallet({ body: { name: `bench-${i}` } })).wallet_id as string;
    await until(async () => (await client.getWalletCreationStatus({ params: { wallet_id: id } })).status === "success");
    rig.wallets.push({
      id,
      address: (await client.attachAsset({ params: { wallet_id: id }, body: { asset_id: ETH } })).address as Hex,
    });
  }
  rig.direct = Array.from({ length: SENDERS }, () => privateKeyToAccount(generatePrivateKey()));
  const funding: Hex[] = [];
  for (const to of [...rig.wallets.map((w) => w.address), ...rig.direct.map((a) => a.address)]) {
    funding.push(
      (await rpc("eth_sendRawTransaction", [
        await rig.signTransfer(rig.faucet, rig.faucetNonce++, to, parseEther("10")),
      ])) as Hex,
    );
  }
  await waitReceipts(rpc, funding);
  await until(async () => {
    for (const w of rig.wallets)
      if (
        Number((await client.getWalletAssetBalance({ params: { wallet_id: w.id, asset_id: ETH } })).available_balance) <
        5
      )
        return false;
    return true;
  }, 60_000);
}

/** Baseline: the engine's own rate, signed ahead of time (signing is not the engine's work); transfers/s. */
async function measureEngine(ctx: BenchContext, rig: Rig): Promise<number> {
  const raws: Hex[] = [];
  for (let i = 0; i < COUNT; i++)
    raws.push(
      await rig.signTransfer(
        rig.direct[i % SENDERS]!,
        Math.floor(i / SENDERS),
        privateKeyToAccount(generatePrivateKey()).address,
        1000n,
      ),
    );
  const t0 = performance.now();
  await pool(raws, IN_FLIGHT, (raw) => rig.rpc("eth_sendRawTransaction", [raw]));
  await waitReceipts(
    rig.rpc,
    raws.map((r) => keccak256(r)),
  );
  const engineRate = COUNT / ((performance.now() - t0) / 1000);
  ctx.log(`withdrawals: engine ${engineRate.toFixed(1)} transfers/s`);
  return engineRate;
}

/** Counts the senders' withdrawals that are completed and failed into `counts`, every page of each wallet's list. */
async function countFinal(rig: Rig, counts: { completed: number; failed: number }): Promise<void> {
  for (const w of rig.wallets) {
    // Every page (lists answer 20 by default).
    for await (const x of rig.client.listWalletWithdrawals.all({ params: { wallet_id: w.id } })) {
      if (x.status === "completed") counts.completed++;
      else if (x.status === "failed") counts.failed++;
    }
  }
}

/** Ours: request → completed through the wallet API; withdrawals/s, null unless every one completed. */
async function measureWithdrawals(rig: Rig): Promise<{ oursRate: number | null; completed: number; failed: number }> {
  const t1 = performance.now();
  const ids: string[] = [];
  await pool(
    Array.from({ length: COUNT }, (_, i) => i),
    IN_FLIGHT,
    async (i) => {
      const w = rig.wallets[i % SENDERS]!;
      const created = await rig.client.createWithdrawal({
        params: { wallet_id: w.id },
        headers: { "idempotency-key": `bench-${i}` },
        body: {
          asset_id: ETH,
          amount: "0.001",
          recipient_address: privateKeyToAccount(generatePrivateKey()).address,
        },
      });
      ids.push(created.withdrawal.id as string);
    },
  );
  const counts = { completed: 0, failed: 0 };
  await until(
    async () => {
      counts.completed = 0;
      counts.failed = 0;
      await countFinal(rig, counts);
      return counts.completed + counts.failed >= COUNT;
    },
    180_000,
    250,
  ).catch(() => undefined);
  const oursRate = counts.completed === COUNT ? COUNT / ((performance.now() - t1) / 1000) : null;
  return { oursRate, ...counts };
}

/** The log line, the note and the entry of the section. */
function report(
  ctx: BenchContext,
  engineRate: number,
  ours: { oursRate: number | null; completed: number; failed: number },
): SectionResult {
  const { oursRate, completed, failed } = ours;
  const notes: string[] = [];
  ctx.log(
    `withdrawals: sandbox ${oursRate?.toFixed(1) ?? "n/a"} withdrawals/s (${completed} completed, ${failed} failed, ${COUNT - completed - failed} not final)`,
  );
  notes.push(
    `withdrawals: ${COUNT} withdrawals from ${SENDERS} wallets, ${IN_FLIGHT} requests in flight, 1 s blocks; ${completed} completed, ${failed} failed, ${COUNT - completed - failed} not final. ` +
      "Baseline: the same number of pre-signed transfers from 8 accounts sent straight to the same anvil node, until their receipts.",
  );
  return {
    entries: [
      entry(
        "withdrawals request → completed",
        oursRate,
        "anvil's own transfers (send → receipt)",
        engineRate,
        "ops/s",
        oursRate === null ? `only ${completed}/${COUNT} completed` : undefined,
      ),
    ],
    notes,
  };
}

export async function benchWithdrawals(ctx: BenchContext): Promise<SectionResult> {
  const sandbox = await startSandbox({ env: {}, blockTimeSeconds: 1, requiredApprovals: 0, walletCreationDelayMs: 10 });
  try {
    const rig = await connect(sandbox);
    await fundSenders(rig);
    const engineRate = await measureEngine(ctx, rig);
    const ours = await measureWithdrawals(rig);
    return report(ctx, engineRate, ours);
  } finally {
    await sandbox.close();
  }
}

async function waitReceipts(rpc: (m: string, p?: unknown[]) => Promise<unknown>, hashes: Hex[]): Promise<void> {
  const left = new Set(hashes);
  const deadline = Date.now() + 180_000;
  while (left.size > 0) {
    if (Date.now() > deadline) throw new Error(`${left.size} transfers without a receipt after 180 s`);
    await pool([...left], IN_FLIGHT, async (h) => {
      if (await rpc("eth_getTransactionReceipt", [h])) left.delete(h);
    });
    if (left.size > 0) await new Promise((r) => setTimeout(r, 100));
  }
}

async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<unknown>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: limit }, async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) await work(next);
    }),
  );
}
