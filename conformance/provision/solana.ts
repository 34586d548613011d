// The Solana prerequisites of the chains checks: the run's wallet with its Solana native asset (from
// listAssets: is_native with address_type sol) and its deposit address; and a SOL deposit sent to that
// address through the deployment's Solana RPC by a throwaway key funded with requestAirdrop, then watched
// like the EVM deposit (deposit.* events and the balance, with the slot read after each balance).

import { expectSuccess } from "../checks/expect.ts";
import { fail, skip } from "../checks/outcome.ts";
import { balanceOf, decimalToUnits } from "../checks/units.ts";
import { pollUntil, type Suite } from "../run/context.ts";
import { missing } from "../run/supply.ts";
import { depositEvent } from "../transport/receiver.ts";
import type { SolanaRpcClient } from "../transport/solana-rpc.ts";
import type { SolAssetFixture, SolDepositFixture, SolObservation } from "./registry.ts";
import { firstString, successRecord } from "./util.ts";

export const SOL_DEPOSIT = "0.5";
/** What the throwaway payer is funded with: the deposit, its fee, and the rent-exempt minimum left over. */
const PAYER_LAMPORTS = 1_000_000_000n;
const OBSERVE_EVERY_MS = 150;

export async function provideSolAsset(suite: Suite): Promise<SolAssetFixture> {
  if (suite.supply === "given") missing("sol-asset", suite.supply);
  const wallet = await suite.fixtures.need("wallet");
  const assets = expectSuccess(await suite.call("listAssets"), suite.operation("listAssets"));
  const asset = (Array.isArray(assets) ? assets : []).find(
    (a) =>
      (a as { is_native?: unknown }).is_native === true && (a as { address_type?: unknown }).address_type === "sol",
  ) as Record<string, unknown> | undefined;
  if (!asset) skip("listAssets lists no native asset with address_type sol, so there is no SOL to move");
  const assetId = firstString(asset, "id", "asset_id");
  if (!assetId) fail("listAssets returned the SOL asset without an id");
  // Attaching an attached asset answers the attachment (the spec's rule), so this is safe either way.
  successRecord(
    suite,
    "attachAsset",
    await suite.call("attachAsset", { params: { wallet_id: wallet.walletId }, body: { asset_id: assetId } }),
  );
  const ex = await suite.call("getDepositAddress", {
    params: { wallet_id: wallet.walletId },
    query: { asset_id: assetId },
  });
  const address = firstString(successRecord(suite, "getDepositAddress", ex), "address", "deposit_address");
  if (!address) fail("getDepositAddress answered the SOL asset without an address", ex.evidence);
  const network = asset.network as { confirmation_blocks?: unknown } | undefined;
  let confirmationBlocks = typeof network?.confirmation_blocks === "number" ? network.confirmation_blocks : undefined;
  if (confirmationBlocks === undefined) {
    const networks = expectSuccess(await suite.call("listNetworks"), suite.operation("listNetworks"));
    const n = (Array.isArray(networks) ? networks : []).find((x) => (x as { id?: unknown }).id === asset.network_id) as
      | { confirmation_blocks?: unknown }
      | undefined;
    if (typeof n?.confirmation_blocks === "number") confirmationBlocks = n.confirmation_blocks;
  }
  return {
    walletId: wallet.walletId,
    assetId,
    address,
    decimals: typeof asset.decimals === "number" ? asset.decimals : 9,
    ...(confirmationBlocks !== undefined ? { confirmationBlocks } : {}),
  };
}

export async function provideSolDeposit(suite: Suite): Promise<SolDepositFixture> {
  const rpc = suite.solanaRpc();
  if (!rpc) missing("sol-deposit", suite.supply);
  const asset = await suite.fixtures.need("sol-asset");
  const webhook = await suite.fixtures.settle("webhook");
  const receiver = suite.fixtures.peek("receiver");
  const limit = 3 * suite.options.timeoutMs;
  const payer = await rpc.fundedKeypair(PAYER_LAMPORTS, limit);
  const amountUnits = decimalToUnits(SOL_DEPOSIT, asset.decimals)!;
  const signature = await rpc.transfer(payer, asset.address, amountUnits);
  const landed = await rpc.waitFor(signature, "confirmed", limit);
  const fixture: SolDepositFixture = {
    signature,
    slot: landed.slot,
    amount: SOL_DEPOSIT,
    amountUnits,
    address: asset.address,
    decimals: asset.decimals,
    confirmationBlocks: asset.confirmationBlocks ?? 1,
    observations: [],
    webhookWatched: webhook.ok && receiver !== undefined && webhook.value.channel !== undefined,
  };
  const channel = webhook.ok ? webhook.value.channel : undefined;
  const matches = (type: string) => depositEvent(channel, type, signature, asset.address);
  if (fixture.webhookWatched) {
    void receiver!.waitFor(matches("deposit.pending"), limit * 2, suite.signal).then((d) => (fixture.pendingEvent = d));
    void receiver!
      .waitFor(matches("deposit.confirmed"), limit * 2, suite.signal)
      .then((d) => (fixture.confirmedEvent = d));
  }
  await pollUntil(
    async () => {
      const obs = await observe(suite, rpc, asset.walletId, asset.assetId);
      fixture.observations.push(obs);
      const units = decimalToUnits(obs.balance ?? "", asset.decimals);
      if (units !== undefined && units >= amountUnits) fixture.reflected ??= obs;
      return fixture.reflected && (!fixture.webhookWatched || fixture.confirmedEvent) ? true : undefined;
    },
    limit * 2,
    OBSERVE_EVERY_MS,
    suite.signal,
  );
  if (fixture.reflected) {
    const ex = await suite.call("getWalletAssetBalance", {
      params: { wallet_id: asset.walletId, asset_id: asset.assetId },
    });
    fixture.apiBalance = balanceOf(expectSuccess(ex, suite.operation("getWalletAssetBalance")));
    fixture.finalEvidence = ex.evidence;
    fixture.chainBalances = {
      processed: await rpc.balance(asset.address, "processed"),
      confirmed: await rpc.balance(asset.address, "confirmed"),
      finalized: await rpc.balance(asset.address, "finalized"),
    };
  }
  return fixture;
}

/** Reads the balance, then the processed slot: if the slot is still short of confirmation, so was the server's. */
async function observe(suite: Suite, rpc: SolanaRpcClient, walletId: string, assetId: string): Promise<SolObservation> {
  const ex = await suite.call("getWalletAssetBalance", { params: { wallet_id: walletId, asset_id: assetId } });
  const data = expectSuccess(ex, suite.operation("getWalletAssetBalance"));
  const slot = await rpc.result("getSlot", [{ commitment: "processed" }]);
  if (typeof slot !== "number") fail(`Solana RPC getSlot answered ${JSON.stringify(slot)}`, rpc.last);
  return { atMs: Date.now(), balance: balanceOf(data), slot, evidence: ex.evidence };
}
