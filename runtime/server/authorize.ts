// Role and scope checks: roles are ordered viewer < admin < owner; every listed scope is required,
// and the scope `*` grants them all.
import type { AuthContext, OperationDefinition, Role } from "./types.ts";

export const ROLE_RANK: Readonly<Record<Role, number>> = { viewer: 1, admin: 2, owner: 3 };

/** True when `role` is at least `minRole`; an unknown role ranks below viewer. */
export function hasRole(role: string, minRole: Role): boolean {
  const rank = Object.hasOwn(ROLE_RANK, role) ? ROLE_RANK[role as Role] : 0;
  return rank >= ROLE_RANK[minRole];
}

export function hasScopes(granted: readonly string[], required: readonly string[]): boolean {
  if (granted.includes("*")) return true;
  return required.every((scope) => granted.includes(scope));
}

export function isAuthorized(
  auth: Pick<AuthContext, "role" | "scopes">,
  op: Pick<OperationDefinition, "minRole" | "scopes">,
): boolean {
  return hasRole(auth.role, op.minRole) && hasScopes(auth.scopes, op.scopes);
}
