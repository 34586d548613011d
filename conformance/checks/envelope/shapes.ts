// The envelope of success and error answers (seed 2.1, 7).

import type { Check } from "../check.ts";
import { envelopeProblem, isSuccessCode } from "../expect.ts";
import { everySample, is2xx, NO_SUCCESS, parsed, SAMPLING } from "./sample-verdicts.ts";

export const successShape: Check = {
  id: "envelope.success-shape",
  skipsWithout: [["wallet", "workspace"]],
  statements: [
    "s2.1.envelope-success",
    "s2.1.envelope-message",
    "s2.1.envelope-code",
    "s2.1.envelope-data",
    "s2.1.envelope-everywhere",
    "s4.success-envelope",
  ],
  ...SAMPLING,
  group: "envelope",
  title: "Success responses are the envelope with success true, code 0 (integer or string) and the data",
  severity: "MUST",
  seedRef: "§2.1",
  level: "seed",
  sends: "the shared sample: every read operation in scope signed, getWalletOverview unsigned and of an unknown wallet",
  run: (ctx) =>
    everySample(ctx, is2xx, NO_SUCCESS, (s) => {
      const body = parsed(s);
      const shape = envelopeProblem(body);
      if (shape) return `not the envelope: ${shape}`;
      if (body!.success !== true) return "success is not true";
      if (!isSuccessCode(body!.code)) return `code is ${JSON.stringify(body!.code)}, not 0 (or "0")`;
      if (typeof body!.data !== "object")
        return `data is ${JSON.stringify(body!.data).slice(0, 40)}, not an object, an array or null (seed 2.1)`;
      return undefined;
    }),
};

export const errorShape: Check = {
  id: "envelope.error-shape",
  statements: [
    "s2.1.envelope-success",
    "s2.1.envelope-data",
    "s2.1.envelope-everywhere",
    "s4.two-errors-ops-3-5-6-7",
    "s7.other-errors",
    "s7.every-error-shape",
  ],
  ...SAMPLING,
  group: "envelope",
  title: "Error responses are the envelope with success false and data null",
  severity: "MUST",
  seedRef: "§2.1; §7",
  level: "seed",
  sends: "the shared sample (every read signed, the overview unsigned and of an unknown wallet)",
  run: (ctx) =>
    everySample(
      ctx,
      (s) => !is2xx(s),
      "no error response to examine",
      (s) => {
        const body = parsed(s);
        const shape = envelopeProblem(body);
        if (shape) return `not the envelope: ${shape}`;
        if (body!.success !== false) return "success is not false";
        if (body!.data !== null) return "data is not null";
        return undefined;
      },
    ),
};

export const successIff2xx: Check = {
  id: "envelope.success-iff-2xx",
  statements: ["s2.1.envelope-success"],
  ...SAMPLING,
  group: "envelope",
  title: "success is true exactly when the HTTP status is 2xx",
  severity: "MUST",
  seedRef: "§2.1",
  level: "seed",
  sends: "the shared sample (every read signed, the overview unsigned and of an unknown wallet)",
  run: (ctx) =>
    everySample(
      ctx,
      () => true,
      "no response to examine",
      (s) => {
        const body = parsed(s);
        if (!body || typeof body.success !== "boolean") return "no boolean success member";
        return body.success !== is2xx(s) ? `success is ${body.success} on HTTP ${s.ex.response.status}` : undefined;
      },
    ),
};
