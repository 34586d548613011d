// Envelope checks (seed 2.1, 4, 7): each looks at every sampled response for one rule.
import type { Check } from "../check.ts";
import { seedShapeChecks } from "./seed-shapes.ts";
import { successShape, errorShape, successIff2xx } from "./shapes.ts";
import { jsonContentType, responseSchema, declaredStatus, unauthorizedMessage, requestId } from "./declared.ts";
import { notFoundOverview, invalidBody } from "./refusals.ts";

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
