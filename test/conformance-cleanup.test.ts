// What a certify run leaves on a deployment: its records carry the run's marker; the run removes its
// own at the end (also after an interruption, also a record whose creation answer never came back),
// and first removes those of earlier runs whose lease has passed, never a record without the marker
// or one whose lease still runs. Against the reference deployment, whose lists show what is left.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Check } from "../conformance/checks/check.ts";
import { leakAfterDelete } from "../conformance/checks/webhooks/index.ts";
import { registerWebhook } from "../conformance/provision/webhook.ts";
import type { Target } from "../conformance/run/config.ts";
import { markerIn, RunMarker } from "../conformance/run/marker.ts";
import { loadGeneratedOperations } from "../conformance/run/operations.ts";
import { runSuite } from "../conformance/run/runner.ts";
import type { ReceivedDelivery } from "../conformance/transport/receiver.ts";
import { type Sandbox, startSandbox } from "../reference/sandbox.ts";
import { signRequest } from "../runtime/http/hmac.ts";

describe("the run marker", () => {
  it("names the run and the end of its lease, and is found in names, descriptions and URLs only in its own form", () => {
    const marker = new RunMarker(60_000, Date.parse("2030-01-01T00:00:00Z"), "0a1b2c3d");
    expect(marker.token).toBe(`custody-certify-${Date.parse("2030-01-01T00:01:00Z") / 1000}-0a1b2c3d`);
    expect(marker.name("wallet")).toBe(`${marker.token}-wallet`);
    expect(markerIn(`http://127.0.0.1:9/${marker.token}/primary`)).toEqual({
      runId: "0a1b2c3d",
      expiresAt: Date.parse("2030-01-01T00:01:00Z"),
    });
    expect(marker.owns(markerIn(marker.description("retry webhook")))).toBe(true);
    // A user's own name that merely starts like ours is not ours.
    for (const text of [
      "custody-certify-ci",
      "custody-certify-wallet-lzq1x",
      "custody-certify-123-0a1b2c3d",
      undefined,
      7,
    ])
      expect(markerIn(text)).toBeUndefined();
  });
});

describe("deliveries after a webhook was deleted", () => {
  /** Deliveries to "doomed" in the order given (seq 0, 1, ...); the delete's answer came at `mark`. */
  const arrived = (...list: Array<[id: string, body?: string]>): ReceivedDelivery[] =>
    list.map(([id, body = "{}"], seq) => ({
      channel: "doomed",
      headers: { "x-webhook-event-id": id },
      body,
      receivedAt: 100, // one millisecond for all: the order tells before from after, not the clock
      seq,
    }));
  it("tolerates one arrival of an event already on its way; a repeat or an event made after the delete is a leak", () => {
    const isNew = (d: ReceivedDelivery) => d.body.includes("fresh");
    expect(leakAfterDelete(arrived(["e1"], ["e2"]), "doomed", 1, isNew)).toBeUndefined();
    expect(leakAfterDelete(arrived(["e1"], ["e1"]), "doomed", 2, isNew)).toBeUndefined();
    expect(leakAfterDelete(arrived(["e1"], ["e1"]), "doomed", 1, isNew)?.why).toBe("event e1 delivered again");
    expect(leakAfterDelete(arrived(["e2"], ["e2"]), "doomed", 0, isNew)?.why).toBe("event e2 delivered again");
    expect(leakAfterDelete(arrived(["e3", '{"fresh":1}']), "doomed", 0, isNew)?.why).toBe(
      "an event made after the delete",
    );
  });
});

