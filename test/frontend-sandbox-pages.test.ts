// What the sandbox serves beside the API: /docs, the console's files and its key (only to the
// sandbox's own host names, never with CORS), and the /_sandbox/ actions (signed, admin or owner only).

import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookEventTypes } from "../generated/webhooks.ts";
import { type Sandbox, startSandbox } from "../reference/sandbox.ts";
import { computeSignature, unixSeconds } from "../runtime/http/hmac.ts";
import { EVENT_TYPES } from "../web/console/adapter.js";

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ env: {}, seed: "pages" });
});
afterAll(async () => {
  await sandbox?.close();
});

/** A GET with a chosen Host header (fetch does not let one set it). */
function getWithHost(
  path: string,
  host: string,
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  const url = new URL(sandbox.base_url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path, headers: { host, origin: "http://evil.example" } },
      (res) => {
        let body = "";
        res.on("data", (c: Buffer) => (body += c.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

/** The error envelope's message of an answer. */
async function messageOf(res: Response): Promise<string> {
  return ((await res.json()) as { message: string }).message;
}

/** The success envelope's data of an answer. */
async function dataOf(res: Response): Promise<Record<string, unknown>> {
  return ((await res.json()) as { data: Record<string, unknown> }).data;
}

function signed(path: string, body: unknown, key = sandbox.api_key, secret = sandbox.api_secret) {
  const text = JSON.stringify(body);
  const timestamp = String(unixSeconds());
  return fetch(sandbox.base_url + path, {
    method: "POST",
    headers: {
      "ACCESS-API-KEY": key,
      "ACCESS-TIMESTAMP": timestamp,
      "ACCESS-SIGN": computeSignature(secret, { method: "POST", path, timestamp, body: text }),
      "content-type": "application/json",
    },
    body: text,
  });
}

describe("pages", () => {
  it("redirects / and /console to the console, and serves its files", async () => {
    const root = await fetch(`${sandbox.base_url}/`, { redirect: "manual" });
    expect(root.status).toBe(302);
    expect(root.headers.get("location")).toBe("/console/");
    const page = await fetch(`${sandbox.base_url}/console/`);
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    expect(page.headers.get("content-security-policy")).toMatch(/script-src 'self'/);
    expect(await page.text()).toContain("<title>custody sandbox console</title>");
    for (const f of ["console.js", "adapter.js", "signing.js", "console.css"])
      expect((await fetch(`${sandbox.base_url}/console/${f}`)).status).toBe(200);
    const ops = (await (await fetch(`${sandbox.base_url}/console/operations.json`)).json()) as Record<
      string,
      { method: string; path: string }
    >;
    expect(ops.listWallets).toEqual({ method: "GET", path: "/api/v1/workspaces/{workspace_id}/wallets" });
  });

  it("hands the console's key to the sandbox's own host only, without CORS headers", async () => {
    const port = new URL(sandbox.base_url).port;
    const own = await getWithHost("/console/config.json", `127.0.0.1:${port}`);
    expect(own.status).toBe(200);
    expect(JSON.parse(own.body)).toMatchObject({
      api_key: sandbox.api_key,
      workspace_id: sandbox.workspace_id,
      key_role: "owner",
    });
    expect(own.headers["access-control-allow-origin"]).toBeUndefined();
    expect(own.headers["cache-control"]).toBe("no-store");
    const local = await getWithHost("/console/config.json", `localhost:${port}`);
    expect(local.status).toBe(200);
    const rebound = await getWithHost("/console/config.json", `attacker.example:${port}`);
    expect(rebound.status).toBe(403);
    expect(rebound.body).not.toContain(sandbox.api_secret);
  });

  it("serves /docs from the spec", async () => {
    expect((await fetch(`${sandbox.base_url}/docs`, { redirect: "manual" })).headers.get("location")).toBe("/docs/");
    expect(await (await fetch(`${sandbox.base_url}/docs/`)).text()).toContain("swagger-ui-bundle.js");
    expect(await (await fetch(`${sandbox.base_url}/docs/openapi.yaml`)).text()).toMatch(/^openapi: 3\.1/m);
  });
});

describe("sandbox actions", () => {
  it("refuse unsigned calls and viewer keys", async () => {
    const unsigned = await fetch(`${sandbox.base_url}/_sandbox/mine`, { method: "POST", body: "{}" });
    expect(unsigned.status).toBe(401);
    const viewer = await signed("/_sandbox/mine", {}, sandbox.viewer_api_key, sandbox.viewer_api_secret);
    expect(viewer.status).toBe(403);
  });

  it("name bad input in the message", async () => {
    const bad = await signed("/_sandbox/faucet", { address: "0x12", amount: "1" });
    expect(bad.status).toBe(400);
    expect(await messageOf(bad)).toMatch(/^address: /);
    const amount = await signed("/_sandbox/faucet", {
      address: "0x000000000000000000000000000000000000dEaD",
      amount: "-1",
    });
    expect(await messageOf(amount)).toMatch(/^amount: /);
    const blocks = await signed("/_sandbox/mine", { blocks: 1000 });
    expect(await messageOf(blocks)).toMatch(/^blocks: /);
    const unknown = await signed("/_sandbox/nope", {});
    expect(unknown.status).toBe(404);
  });

  it("send from the faucet and mine", async () => {
    const before = (await dataOf(await signed("/_sandbox/mine", { blocks: 1 }))).block_number as number;
    const sent = await signed("/_sandbox/faucet", {
      address: "0x000000000000000000000000000000000000dEaD",
      amount: "0.5",
    });
    expect(sent.status).toBe(200);
    expect((await dataOf(sent)).tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    const after = (await dataOf(await signed("/_sandbox/mine", { blocks: 2 }))).block_number as number;
    expect(after).toBeGreaterThanOrEqual(before + 2);
  });
});

describe("console adapter", () => {
  it("subscribes to exactly the spec's webhook event types", () => {
    expect([...EVENT_TYPES].sort()).toEqual([...webhookEventTypes].sort());
  });
});
