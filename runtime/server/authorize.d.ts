import type { AuthContext, OperationDefinition, Role } from "./types.ts";
export declare const ROLE_RANK: Readonly<Record<Role, number>>;
/** True when `role` is at least `minRole`; an unknown role ranks below viewer. */
export declare function hasRole(role: string, minRole: Role): boolean;
export declare function hasScopes(granted: readonly string[], required: readonly string[]): boolean;
export declare function isAuthorized(auth: Pick<AuthContext, "role" | "scopes">, op: Pick<OperationDefinition, "minRole" | "scopes">): boolean;
