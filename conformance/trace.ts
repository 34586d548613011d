// Which checks test which seed statement (ids of spec/trace.yaml). The spec's trace file carries
// the same lists in its `checks:` fields; test/conformance-trace.test.ts keeps both honest: every
// testable statement has a check, and every id named here is in the catalog.

const NEGATIVE_AUTH = [
  "auth.no-credentials",
  "auth.missing-access-api-key",
  "auth.missing-access-timestamp",
  "auth.missing-access-sign",
  "auth.empty-headers",
  "auth.unknown-key",
  "auth.wrong-secret",
  "auth.signed-other-method",
  "auth.signed-other-path",
  "auth.signed-other-body",
  "auth.signed-other-timestamp",
  "auth.body-tampered",
  "auth.stale-timestamp",
  "auth.future-timestamp",
];

export const TRACE: Record<string, string[]> = {
  "s1.mpc-wallets-in-workspace": ["lifecycle.wallet-creation", "scope.other-workspace-refused"],
  "s1.workspace-roles": ["role.viewer-can-read", "role.viewer-cannot-change-settings", "role.viewer-cannot-withdraw"],
  "s1.async-wallet-creation": ["lifecycle.wallet-creation"],
  "s1.wallet-created-event": ["lifecycle.wallet-created-event"],
  "s1.assets-attached": ["lifecycle.deposit-address"],
  "s1.deposit-address-derived": ["lifecycle.deposit-address"],
  "s1.balances-per-wallet-and-asset": ["envelope.response-schema", "role.viewer-can-read", "scope.balances-read-only"],
  "s1.balances-from-chain": ["lifecycle.balance-matches-chain"],
  "s1.deposits-no-approval": ["lifecycle.deposit-confirmation"],
  "s1.deposit-detected-then-confirmed": ["lifecycle.deposit-detected", "lifecycle.deposit-confirmation"],
  "s1.approvals-outbound-only": ["lifecycle.deposit-confirmation", "lifecycle.withdrawal-receipt"],
  "s1.withdrawals-policy-approvals": ["lifecycle.withdrawal-receipt", "role.viewer-cannot-withdraw"],
  "s1.wallet-to-wallet-is-withdrawal": ["lifecycle.wallet-to-wallet"],
  "s1.webhooks-registered": ["webhooks.registration"],
  "s1.deliveries-logged": ["webhooks.delivery-logged", "webhooks.resend-same-event", "webhooks.delivery-signature"],
  "s1.deliveries-requeued": ["webhooks.resend-same-event"],
  "s1.deliveries-signed": ["webhooks.delivery-signature", "webhooks.tampered-body-rejected", "webhooks.verification-key"],
  "s1.other-groups": ["envelope.response-schema", "scope.api-key-creation"],
  "s1.transactions-export": ["lifecycle.transactions-export"],
  "s1.node-access-http-ws": ["rpc.http-block-number", "rpc.ws-query-key"],
  "s1.substrate-clients": ["rpc.substrate-client"],
  "s2.1.envelope-success": ["envelope.success-shape", "envelope.error-shape", "envelope.success-iff-2xx"],
  "s2.1.envelope-message": ["envelope.success-shape", "envelope.unauthorized-envelope"],
  "s2.1.envelope-code": ["envelope.success-shape", "envelope.unauthorized-envelope"],
  "s2.1.envelope-data": ["envelope.success-shape", "envelope.error-shape"],
  "s2.1.envelope-everywhere": ["envelope.success-shape", "envelope.error-shape", "envelope.json-content-type"],
  "s2.2.wallet-balance": ["envelope.response-schema"],
  "s2.2.wallet-balance-refreshed-at": ["envelope.response-schema"],
  "s2.3.asset": ["envelope.response-schema"],
  "s2.4.network": ["envelope.response-schema"],
  "s2.5.withdrawal": ["envelope.response-schema", "lifecycle.withdrawal-receipt"],
  "s2.6.wallet-creation-status": ["envelope.response-schema", "lifecycle.wallet-creation"],
  "s2.7.webhook-delivery": ["webhooks.delivery-logged", "webhooks.resend-same-event"],
  "s2.8.webhook-delete-result": ["webhooks.delete-stops-delivery"],
  "s2.9.webhook-verification-key": ["webhooks.verification-key"],
  "s3.creation-status-pending": ["lifecycle.wallet-creation"],
  "s3.delivery-status-pending": ["webhooks.delivery-logged", "webhooks.resend-same-event"],
  "s3.delete-result-deleted": ["webhooks.delete-stops-delivery"],
  "s3.deposit-reported-when-detected": ["lifecycle.deposit-detected"],
  "s3.deposit-balance-when-confirmed": ["lifecycle.deposit-confirmation"],
  "s3.deposit-no-approval": ["lifecycle.deposit-confirmation"],
  "s4.base-url": ["auth.valid-signature"],
  "s4.all-need-auth": ["auth.no-credentials", "auth.identical-401"],
  "s4.no-body-no-query": ["auth.valid-signature"],
  "s4.success-envelope": ["envelope.success-shape"],
  "s4.path-params-strings-required": ["envelope.not-found-wallet", "auth.valid-signature"],
  "s4.op1-wallet-overview": ["envelope.response-schema", "envelope.not-found-wallet"],
  "s4.op2-wallet-asset-balance": ["envelope.response-schema", "lifecycle.deposit-confirmation"],
  "s4.op3-get-withdrawal": ["envelope.response-schema", "lifecycle.withdrawal-receipt"],
  "s4.op4-list-wallet-withdrawals": ["envelope.response-schema", "lifecycle.withdrawal-idempotency"],
  "s4.op5-wallet-creation-status": ["envelope.response-schema", "lifecycle.wallet-creation"],
  "s4.op6-resend-delivery": ["webhooks.resend-same-event"],
  "s4.op7-delete-webhook": ["webhooks.delete-stops-delivery"],
  "s4.op8-webhook-verification-key": ["webhooks.verification-key"],
  "s4.statuses-shown": ["envelope.declared-status", "envelope.unauthorized-envelope"],
  "s4.op1-404": ["envelope.not-found-wallet"],
  "s4.two-errors-ops-3-5-6-7": ["envelope.declared-status", "envelope.error-shape"],
  "s4.partial-create-wallet": ["lifecycle.wallet-creation", "lifecycle.wallet-created-event"],
  "s4.partial-deposit-address": ["lifecycle.deposit-address"],
  "s4.partial-export": ["lifecycle.transactions-export"],
  "s4.1.http-transport": ["rpc.http-block-number", "rpc.json-content-type"],
  "s4.1.ws-transport": ["rpc.ws-query-key", "rpc.ws-framing"],
  "s4.1.request-shape": ["rpc.errors.invalid-request", "rpc.http-block-number"],
  "s4.1.response-shape": ["rpc.id-echo", "rpc.ws-framing"],
  "s4.1.get-block-by-number-params": ["rpc.get-block-latest", "rpc.errors.invalid-params"],
  "s4.1.get-block-by-number-result": ["rpc.get-block-latest"],
  "s4.1.block-number": ["rpc.http-block-number", "rpc.block-number-advances"],
  "s4.1.substrate-api-key-query": ["rpc.substrate-client"],
  "s4.1.ws-send-immediately": ["rpc.ws-immediate-request"],
  "s5.three-headers": ["auth.valid-signature", "auth.missing-access-api-key", "auth.missing-access-timestamp", "auth.missing-access-sign"],
  "s5.access-api-key": ["auth.unknown-key", "auth.missing-access-api-key"],
  "s5.access-timestamp": ["auth.timestamp-milliseconds", "auth.timestamp-not-numeric", "auth.stale-timestamp", "auth.future-timestamp", "auth.window-edge"],
  "s5.access-sign": ["auth.signature-not-base64", "auth.uppercase-hex", "auth.raw-digest-signature", "auth.wrong-secret"],
  "s5.rule1-401-envelope": [...NEGATIVE_AUTH, "auth.identical-401", "envelope.unauthorized-envelope"],
  "s5.rule2-scopes": ["scope.balances-read-only"],
  "s5.rule3-viewer-reads": ["role.viewer-can-read"],
  "s5.rule3-viewer-no-writes": ["role.viewer-cannot-withdraw", "role.viewer-cannot-change-settings"],
  "s5.rule3-higher-roles": ["role.viewer-cannot-withdraw", "role.viewer-cannot-change-settings"],
  "s5.node-access-key": ["rpc.http-block-number", "rpc.http-header-key", "rpc.ws-query-key", "rpc.ws-header-key", "rpc.unauthorized", "rpc.ws-unauthorized"],
  "s6.webhook-delivery": ["webhooks.registration", "webhooks.delivery-signature", "webhooks.event-shape"],
  "s6.delivery-recorded": ["webhooks.delivery-logged"],
  "s6.wallet-created": ["lifecycle.wallet-created-event"],
  "s6.requeue-returns-record": ["webhooks.resend-same-event"],
  "s6.signed-ed25519": ["webhooks.verification-key", "webhooks.delivery-signature", "webhooks.tampered-body-rejected"],
  "s6.deposit-events-exist": ["lifecycle.deposit-detected"],
  "s7.auth-failed": ["envelope.unauthorized-envelope", "auth.identical-401", "auth.canonical-401-body"],
  "s7.not-found": ["envelope.not-found-wallet"],
  "s7.other-errors": ["envelope.error-shape"],
  "s7.every-error-shape": ["envelope.error-shape"],
  "s9.prefix": ["auth.valid-signature"],
};

/**
 * Writes these lists into the `checks:` fields of spec/trace.yaml (comments and order kept):
 *   npx tsx conformance/trace.ts --write-spec
 * The spec's owner runs it; conformance/ itself never writes outside its directory.
 */
async function writeSpecTrace(): Promise<void> {
  const { readFileSync, writeFileSync } = await import("node:fs");
  const { parseDocument } = await import("yaml");
  const file = new URL("../spec/trace.yaml", import.meta.url);
  const doc = parseDocument(readFileSync(file, "utf8"));
  const statements = doc.get("statements") as { items: Array<{ get(k: string): unknown; set(k: string, v: unknown): void }> };
  for (const statement of statements.items) {
    const id = String(statement.get("id"));
    statement.set("checks", doc.createNode(TRACE[id] ?? [], { flow: true }));
  }
  writeFileSync(file, doc.toString({ lineWidth: 0 }));
}

if (process.argv.includes("--write-spec") && process.argv[1]?.endsWith("trace.ts")) await writeSpecTrace();
