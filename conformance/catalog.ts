// The catalog: every check of the suite, in report order. A check's id is stable; CI depends on it.
import { negativeChecks } from "./checks/auth/negatives.ts";
import { positiveChecks } from "./checks/auth/positives.ts";
import { envelopeChecks } from "./checks/envelope/index.ts";
import { lifecycleChecks } from "./checks/lifecycle/index.ts";
import { roleChecks } from "./checks/role/index.ts";
import { httpRpcChecks } from "./checks/rpc/http.ts";
import { wsRpcChecks } from "./checks/rpc/ws.ts";
import { scopeChecks } from "./checks/scope/index.ts";
import { webhookChecks } from "./checks/webhooks/index.ts";
import type { Check } from "./check.ts";

export const CATALOG: readonly Check[] = [
  ...envelopeChecks,
  ...positiveChecks,
  ...negativeChecks,
  ...scopeChecks,
  ...roleChecks,
  ...webhookChecks,
  ...lifecycleChecks,
  ...httpRpcChecks,
  ...wsRpcChecks,
];

export function checkById(id: string): Check | undefined {
  return CATALOG.find((c) => c.id === id);
}
