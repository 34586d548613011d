// Rescanning one transaction (the real service's POST /networks/rescan-transaction, fystack/platform-sdk
// src/api.ts rescanTransaction): a deposit the block watcher missed is recorded from the chain, and
// then confirms like any other. Rescanning a known or unrelated transaction changes nothing.
import { type Hex, isHash } from "viem";
import type { RescanResult } from "../../generated/types.ts";
import { badRequest, notFound } from "../../runtime/errors.ts";
import type { DomainContext } from "./context.ts";
import type { DepositService } from "./deposits.ts";
import type { Actor } from "./records.ts";

export async function rescanTransaction(
  ctx: DomainContext,
  deposits: DepositService,
  actor: Actor,
  input: { tx_hash: string; network_id: string },
): Promise<RescanResult> {
  if (!ctx.catalog.findNetwork(input.network_id)) throw notFound(`network '${input.network_id}' not found`);
  // Solana deposits are read from the runtime's own ledger, slot by slot: none can be missed there.
  if (input.network_id !== ctx.catalog.network.id)
    throw badRequest("network_id: rescanning is for the EVM network's transactions");
  if (!isHash(input.tx_hash)) throw badRequest("tx_hash: not a 32-byte 0x-prefixed hash");
  const tx = await ctx.chain.viem.getTransaction({ hash: input.tx_hash as Hex }).catch(() => undefined);
  if (!tx) throw notFound("transaction not found on this network");
  const answer = (deposit: boolean): RescanResult => ({
    tx_hash: input.tx_hash,
    network_id: input.network_id,
    deposit,
  });
  const attached = tx.to ? deposits.watched(tx.to) : undefined;
  if (
    !attached ||
    attached.workspace_id !== actor.workspaceId ||
    tx.blockNumber === null ||
    tx.blockHash === null ||
    tx.value === 0n
  )
    return answer(false);
  deposits.recordDetected(
    attached,
    {
      hash: tx.hash,
      from: tx.from,
      to: tx.to as string,
      valueWei: tx.value,
      blockNumber: tx.blockNumber,
      blockHash: tx.blockHash,
    },
    await ctx.chain.head(),
  );
  return answer(true);
}
