import { randomUUID } from "node:crypto";
import { expectSuccess } from "../checks/expect.ts";
import { fail, skip } from "../checks/outcome.ts";
import { CHAIN_POLL_MS, pollUntil, type Suite } from "../run/context.ts";
import { missing } from "../run/supply.ts";
import type { WithdrawalFixture } from "./registry.ts";
import { firstString, successRecord } from "./util.ts";

export const WITHDRAWAL_AMOUNT = "0.001";
const TERMINAL = new Set(["completed", "failed", "rejected"]);

/** The withdrawal of a createWithdrawal answer ({auto_approved, withdrawal}). */
function withdrawalOf(data: Record<string, unknown>): Record<string, unknown> {
  const w = data?.withdrawal;
  return w && typeof w === "object" ? (w as Record<string, unknown>) : data;
}

/** A withdrawal id to read: --withdrawal-id, or the one the lifecycle drives at full level. */
export async function provideWithdrawalId(suite: Suite): Promise<string> {
  if (suite.config.fixtureIds.withdrawalId) return suite.config.fixtureIds.withdrawalId;
  if (suite.supply === "given") missing("withdrawal", suite.supply);
  return (await suite.fixtures.need("withdrawal-executed")).id;
}

/**
 * Sends part of the confirmed deposit to a second wallet: createWithdrawal twice with the same
 * Idempotency-Key (the replay must not create a second one), approve it when it waits for approval,
 * then follow getWithdrawal to a terminal status.
 */
export async function provideExecutedWithdrawal(suite: Suite): Promise<WithdrawalFixture> {
  const deposit = await suite.fixtures.need("deposit");
  if (!deposit.reflected) skip("the deposit never reached the balance, so there is nothing to withdraw");
  const asset = await suite.fixtures.need("asset");
  const peer = await suite.fixtures.need("peer-asset");
  if (!peer.address) skip("the peer wallet has no deposit address");
  const recipient = peer.address;
  const idempotencyKey = `certify-${randomUUID()}`;
  // The body the real service's SDK sends (fystack/platform-sdk src/api.ts); the answer is {auto_approved, withdrawal}.
  const body = {
    asset_id: asset.assetId,
    amount: WITHDRAWAL_AMOUNT,
    recipient_address: recipient,
    notes: "custody certify",
  };
  const create = () =>
    suite.call("createWithdrawal", {
      params: { wallet_id: asset.walletId },
      body,
      headers: { "Idempotency-Key": idempotencyKey },
    });

  const firstEx = await create();
  const first = withdrawalOf(successRecord(suite, "createWithdrawal", firstEx));
  const id = firstString(first, "id", "withdrawal_id");
  if (!id) fail("createWithdrawal answered without an id", firstEx.evidence);
  const replayEx = await create();
  const replayData =
    replayEx.response.status < 300 ? withdrawalOf(expectSuccess(replayEx) as Record<string, unknown>) : undefined;

  let approved = false;
  const limit = 3 * suite.options.timeoutMs;
  // The last answer; its evidence is built (redacted) only if the wait fails.
  let lastEx = firstEx;
  const final = await pollUntil(
    async () => {
      const ex = await suite.call("getWithdrawal", { params: { withdrawal_id: id } });
      lastEx = ex;
      const record = successRecord(suite, "getWithdrawal", ex);
      if (record.status === "pending_approval" && !approved) {
        const approve = await suite.call("approveWithdrawal", {
          params: { withdrawal_id: id },
          body: { comment: "custody certify" },
        });
        successRecord(suite, "approveWithdrawal", approve);
        approved = true;
      }
      return TERMINAL.has(String(record.status)) ? { data: record, evidence: ex.evidence } : undefined;
    },
    limit,
    CHAIN_POLL_MS,
    suite.signal,
  );
  if (!final) fail(`withdrawal ${id} did not reach completed/failed within ${limit} ms`, lastEx.evidence);
  return {
    id,
    idempotencyKey,
    first: { status: firstEx.response.status, data: first, evidence: firstEx.evidence },
    replay: { status: replayEx.response.status, data: replayData, evidence: replayEx.evidence },
    approved,
    final,
    recipient,
    recipientWalletId: peer.walletId,
    recipientAssetId: peer.assetId,
    amount: WITHDRAWAL_AMOUNT,
    decimals: asset.decimals,
  };
}
