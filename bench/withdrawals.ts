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

export async function benchWithdrawals(ctx: BenchContext): Promise<SectionResult> {
  const notes: string[] = [];
  const sandbox = await startSandbox({ env: {}, blockTimeSeconds: 1, requiredApprovals: 0, walletCreationDelayMs: 10 });
  try {
    const client = new CustodialWalletServiceClient({
      baseUrl: sandbox.base_url,
      apiKey: sandbox.api_key,
      apiSecret: sandbox.api_secret,
    });
    const chain = sandbox.app.chain.backend as EmbeddedChain;
    const rpc = (method: string, params: unknown[] = []) => chain.request({ method, params });
    const faucet = privateKeyToAccount(sandbox.faucet_private_key as Hex);
    const fees = await sandbox.app.chain.fees();
    let faucetNonce = Number(BigInt(String(await rpc("eth_getTransactionCount", [faucet.address, "pending"]))));
    const signTransfer = (account: ReturnType<typeof privateKeyToAccount>, nonce: number, to: Hex, value: bigint) =>
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

    // Senders: 8 sandbox wallets (withdrawals) and 8 plain accounts (direct transfers), all funded.
    const wallets: Array<{ id: string; address: Hex }> = [];
    for (let i = 0; i < SENDERS; i++) {
      const id = (await client.createWallet({ body: { name: `bench-${i}` } })).wallet_id as string;
      await until(
        async () => (await client.getWalletCreationStatus({ params: { wallet_id: id } })).status === "success",
      );
      wallets.push({
        id,
        address: (await client.attachAsset({ params: { wallet_id: id }, body: { asset_id: ETH } })).address as Hex,
      });
    }
    const direct = Array.from({ length: SENDERS }, () => privateKeyToAccount(generatePrivateKey()));
    const funding: Hex[] = [];
    for (const to of [...wallets.map((w) => w.address), ...direct.map((a) => a.address)]) {
      funding.push(
        (await rpc("eth_sendRawTransaction", [await signTransfer(faucet, faucetNonce++, to, parseEther("10"))])) as Hex,
      );
    }
    await waitReceipts(rpc, funding);
    await until(async () => {
      for (const w of wallets)
        if (
          Number(
            (await client.getWalletAssetBalance({ params: { wallet_id: w.id, asset_id: ETH } })).available_balance,
          ) < 5
        )
          return false;
      return true;
    }, 60_000);

    // Baseline: the engine's own rate, signed ahead of time (signing is not the engine's work).
    const raws: Hex[] = [];
    for (let i = 0; i < COUNT; i++)
      raws.push(
        await signTransfer(
          direct[i % SENDERS]!,
          Math.floor(i / SENDERS),
          privateKeyToAccount(generatePrivateKey()).address,
          1000n,
        ),
      );
    const t0 = performance.now();
    await pool(raws, IN_FLIGHT, (raw) => rpc("eth_sendRawTransaction", [raw]));
    await waitReceipts(
      rpc,
      raws.map((r) => keccak256(r)),
    );
    const engineRate = COUNT / ((performance.now() - t0) / 1000);
    ctx.log(`withdrawals: engine ${engineRate.toFixed(1)} transfers/s`);

    // Ours: request → completed through the wallet API.
    const t1 = performance.now();
    const ids: string[] = [];
    await pool(
      Array.from({ length: COUNT }, (_, i) => i),
      IN_FLIGHT,
      async (i) => {
        const w = wallets[i % SENDERS]!;
        const created = await client.createWithdrawal({
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
    let completed = 0;
    let failed = 0;
    await until(
      async () => {
        completed = 0;
        failed = 0;
        for (const w of wallets) {
          // Every page (lists answer 20 by default).
          for await (const x of client.listWalletWithdrawals.all({ params: { wallet_id: w.id } })) {
            if (x.status === "completed") completed++;
            else if (x.status === "failed") failed++;
          }
        }
        return completed + failed >= COUNT;
      },
      180_000,
      250,
    ).catch(() => undefined);
    const oursRate = completed === COUNT ? COUNT / ((performance.now() - t1) / 1000) : null;
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
