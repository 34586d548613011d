export const ROLE_RANK = { viewer: 1, admin: 2, owner: 3 };
/** True when `role` is at least `minRole`; an unknown role ranks below viewer. */
export function hasRole(role, minRole) {
    const rank = Object.hasOwn(ROLE_RANK, role) ? ROLE_RANK[role] : 0;
    return rank >= ROLE_RANK[minRole];
}
export function hasScopes(granted, required) {
    if (granted.includes("*"))
        return true;
    return required.every((scope) => granted.includes(scope));
}
export function isAuthorized(auth, op) {
    return hasRole(auth.role, op.minRole) && hasScopes(auth.scopes, op.scopes);
}
//# sourceMappingURL=authorize.js.map