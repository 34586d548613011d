// API keys of a workspace. The HMAC secret is generated from crypto randomness, stored (HMAC needs it
// in clear to verify), returned once at creation and never logged.
import { randomBytes } from "node:crypto";
import { badRequest, forbidden } from "../../runtime/errors.ts";
import { assertWorkspace, findInWorkspace } from "./access.ts";
import type { DomainContext } from "./context.ts";
import { newId } from "./ids.ts";
import { apiKeyKeys } from "./indexes.ts";
import type { PageQuery } from "./paging.ts";
import { type Actor, type ApiKeyRecord, C, type Role } from "./records.ts";

export const SCOPES = [
  "catalog:read",
  "wallets:read",
  "wallets:write",
  "balances:read",
  "withdrawals:read",
  "withdrawals:write",
  "withdrawals:approve",
  "transactions:read",
  "signing:write",
  "webhooks:read",
  "webhooks:write",
  "api-keys:read",
  "api-keys:write",
  "audit:read",
  "observability:read",
] as const;

const ROLE_RANK: Record<Role, number> = { viewer: 0, admin: 1, owner: 2 };

/** What the router needs to verify a request signed with this key. */
export interface ResolvedKey {
  keyId: string;
  secret: string;
  role: Role;
  scopes: string[];
  workspaceId: string;
}

/** A new API secret; the sk_ prefix keeps it from starting with "-", which command lines read as a flag. */
export function generateSecret(): string {
  return `sk_${randomBytes(32).toString("base64url")}`;
}

export class ApiKeyService {
  constructor(private readonly ctx: DomainContext) {}

  /** Active keys only: a revoked or unknown key id resolves to nothing (the router answers 401). */
  resolve(keyId: string): ResolvedKey | undefined {
    const key = this.ctx.store.get<ApiKeyRecord>(C.apiKeys, keyId);
    if (key?.status !== "active") return undefined;
    return {
      keyId: key.id,
      secret: key.secret,
      role: key.role,
      scopes: [...key.scopes],
      workspaceId: key.workspace_id,
    };
  }

  create(actor: Actor, workspaceId: string, input: { name: string; role: Role; scopes: string[] }): ApiKeyRecord {
    assertWorkspace(actor, workspaceId);
    // A key can hand out at most its own powers.
    if (ROLE_RANK[input.role] > ROLE_RANK[actor.role])
      throw forbidden(`a ${actor.role} key cannot create a ${input.role} key`);
    const unknown = input.scopes.filter((s) => s !== "*" && !(SCOPES as readonly string[]).includes(s));
    if (unknown.length > 0) throw badRequest(`scopes: unknown scope ${unknown.map((s) => `'${s}'`).join(", ")}`);
    if (new Set(input.scopes).size !== input.scopes.length)
      throw badRequest("scopes: each scope at most once (uniqueItems)");
    if (!actor.scopes.includes("*")) {
      const beyond = input.scopes.filter((s) => !actor.scopes.includes(s));
      if (beyond.length > 0) throw forbidden(`this key cannot grant scopes it does not hold: ${beyond.join(", ")}`);
    }
    const at = this.ctx.now();
    const record: ApiKeyRecord = {
      id: newId(),
      workspace_id: actor.workspaceId,
      name: input.name,
      role: input.role,
      scopes: [...new Set(input.scopes)],
      secret: generateSecret(),
      status: "active",
      created_at: at.toISOString(),
    };
    return this.ctx.store.transact((tx) => tx.put(C.apiKeys, record));
  }

  /** One page of the workspace's keys, oldest first. */
  page(actor: Actor, workspaceId: string, page: PageQuery): ApiKeyRecord[] {
    assertWorkspace(actor, workspaceId);
    return this.ctx.store.page<ApiKeyRecord>(
      C.apiKeys,
      apiKeyKeys.ofWorkspace(actor.workspaceId),
      page.offset,
      page.limit,
    );
  }

  revoke(actor: Actor, workspaceId: string, keyId: string): ApiKeyRecord {
    assertWorkspace(actor, workspaceId);
    const key = findInWorkspace<ApiKeyRecord>(this.ctx.store, actor, C.apiKeys, keyId, "api key");
    if (key.id === actor.keyId) throw forbidden("a key cannot revoke itself; use another owner key");
    if (key.status === "revoked") return key;
    const at = this.ctx.now();
    const revoked: ApiKeyRecord = { ...key, status: "revoked", revoked_at: at.toISOString() };
    return this.ctx.store.transact((tx) => tx.put(C.apiKeys, revoked));
  }
}
