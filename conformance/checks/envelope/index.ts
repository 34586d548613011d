// Envelope checks (seed 2.1, 4, 7): each looks at every sampled response for one rule.
import type { Check } from "../check.ts";
import { declaredStatus, jsonContentType, requestId, responseSchema, unauthorizedMessage } from "./declared.ts";
import { invalidBody, notFoundOverview } from "./refusals.ts";
import { seedShapeChecks } from "./seed-shapes.ts";
import { errorShape, successIff2xx, successShape } from "./shapes.ts";

export const envelopeChecks: Check[] = [
  ...seedShapeChecks,
  successShape,
  errorShape,
  successIff2xx,
  jsonContentType,
  responseSchema,
  declaredStatus,
  unauthorizedMessage,
  notFoundOverview,
  requestId,
  invalidBody,
];
