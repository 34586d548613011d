import { findInList, readList } from "../checks/list-reader.ts";
import { fail, skip } from "../checks/outcome.ts";
import type { Suite } from "../run/context.ts";
import { missing } from "../run/supply.ts";
import type { AssetFixture } from "./registry.ts";
import { firstString, successRecord } from "./util.ts";
import { createWalletAndWait } from "./wallet.ts";

/**
 * An asset attached to the wallet and its deposit address: --wallet-id/--asset-id at seed level;
 * at full level the first native asset of the catalog, attached with attachAsset, its address read
 * with getDepositAddress (seed 1: addresses are read from that operation, never copied by hand).
 */
export async function provideAsset(suite: Suite): Promise<AssetFixture> {
  const { walletId, assetId } = suite.config.fixtureIds;
  if (walletId && assetId) return { walletId, assetId, decimals: 18 };
  if (suite.supply === "given") missing("asset", suite.supply);
  const wallet = await suite.fixtures.need("wallet");
  return attachNativeAsset(suite, wallet.walletId);
}

/**
 * A second wallet with the same asset attached: the destination of the lifecycle withdrawal, since
 * moving funds between two wallets is an ordinary withdrawal (seed 1).
 */
export async function providePeerAsset(suite: Suite): Promise<AssetFixture> {
  if (suite.supply === "given") missing("peer-asset", suite.supply);
  const wallet = await createWalletAndWait(suite, suite.marker.name("peer-wallet"));
  return attachNativeAsset(suite, wallet.walletId);
}

/** Attaches the first native asset of the catalog to a wallet and reads its deposit address. */
export async function attachNativeAsset(suite: Suite, walletId: string): Promise<AssetFixture> {
  const wallet = { walletId };
  const { items: assets, found: native } = await readList(suite, "listAssets", {}, (a) => a.is_native === true);
  if (assets.length === 0) skip("listAssets returned no asset to attach");
  const asset = native ?? assets[0];
  const assetId = firstString(asset, "id", "asset_id");
  if (!assetId) fail("listAssets returned an asset without an id");
  const attach = await suite.call("attachAsset", {
    params: { wallet_id: wallet.walletId },
    body: { asset_id: assetId },
  });
  successRecord(suite, "attachAsset", attach);
  const addressEx = await suite.call("getDepositAddress", {
    params: { wallet_id: wallet.walletId },
    query: { asset_id: assetId },
  });
  const address = firstString(successRecord(suite, "getDepositAddress", addressEx), "address", "deposit_address");
  if (!address) fail("getDepositAddress answered without an address", addressEx.evidence);
  return {
    walletId: wallet.walletId,
    assetId,
    address,
    decimals: typeof asset.decimals === "number" ? asset.decimals : 18,
    confirmationBlocks: await confirmationBlocksOf(suite, asset),
    attachEvidence: attach.evidence,
    addressEvidence: addressEx.evidence,
  };
}

/** Network.confirmation_blocks (seed 2.4) of the asset's network, from the asset or listNetworks. */
async function confirmationBlocksOf(suite: Suite, asset: Record<string, unknown>): Promise<number | undefined> {
  const inline = (asset.network as { confirmation_blocks?: unknown } | undefined)?.confirmation_blocks;
  if (typeof inline === "number") return inline;
  const networkId = firstString(asset, "network_id");
  if (!networkId) return undefined;
  try {
    const { item: network } = await findInList(suite, "listNetworks", {}, (n) => n.id === networkId);
    return typeof network?.confirmation_blocks === "number" ? network.confirmation_blocks : undefined;
  } catch {
    return undefined;
  }
}
