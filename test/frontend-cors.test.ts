// CORS on the sandbox's wallet API: a preflight for every operation of the spec (and every sandbox
// action) is answered with the headers a browser needs; every answer to an allowed origin carries
// Access-Control-Allow-Origin and exposes x-request-id; a configured origin list is enforced.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationList } from "../generated/operations.ts";
import { SANDBOX_ADMIN_ROUTES } from "../reference/api/sandbox-admin.ts";
import { type Sandbox, startSandbox } from "../reference/sandbox.ts";
import { walletApiBaseUrl } from "../runtime/http/base-url.ts";
import { createTransport } from "../runtime/http/client.ts";
import { CORS_ALLOWED_HEADERS, parseCorsOrigins } from "../runtime/server/cors.ts";

const ORIGIN = "http://localhost:5173";
const concrete = (template: string) => template.replace(/\{[^}]+\}/g, "abc123");
const REQUEST_HEADERS = "access-api-key, access-timestamp, access-sign, idempotency-key, content-type";

function preflight(base: string, method: string, path: string, origin = ORIGIN) {
  return fetch(base + path, {
    method: "OPTIONS",
    headers: { origin, "access-control-request-method": method, "access-control-request-headers": REQUEST_HEADERS },
  });
}

describe("CORS on the sandbox wallet API (any origin, the default)", () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ env: {}, seed: "cors" });
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  const routes = [
    ...operationList.map((op) => ({ id: op.operationId, method: op.method, path: op.path })),
    ...SANDBOX_ADMIN_ROUTES.map((r) => ({ id: r.path, ...r })),
  ];

  it.each(routes)("preflight for $id ($method $path)", async ({ method, path }) => {
    const res = await preflight(sandbox.base_url, method, concrete(path));
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")?.split(", ")).toContain(method);
    const allowed = (res.headers.get("access-control-allow-headers") ?? "").toLowerCase().split(", ");
    for (const h of [
      "access-api-key",
      "access-timestamp",
      "access-sign",
      "idempotency-key",
      "idempotencykey",
      "content-type",
    ])
      expect(allowed).toContain(h);
    expect(Number(res.headers.get("access-control-max-age"))).toBeGreaterThan(0);
  });

  it.each(routes)("answer to $id carries the CORS headers and exposes x-request-id", async ({ method, path }) => {
    const res = await fetch(sandbox.base_url + concrete(path), {
      method,
      headers: { origin: ORIGIN, "content-type": "application/json" },
      ...(method === "GET" || method === "DELETE" ? {} : { body: "{}" }),
    });
    expect(res.status).toBe(401); // unsigned: the one 401, now readable by the page
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-expose-headers")?.split(", ")).toContain("x-request-id");
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  it("a preflight for a path that is no operation is not answered as one", async () => {
    const res = await preflight(sandbox.base_url, "GET", "/api/v1/nothing-here");
    expect(res.status).toBe(404);
    expect(CORS_ALLOWED_HEADERS).toContain("ACCESS-SIGN");
  });
});

describe("CORS with --cors-origin", () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({
      env: {},
      seed: "cors-list",
      corsOrigins: parseCorsOrigins(["http://localhost:5173,http://localhost:3000"]),
    });
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it("echoes an allowed origin with Vary: Origin", async () => {
    const res = await preflight(sandbox.base_url, "GET", "/api/v1/wallets", "http://localhost:3000");
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("http://localhost:3000");
    expect(res.headers.get("vary")).toBe("Origin");
    const get = await fetch(`${sandbox.base_url}/api/v1/wallets`, { headers: { origin: ORIGIN } });
    expect(get.headers.get("access-control-allow-origin")).toBe(ORIGIN);
  });

  it("gives another origin no CORS headers, so its browser refuses the call", async () => {
    const res = await preflight(sandbox.base_url, "GET", "/api/v1/wallets", "http://evil.example");
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(res.headers.get("access-control-allow-methods")).toBeNull();
    const get = await fetch(`${sandbox.base_url}/api/v1/wallets`, { headers: { origin: "http://evil.example" } });
    expect(get.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("--cors-origin values", () => {
  it("accepts * and origins, refuses paths and non-URLs with the fix named", () => {
    expect(parseCorsOrigins(["*"])).toEqual(["*"]);
    expect(parseCorsOrigins(["http://localhost:5173/"])).toEqual(["http://localhost:5173"]);
    expect(() => parseCorsOrigins(["localhost:5173"])).toThrow(/e\.g\. http:\/\/localhost:5173/);
    expect(() => parseCorsOrigins(["http://localhost:5173/app"])).toThrow(/no path/);
  });
});

describe("base URL with /api/v1", () => {
  it("is reduced to the base the operation paths are joined to", () => {
    expect(walletApiBaseUrl("http://127.0.0.1:8150/api/v1")).toBe("http://127.0.0.1:8150");
    expect(walletApiBaseUrl("http://127.0.0.1:8150/api/v1/")).toBe("http://127.0.0.1:8150");
    expect(walletApiBaseUrl("https://h.example/custody/api/v1")).toBe("https://h.example/custody");
    expect(walletApiBaseUrl("https://h.example/custody/")).toBe("https://h.example/custody");
    expect(createTransport({ baseUrl: "http://127.0.0.1:8150/api/v1" }).baseUrl).toBe("http://127.0.0.1:8150");
  });
});
