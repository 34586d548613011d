// A signature binds its route (seed 5 rule 1): the headers of a request that one route accepted,
// sent unchanged to another real route, are a wrong credential there. Unlike auth.signed-other-path
// (signatures over made-up paths), both paths here exist, so a deployment that caches verified
// signatures, or leaves the path out of what it verifies, is caught on the routes people call.

import { isRead } from "../../run/operations.ts";
import type { Check } from "../check.ts";
import { expectUnauthorized } from "../expect.ts";
import { skip } from "../outcome.ts";
import { knownIds, operationsInScope, planRequest, type RequestPlan } from "../request-plans.ts";
import { failEachThatFails, sendCase, signed } from "./matrix.ts";

/** Each read paired with the next read of another path (same method, so only the path differs). */
function routePairs(plans: RequestPlan[]): Array<[RequestPlan, RequestPlan]> {
  return plans.flatMap((from, i) => {
    const to = [...plans.slice(i + 1), ...plans.slice(0, i)].find((p) => p.path !== from.path);
    return to ? [[from, to] as [RequestPlan, RequestPlan]] : [];
  });
}

export const signedOtherRoute: Check = {
  id: "auth.signed-other-route",
  statements: ["s4.all-need-auth", "s5.rule1-401-envelope"],
  group: "auth",
  title:
    "The headers of a request one real route accepted are refused with 401 on another real route (e.g. operation 1's signature sent to operation 8)",
  severity: "MUST",
  seedRef: "§5 rule 1 (a signature made for another route is a wrong credential)",
  level: "seed",
  sends: "one read that was accepted, its exact headers then sent to another real route",
  async run(ctx) {
    const ids = knownIds(ctx);
    const plans = operationsInScope(ctx)
      .filter(isRead)
      .map((op) => planRequest(op, ids));
    const pairs = routePairs(plans);
    if (pairs.length === 0) skip("fewer than two read operations in scope");
    let replayed = 0;
    await failEachThatFails(ctx, pairs, 4, async ([from, to]) => {
      const headers = signed(from, ctx.config.admin);
      // First where it was made for: a refusal there means nothing was captured to replay.
      const original = await sendCase(ctx, from, { label: "signed", headers });
      if (original.response.status === 401) return;
      replayed++;
      expectUnauthorized(
        await sendCase(ctx, to, { label: "replayed", headers }),
        `${to.op.operationId} with the headers ${from.op.operationId} was accepted with`,
      );
    });
    if (replayed === 0)
      skip("no route accepted a correctly signed request, so there was nothing to replay (see auth.valid-signature)");
  },
};
