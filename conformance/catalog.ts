// The catalog: every check of the suite, in report order. A check's id is stable; CI depends on it.
import { negativeChecks } from "./checks/auth/negatives.ts";
import { signedOtherRoute } from "./checks/auth/other-route.ts";
import { positiveChecks } from "./checks/auth/positives.ts";
import { envelopeChecks } from "./checks/envelope/index.ts";
import { lifecycleChecks } from "./checks/lifecycle/index.ts";
import { resourceGraphSequence } from "./checks/lifecycle/sequence.ts";
import { roleChecks } from "./checks/role/index.ts";
import { httpRpcChecks } from "./checks/rpc/http.ts";
import { rpcResultChecks } from "./checks/rpc/results.ts";
import { wsRpcChecks } from "./checks/rpc/ws.ts";
import { scopeChecks } from "./checks/scope/index.ts";
import { authzChecks } from "./checks/authz/index.ts";
import { isolationChecks } from "./checks/isolation/index.ts";
import { moneyChecks } from "./checks/money/index.ts";
import { pagingChecks } from "./checks/paging/index.ts";
import { deliveryChecks } from "./checks/webhooks/delivery.ts";
import { webhookChecks } from "./checks/webhooks/index.ts";
import { endpointIsolation } from "./checks/webhooks/isolation.ts";
import { chainsChecks } from "./checks/chains/index.ts";
import type { Check } from "./check.ts";

export const CATALOG: readonly Check[] = [
  ...envelopeChecks,
  ...positiveChecks,
  ...negativeChecks,
  signedOtherRoute,
  ...scopeChecks,
  ...roleChecks,
  ...authzChecks,
  ...isolationChecks,
  ...webhookChecks,
  ...deliveryChecks,
  endpointIsolation,
  ...lifecycleChecks,
  ...moneyChecks,
  resourceGraphSequence,
  ...chainsChecks,
  ...pagingChecks,
  ...httpRpcChecks,
  ...wsRpcChecks,
  ...rpcResultChecks,
];

export function checkById(id: string): Check | undefined {
  return CATALOG.find((c) => c.id === id);
}
