// webhooks.endpoint-isolation against the sandbox: it passes (one queue per endpoint), reports the
// latencies it measured, and leaves no webhook of its own registered — leftover hanging receivers on a
// shared sandbox are what issue 28 is about. Its failure against a dispatcher with one shared queue is
// in test/conformance-fake-target.test.ts (fault shared-delivery-queue).
import { describe, expect, it } from "vitest";
import { endpointIsolation } from "../conformance/checks/webhooks/isolation.ts";
import { signRequest } from "../runtime/http/hmac.ts";
import { runBehindProxy } from "./support/deep-target.ts";

describe("webhooks.endpoint-isolation", () => {
  it("passes against the sandbox and deletes every webhook it registered", async () => {
    let left: unknown[] | undefined;
    const { report, seen } = await runBehindProxy({
      catalog: () => [endpointIsolation],
      then: async (run) => {
        const path = `/api/v1/workspaces/${run.workspaceId}/webhooks`;
        const headers = signRequest({
          apiKey: run.target.admin.apiKey,
          apiSecret: run.target.admin.apiSecret,
          method: "GET",
          path,
        });
        left = ((await (await fetch(`${run.sandboxUrl}${path}`, { headers })).json()) as { data: unknown[] }).data;
      },
    });
    const check = report.checks.find((c) => c.id === "webhooks.endpoint-isolation");
    expect(check?.status, check?.message ?? "").toBe("passed");
    expect(check?.facts?.isolation).toMatch(/beside 10 hanging and 4 refusing endpoints/);
    const created = seen.filter((r) => r.method === "POST" && r.path.endsWith("/webhooks")).length;
    expect(created).toBe(16);
    expect(left).toEqual([]);
  });
});
