// Tenancy checks shared by the services: a resource of another workspace is reported as absent, so
// a key never learns whether an id exists elsewhere.
import { notFound } from "../../runtime/errors.ts";
import type { StateStore } from "../store/state-store.ts";
import { type Actor, C, type WalletRecord } from "./records.ts";

export function assertWorkspace(actor: Actor, workspaceId: string): void {
  if (workspaceId !== actor.workspaceId) throw notFound("workspace not found");
}

export function findWallet(store: StateStore, actor: Actor, walletId: string): WalletRecord {
  const wallet = store.get<WalletRecord>(C.wallets, walletId);
  if (!wallet || wallet.workspace_id !== actor.workspaceId) throw notFound("wallet not found");
  return wallet;
}

export function inWorkspace<T extends { workspace_id: string }>(actor: Actor, record: T | undefined): record is T {
  return record !== undefined && record.workspace_id === actor.workspaceId;
}

/** The record `id` of the actor's workspace; absent or of another workspace, a 404 "<what> not found". */
export function findInWorkspace<T extends { workspace_id: string }>(
  store: StateStore,
  actor: Actor,
  collection: string,
  id: string,
  what: string,
): T {
  const record = store.get<T>(collection, id);
  if (!inWorkspace(actor, record)) throw notFound(`${what} not found`);
  return record;
}
