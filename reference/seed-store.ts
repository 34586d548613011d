// Seeds a fresh store with the sandbox's workspace and its three API keys; on a restart with --data
// returns the values stored by the first run instead (credentials stay valid across restarts).
import type { SeededValues } from "./config.ts";
import { C, type ApiKeyRecord, type WorkspaceRecord } from "./domain/records.ts";
import type { StateStore } from "./store/state-store.ts";

const META = "sandbox.seeded_values";

export function ensureSeeded(store: StateStore, fresh: SeededValues, now: Date): { values: SeededValues; restored: boolean } {
  const stored = store.getMeta<SeededValues>(META);
  if (stored) return { values: stored, restored: true };
  const at = now.toISOString();
  const key = (id: string, secret: string, name: string, role: ApiKeyRecord["role"], scopes: string[]): ApiKeyRecord => ({
    id,
    workspace_id: fresh.workspaceId,
    name,
    role,
    scopes,
    secret,
    status: "active",
    created_at: at,
  });
  store.transact((tx) => {
    tx.put<WorkspaceRecord>(C.workspaces, {
      id: fresh.workspaceId,
      name: "Sandbox workspace",
      owner_email: "owner@sandbox.invalid",
      webhook_private_key: fresh.webhookPrivateKey,
      created_at: at,
    });
    // The "admin key" the sandbox prints is the workspace owner's key, so every operation (API key
    // management included, which needs owner) can be tried with it.
    tx.put(C.apiKeys, key(fresh.apiKey, fresh.apiSecret, "sandbox owner key", "owner", ["*"]));
    tx.put(C.apiKeys, key(fresh.viewerApiKey, fresh.viewerApiSecret, "sandbox viewer key", "viewer", ["*"]));
    tx.put(C.apiKeys, key(fresh.scopedApiKey, fresh.scopedApiSecret, "sandbox balances-only key", "viewer", ["balances:read"]));
    tx.setMeta(META, fresh);
  });
  return { values: fresh, restored: false };
}
