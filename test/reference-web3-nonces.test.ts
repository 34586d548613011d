// /web3 raw transactions and withdrawals of the same wallet take nonces from one allocator: sent at the
// same moment, every transaction gets its own nonce and every one of them is mined.
import { type Hex, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CustodialWalletServiceClient } from "../generated/client.ts";
import { SANDBOX_ETH_ASSET_ID } from "../reference/domain/catalog.ts";
import { C, type WithdrawalRecord } from "../reference/domain/records.ts";
import { type Sandbox, startSandbox } from "../reference/sandbox.ts";
import { chainClients, waitFor } from "./reference-helpers.ts";

const ETH = SANDBOX_ETH_ASSET_ID;
const EACH = 5;
let sandbox: Sandbox;
let client: CustodialWalletServiceClient;
let chain: ReturnType<typeof chainClients>;
let walletId: string;

beforeAll(async () => {
  sandbox = await startSandbox({
    env: {},
    seed: "web3-nonces",
    blockTimeSeconds: 0.25,
    walletCreationDelayMs: 20,
    requiredApprovals: 0,
  });
  client = new CustodialWalletServiceClient({
    baseUrl: sandbox.base_url,
    apiKey: sandbox.api_key,
    apiSecret: sandbox.api_secret,
  });
  walletId = (await client.createWallet({ body: { name: "web3 nonces" } })).wallet_id as string;
  await waitFor(
    "wallet",
    async () => (await client.getWalletCreationStatus({ params: { wallet_id: walletId } })).status === "success",
  );
  const address = (await client.attachAsset({ params: { wallet_id: walletId }, body: { asset_id: ETH } }))
    .address as Hex;
  chain = chainClients(sandbox.rpc_url, sandbox.rpc_api_key, sandbox.app.chain.chainId, sandbox.faucet_private_key);
  await chain.wallet.sendTransaction({ to: address, value: parseEther("2") });
  await waitFor(
    "funds",
    async () =>
      Number(
        (await client.getWalletAssetBalance({ params: { wallet_id: walletId, asset_id: ETH } })).available_balance,
      ) >= 2,
  );
});

afterAll(async () => {
  await sandbox?.close();
});

describe("nonces shared by withdrawals and /web3 raw transactions", () => {
  it("gives each of them its own nonce, and all are mined", async () => {
    const to = () => privateKeyToAccount(generatePrivateKey()).address;
    const [withdrawals, raws] = await Promise.all([
      Promise.all(
        Array.from({ length: EACH }, (_, i) =>
          client.createWithdrawal({
            params: { wallet_id: walletId },
            headers: { "idempotency-key": `w-${i}` },
            body: { asset_id: ETH, amount: "0.01", recipient_address: to() },
          }),
        ),
      ),
      Promise.all(
        Array.from({ length: EACH }, () =>
          client.signRawTransaction({
            params: { wallet_id: walletId },
            body: { to: to(), value: parseEther("0.01").toString() },
          }),
        ),
      ),
    ]);
    const ids = withdrawals.map((w) => w.withdrawal.id as string);
    const store = sandbox.app.ctx.store;
    await waitFor("withdrawals completed", () =>
      ids.every((id) => store.get<WithdrawalRecord>(C.withdrawals, id)?.status === "completed"),
    );
    const hashes: Hex[] = [];
    await waitFor("raw transactions completed", async () => {
      hashes.length = 0;
      for (const r of raws) {
        const s = await client.getTransactionStatus({
          params: { wallet_id: walletId, transaction_id: r.transaction_id as string },
        });
        if (s.status === "failed") throw new Error(`raw transaction failed: ${JSON.stringify(s)}`);
        if (s.status === "completed" && s.hash) hashes.push(s.hash as Hex);
      }
      return hashes.length === EACH;
    });
    const rawNonces = await Promise.all(
      hashes.map(
        async (hash) =>
          (await chain.public.waitForTransactionReceipt({ hash })) &&
          (await chain.public.getTransaction({ hash })).nonce,
      ),
    );
    const withdrawalNonces = ids.map((id) => store.get<WithdrawalRecord>(C.withdrawals, id)!.nonce as number);
    const all = [...rawNonces, ...withdrawalNonces].sort((a, b) => a - b);
    expect(all).toEqual(Array.from({ length: 2 * EACH }, (_, i) => i));
  });
});
