import { expectSuccess } from "../checks/expect.ts";
import { fail, skip } from "../checks/outcome.ts";
import { balanceOf, decimalToUnits } from "../checks/units.ts";
import { CHAIN_POLL_MS, pollUntil, type Suite } from "../run/context.ts";
import { missing } from "../run/supply.ts";
import { sendNativeTransfer } from "../transport/deposit-sender.ts";
import { depositEvent } from "../transport/receiver.ts";
import type { BalanceObservation, DepositFixture } from "./registry.ts";

export const DEPOSIT_AMOUNT = "0.01";

/**
 * Sends a deposit to the wallet's deposit address with the faucet key, then watches: the balance
 * (with the chain head read right after each balance read), and the deposit.* webhook events,
 * until the balance shows the deposit (and deposit.confirmed arrived, when webhooks are watched).
 */
export async function provideDeposit(suite: Suite): Promise<DepositFixture> {
  drivenOnlyWhenCreating(suite);
  const faucet = await suite.fixtures.need("faucet");
  const asset = await suite.fixtures.need("asset");
  if (!asset.address) skip("no deposit address to send to");
  const webhook = await suite.fixtures.settle("webhook");
  const receiver = suite.fixtures.peek("receiver");
  const rpc = suite.rpc();
  const timeoutMs = suite.options.timeoutMs;
  const amountUnits = decimalToUnits(DEPOSIT_AMOUNT, asset.decimals)!;

  const sent = await sendNativeTransfer(rpc, faucet, asset.address, DEPOSIT_AMOUNT, asset.decimals);
  const txBlock = await waitForReceiptBlock(suite, sent.hash);
  const fixture: DepositFixture = {
    txHash: sent.hash,
    txBlock,
    amount: DEPOSIT_AMOUNT,
    amountUnits,
    address: asset.address,
    decimals: asset.decimals,
    confirmationBlocks: asset.confirmationBlocks ?? 1,
    observations: [],
    webhookWatched: webhook.ok && receiver !== undefined && webhook.value.channel !== undefined,
  };
  const channel = webhook.ok ? webhook.value.channel : undefined;
  const matches = (type: string) => depositEvent(channel, type, sent.hash, asset.address!);
  const pending = fixture.webhookWatched
    ? receiver!.waitFor(matches("deposit.pending"), 3 * timeoutMs, suite.signal)
    : undefined;
  const confirmed = fixture.webhookWatched
    ? receiver!.waitFor(matches("deposit.confirmed"), 3 * timeoutMs, suite.signal)
    : undefined;
  void pending?.then((d) => (fixture.pendingEvent = d));
  void confirmed?.then((d) => (fixture.confirmedEvent = d));

  const observeLimit = 3 * timeoutMs;
  await pollUntil(
    async () => {
      const obs = await observeBalance(suite, asset.walletId, asset.assetId);
      fixture.observations.push(obs);
      const units = decimalToUnits(obs.balance, asset.decimals);
      if (units !== undefined && units >= amountUnits) fixture.reflected ??= obs;
      return fixture.reflected && (!fixture.webhookWatched || fixture.confirmedEvent) ? true : undefined;
    },
    observeLimit,
    CHAIN_POLL_MS,
    suite.signal,
  );
  if (fixture.reflected) await recordFinalBalances(suite, fixture, asset.walletId, asset.assetId);
  return fixture;
}

/** The full level's deposits go to records the run creates; at seed level only the seed-deposit fixture sends one. */
export function drivenOnlyWhenCreating(suite: Suite): void {
  if (suite.supply === "given") missing("deposit", suite.supply, "deposits are driven only when fixtures are created");
}

/** Reads the balance, then the chain head: if the head is still short of confirmation, so was the server's. */
async function observeBalance(suite: Suite, walletId: string, assetId: string): Promise<BalanceObservation> {
  const ex = await suite.call("getWalletAssetBalance", { params: { wallet_id: walletId, asset_id: assetId } });
  const data = expectSuccess(ex, suite.operation("getWalletAssetBalance"));
  const head = await blockNumber(suite);
  return { atMs: Date.now(), balance: balanceOf(data), head, evidence: ex.evidence };
}

async function recordFinalBalances(
  suite: Suite,
  fixture: DepositFixture,
  walletId: string,
  assetId: string,
): Promise<void> {
  const ex = await suite.call("getWalletAssetBalance", { params: { wallet_id: walletId, asset_id: assetId } });
  fixture.apiBalance = balanceOf(expectSuccess(ex, suite.operation("getWalletAssetBalance")));
  fixture.finalEvidence = ex.evidence;
  const chain = await suite.rpc().resultHttp("eth_getBalance", [fixture.address, "latest"]);
  if (typeof chain === "string" && /^0x[0-9a-f]+$/i.test(chain)) fixture.chainBalanceUnits = BigInt(chain);
}

export async function blockNumber(suite: Suite): Promise<number> {
  const result = await suite.rpc().resultHttp("eth_blockNumber");
  if (typeof result !== "string" || !/^0x[0-9a-f]+$/i.test(result))
    fail(`eth_blockNumber answered ${JSON.stringify(result)}`);
  return Number(BigInt(result));
}

/** The block that mined `hash`, polling eth_getTransactionReceipt. */
export async function waitForReceiptBlock(suite: Suite, hash: string): Promise<number> {
  const receipt = await waitForReceipt(suite, hash);
  return Number(BigInt(receipt.blockNumber as string));
}

export async function waitForReceipt(suite: Suite, hash: string): Promise<Record<string, unknown>> {
  const limit = 2 * suite.options.timeoutMs;
  const receipt = await pollUntil(
    async () => {
      const r = await suite.rpc().resultHttp("eth_getTransactionReceipt", [hash]);
      return r && typeof r === "object" && typeof (r as { blockNumber?: unknown }).blockNumber === "string"
        ? (r as Record<string, unknown>)
        : undefined;
    },
    limit,
    CHAIN_POLL_MS,
    suite.signal,
  );
  if (!receipt) fail(`transaction ${hash} has no receipt after ${limit} ms`);
  return receipt;
}
