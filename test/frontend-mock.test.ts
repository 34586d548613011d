// `custody mock` for browsers: CORS preflights for every operation of the spec, error envelopes whose
// message is the reason Prism found, and the /docs page with the spec it renders.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockHandle, startMock } from "../cli/mock.ts";
import { operationList } from "../generated/operations.ts";
import { violationsMessage } from "../web/mock-proxy.ts";

const ACCESS_HEADERS = {
  "ACCESS-API-KEY": "key_01J9ZP0A1B2C3D4E5F6G7H8J9K",
  "ACCESS-TIMESTAMP": "1736935500",
  "ACCESS-SIGN": "bm90IGNoZWNrZWQgYnkgcHJpc20=",
};
const ORIGIN = "http://localhost:5173";

describe("custody mock in front of Prism", () => {
  let mock: MockHandle;
  beforeAll(async () => {
    mock = await startMock({ port: 0 });
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it.each(operationList.map((op) => ({ id: op.operationId, method: op.method, path: op.path })))(
    "preflight for $id",
    async ({ method, path }) => {
      const res = await fetch(mock.url + path.replace(/\{[^}]+\}/g, "x1"), {
        method: "OPTIONS",
        headers: {
          origin: ORIGIN,
          "access-control-request-method": method,
          "access-control-request-headers":
            "access-api-key, access-sign, access-timestamp, idempotency-key, content-type",
        },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("access-control-allow-methods")?.split(", ")).toContain(method);
      expect(res.headers.get("access-control-allow-headers")).toMatch(
        /ACCESS-API-KEY, ACCESS-TIMESTAMP, ACCESS-SIGN, Idempotency-Key, idempotencyKey, content-type/,
      );
    },
  );

  it("answers with CORS headers and exposes x-request-id", async () => {
    const res = await fetch(`${mock.url}/api/v1/networks`, { headers: { ...ACCESS_HEADERS, origin: ORIGIN } });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-expose-headers")).toContain("x-request-id");
  });

  it("puts the reason of a 400 into the envelope's message", async () => {
    const res = await fetch(`${mock.url}/api/v1/wallets`, {
      method: "POST",
      headers: { ...ACCESS_HEADERS, "content-type": "application/json" },
      body: JSON.stringify({ nam: 1 }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { message: string };
    expect(body).toMatchObject({ success: false, code: 400, data: null });
    expect(body.message).toMatch(/body: Request body must have required property 'name'/);
  });

  it("answers an unknown path with the envelope, not Prism's problem document", async () => {
    const res = await fetch(`${mock.url}/api/v1/nothing-here`, { headers: ACCESS_HEADERS });
    expect(res.status).toBe(404);
    const body = (await res.json()) as { message: string };
    expect(body).toMatchObject({ success: false, code: 404, data: null });
    expect(body.message).toMatch(/nothing-here|route/i);
  });

  it("serves the API reference page and the spec it renders", async () => {
    const page = await fetch(`${mock.url}/docs/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("<title>Custodial Wallet Service API reference</title>");
    const spec = await fetch(`${mock.url}/docs/openapi.yaml`);
    expect(await spec.text()).toBe(readFileSync(new URL("../spec/openapi.yaml", import.meta.url), "utf8"));
    const bundle = await fetch(`${mock.url}/docs/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get("content-type")).toMatch(/javascript/);
    // Read whole: a body left unread holds its connection open after the mock stops.
    expect(await bundle.text()).toContain("SwaggerUIBundle");
  });
});

describe("violationsMessage", () => {
  it("joins errors with their location and ignores warnings", () => {
    const header = JSON.stringify([
      { location: ["request", "query", "limit"], severity: "Error", code: "type", message: "must be integer" },
      { location: ["request"], severity: "Warning", message: "ignored" },
    ]);
    expect(violationsMessage(header)).toBe("query.limit: must be integer");
    expect(violationsMessage("not json")).toBeUndefined();
    expect(violationsMessage(undefined)).toBeUndefined();
  });
});
