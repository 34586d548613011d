import { fail } from "../checks/outcome.ts";
import { pollUntil, type Suite } from "../run/context.ts";
import { missing } from "../run/supply.ts";
import type { WalletFixture } from "./registry.ts";
import { firstString, successRecord } from "./util.ts";

const POLL_MS = 100;

/**
 * A wallet: --wallet-id at seed level; at full level one created with createWallet and followed
 * through getWalletCreationStatus until it leaves `pending`. The primary webhook is registered
 * first so that its wallet.created event is delivered to us.
 */
export async function provideWallet(suite: Suite): Promise<WalletFixture> {
  if (suite.config.fixtureIds.walletId) return { walletId: suite.config.fixtureIds.walletId, statuses: [] };
  if (suite.supply === "given") missing("wallet", suite.supply);
  await suite.fixtures.settle("webhook");
  return createWalletAndWait(suite, suite.marker.name("wallet"));
}

export async function createWalletAndWait(suite: Suite, name: string, signal?: AbortSignal): Promise<WalletFixture> {
  const ex = await suite.call("createWallet", { body: { name, wallet_type: "mpc" } }, signal);
  const record = successRecord(suite, "createWallet", ex);
  const walletId = firstString(record, "wallet_id", "id");
  if (!walletId) fail("createWallet answered without a wallet_id", ex.evidence);
  const statuses = [String(record.status)];
  const fixture: WalletFixture = {
    walletId,
    created: { httpStatus: ex.response.status, status: record.status, evidence: ex.evidence },
    statuses,
    workspaceId: firstString(record, "workspace_id"),
  };
  const limit = suite.options.timeoutMs;
  const final = await pollUntil(
    async () => {
      const poll = await suite.call("getWalletCreationStatus", { params: { wallet_id: walletId } }, signal);
      const status = String(successRecord(suite, "getWalletCreationStatus", poll).status);
      if (statuses[statuses.length - 1] !== status) statuses.push(status);
      fixture.finalEvidence = poll.evidence;
      return status === "pending" ? undefined : status;
    },
    limit,
    POLL_MS,
    signal ?? suite.signal,
  );
  if (final === undefined) fail(`wallet ${walletId} still pending after ${limit} ms`, fixture.finalEvidence);
  if (final !== "success") fail(`wallet creation ended in status "${final}", not "success"`, fixture.finalEvidence);
  return fixture;
}
