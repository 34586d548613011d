// The checks that look for what implementers get wrong (authorization matrix, money path, delivery
// retries, JSON-RPC results, the resource-graph sequence). Their faults are injected in front of the
// reference deployment (test/conformance-deep.test.ts); the hand-written fake target implements
// neither roles per scope, holds, retries nor subscriptions, so its own tests leave them out.
import { authzChecks } from "../../conformance/checks/authz/index.ts";
import { resourceGraphSequence } from "../../conformance/checks/lifecycle/sequence.ts";
import { moneyChecks } from "../../conformance/checks/money/index.ts";
import { rpcResultChecks } from "../../conformance/checks/rpc/results.ts";
import { deliveryChecks } from "../../conformance/checks/webhooks/delivery.ts";

export const DEEP_CHECK_IDS: ReadonlySet<string> = new Set(
  [...authzChecks, ...moneyChecks, ...deliveryChecks, ...rpcResultChecks, resourceGraphSequence].map((c) => c.id),
);
