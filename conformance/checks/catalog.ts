// The catalog: every check of the suite, in report order. A check's id is stable; CI depends on it.
import { negativeChecks } from "./auth/negatives.ts";
import { signedOtherRoute } from "./auth/other-route.ts";
import { positiveChecks } from "./auth/positives.ts";
import { authzChecks } from "./authz/index.ts";
import { chainsChecks } from "./chains/index.ts";
import type { Check } from "./check.ts";
import { envelopeChecks } from "./envelope/index.ts";
import { isolationChecks } from "./isolation/index.ts";
import { lifecycleChecks } from "./lifecycle/index.ts";
import { resourceGraphSequence } from "./lifecycle/sequence.ts";
import { moneyChecks } from "./money/index.ts";
import { pagingChecks } from "./paging/index.ts";
import { roleChecks } from "./role/index.ts";
import { httpRpcChecks } from "./rpc/http.ts";
import { rpcResultChecks } from "./rpc/results.ts";
import { wsRpcChecks } from "./rpc/ws.ts";
import { scopeChecks } from "./scope/index.ts";
import { deliveryChecks } from "./webhooks/delivery.ts";
import { webhookChecks } from "./webhooks/index.ts";
import { endpointIsolation } from "./webhooks/isolation.ts";

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
