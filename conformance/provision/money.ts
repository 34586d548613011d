import { expectSuccess } from "../checks/expect.ts";
import { skip } from "../checks/outcome.ts";
import { balanceOf, decimalToUnits } from "../checks/units.ts";
import { CHAIN_POLL_MS, pollUntil, type Suite } from "../run/context.ts";
import { sendNativeTransfer } from "../transport/deposit-sender.ts";
import { attachNativeAsset } from "./asset.ts";
import { DEPOSIT_AMOUNT, drivenOnlyWhenCreating, waitForReceiptBlock } from "./deposit.ts";
import type { MoneyFundsFixture } from "./registry.ts";
import { createWalletAndWait } from "./wallet.ts";

/**
 * A wallet of the money-path checks' own, with the native asset and a confirmed deposit. Funded
 * apart from the lifecycle's wallet, the two paths run at the same time, and the holds and rejects
 * of one never show in the balances and withdrawal lists the other reads.
 */
export async function provideMoneyFunds(suite: Suite): Promise<MoneyFundsFixture> {
  drivenOnlyWhenCreating(suite);
  const faucet = await suite.fixtures.need("faucet");
  const wallet = await createWalletAndWait(suite, suite.marker.name("money-wallet"));
  const asset = await attachNativeAsset(suite, wallet.walletId);
  if (!asset.address) skip("no deposit address to send to");
  const sent = await sendNativeTransfer(suite.rpc(), faucet, asset.address, DEPOSIT_AMOUNT, asset.decimals);
  await waitForReceiptBlock(suite, sent.hash);
  const amount = decimalToUnits(DEPOSIT_AMOUNT, asset.decimals)!;
  const reflected = await pollUntil(
    async () => {
      const ex = await suite.call("getWalletAssetBalance", {
        params: { wallet_id: asset.walletId, asset_id: asset.assetId },
      });
      const units = decimalToUnits(
        balanceOf(expectSuccess(ex, suite.operation("getWalletAssetBalance"))),
        asset.decimals,
      );
      return units !== undefined && units >= amount ? true : undefined;
    },
    3 * suite.options.timeoutMs,
    CHAIN_POLL_MS,
    suite.signal,
  );
  return { asset, address: asset.address, depth: asset.confirmationBlocks ?? 1, reflected: reflected === true };
}
