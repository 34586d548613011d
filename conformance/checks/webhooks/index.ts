// Webhooks (seed 6, 2.7–2.9): the verification key, real signed deliveries to our own receiver,
// requeue with operation 6 and deletion with operation 7. The profile the deployment's signatures
// matched is reported as a fact.
import type { Check } from "../check.ts";
import { deleteStopsDelivery } from "./deletion.ts";
import { deliveryLogged, resendSameEvent } from "./delivery-log.ts";
import { eventShape } from "./event-shape.ts";
import { registration } from "./registration.ts";
import { deliverySignature, tamperedBodyRejected, verificationKeyCheck } from "./signatures.ts";
import { walletCreatedName } from "./wallet-created.ts";

export const webhookChecks: Check[] = [
  verificationKeyCheck,
  registration,
  deliverySignature,
  eventShape,
  tamperedBodyRejected,
  deliveryLogged,
  resendSameEvent,
  walletCreatedName,
  deleteStopsDelivery,
];
export { leakAfterDelete } from "./deletion.ts";