describe("clean-up against the reference deployment", () => {
  let sandbox: Sandbox;
  let target: Target;
  const call = async (method: string, path: string, body?: unknown) => {
    const raw = body === undefined ? undefined : JSON.stringify(body);
    const headers = signRequest({ apiKey: sandbox.api_key, apiSecret: sandbox.api_secret, method, path, body: raw });
    const res = await fetch(`${sandbox.base_url}${path}`, {
      method,
      headers: { ...headers, "content-type": "application/json" },
      body: raw,
    });
    return ((await res.json()) as { data: unknown }).data as Record<string, unknown> & Array<Record<string, unknown>>;
  };
  const hooks = () => call("GET", `/api/v1/workspaces/${sandbox.workspace_id}/webhooks`);
  const keys = () => call("GET", `/api/v1/workspaces/${sandbox.workspace_id}/api-keys`);

  beforeAll(async () => {
    sandbox = await startSandbox({ blockTimeSeconds: 0 });
    target = {
      baseUrl: sandbox.base_url,
      rpcUrl: sandbox.rpc_url,
      wsUrl: sandbox.ws_url,
      admin: { apiKey: sandbox.api_key, apiSecret: sandbox.api_secret },
      rpcApiKey: sandbox.rpc_api_key,
      workspaceId: sandbox.workspace_id,
      fixtureIds: {},
    };
  });
  afterAll(() => sandbox.close());

  it("removes earlier cut-short runs' expired records and its own, also when interrupted, and nothing else", async () => {
    const expired = new RunMarker(-60_000, Date.now(), "dead0001").token;
    const running = new RunMarker(3_600_000, Date.now(), "a11ce002").token;
    const hook = (url: string, description?: string) =>
      call("POST", `/api/v1/workspaces/${sandbox.workspace_id}/webhooks`, {
        url,
        event_types: ["wallet.created"],
        ...(description ? { description } : {}),
      });
    const staleHook = await hook(`http://127.0.0.1:9/${expired}/primary`);
    const liveHook = await hook(`http://127.0.0.1:9/${running}/primary`);
    const userHook = await hook("http://127.0.0.1:9/custody-certify/hooks", "custody certify, by hand");
    const staleKey = await call("POST", `/api/v1/workspaces/${sandbox.workspace_id}/api-keys`, {
      name: `${expired}-viewer-key`,
      role: "viewer",
      scopes: ["balances:read"],
    });
    const userKey = await call("POST", `/api/v1/workspaces/${sandbox.workspace_id}/api-keys`, {
      name: "custody-certify-ci",
      role: "viewer",
      scopes: ["balances:read"],
    });

    // A check that registers a webhook (its removal registered), creates one whose answer it never
    // reads (as when a run stops mid-request), then waits until the run is interrupted.
    const stop = new AbortController();
    let created = 0;
    const check: Check = {
      id: "webhooks.leaves-records",
      group: "webhooks",
      title: "creates records and waits",
      sends: "createWebhook, twice",
      severity: "MUST",
      seedRef: "§6",
      level: "full",
      requires: ["receiver", "workspace"],
      async run(ctx) {
        await registerWebhook(ctx.suite, "kept", ctx.signal);
        await ctx.call("createWebhook", {
          params: { workspace_id: sandbox.workspace_id },
          body: { url: ctx.suite.fixtures.peek("receiver")!.url("lost"), event_types: ["wallet.created"] },
        });
        created = 2;
        await ctx.sleep(60_000);
      },
    };
    const run = runSuite({
      target,
      options: { level: "full", timeoutMs: 10_000, concurrency: 4, supply: "create" },
      operations: await loadGeneratedOperations(),
      catalog: [check],
      signal: stop.signal,
      preflight: false,
    });
    while (created < 2) await new Promise((r) => setTimeout(r, 20));
    stop.abort("SIGINT");
    const result = await run;
    if (result.kind !== "completed") throw new Error("the run did not complete");
    const { summary, checks } = result.report;

    expect(summary.interrupted).toBe("SIGINT");
    expect(checks[0]).toMatchObject({ status: "skipped", skip_kind: "interrupted" });
    expect(summary.cleanup.earlier_runs_removed.sort()).toEqual(
      [`API key ${String(staleKey.id)}`, `webhook ${String(staleHook.id)}`].sort(),
    );
    expect(summary.cleanup.left).toEqual([]);
    const left = (await hooks()).map((h) => h.id);
    expect(left.sort()).toEqual([liveHook.id, userHook.id].sort());
    const activeKeys = (await keys()).filter((k) => k.status === "active").map((k) => k.id);
    expect(activeKeys).toContain(userKey.id);
    expect(activeKeys).not.toContain(staleKey.id);
  });
});
