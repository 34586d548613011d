// `custody mock` serves spec/openapi.yaml with Prism on loopback: no ACCESS headers → 401 with the
// contract's envelope, all three headers → 200 with the operation's example.
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { DEFAULT_SPEC, freePort, type MockHandle, parseMockArgs, run, startMock, startPrism } from "../cli/mock.ts";
import { UsageError } from "../cli/usage-error.ts";

const spec: any = parse(readFileSync(new URL("../spec/openapi.yaml", import.meta.url), "utf8"), { maxAliasCount: -1 });
const OVERVIEW = "/api/v1/wallets/wal_01J9ZQ5A1B2C3D4E5F6G7H8J9K/overview";
// Prism checks that the headers are present; it cannot check the HMAC, so any values pass.
const ACCESS_HEADERS = {
  "ACCESS-API-KEY": "key_01J9ZP0A1B2C3D4E5F6G7H8J9K",
  "ACCESS-TIMESTAMP": "1736935500",
  "ACCESS-SIGN": "bm90IGNoZWNrZWQgYnkgcHJpc20=",
};

describe("custody mock (Prism)", () => {
  let mock: MockHandle;

  beforeAll(async () => {
    mock = await startMock({ port: 0 });
  });

  afterAll(async () => {
    await mock?.stop();
  });

  it("listens on loopback", () => {
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("answers a request without the ACCESS headers with 401 and the unauthorized envelope", async () => {
    const res = await fetch(mock.url + OVERVIEW);
    expect(res.status).toBe(401);
    // The contract's envelope (Prism's 401 example), with the reason Prism found as its message.
    const body = (await res.json()) as { message: string };
    expect(body).toMatchObject({ success: false, code: "unauthorized", data: null });
    expect(body.message).toMatch(/missing authentication: send ACCESS-API-KEY, ACCESS-TIMESTAMP and ACCESS-SIGN/);
  });

  it("answers a request with all three ACCESS headers with 200 and the example", async () => {
    const res = await fetch(mock.url + OVERVIEW, { headers: ACCESS_HEADERS });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(spec.components.examples.WalletBalanceListResponse.value);
  });

  it("still refuses a request that carries only two of the headers", async () => {
    const { "ACCESS-SIGN": _omitted, ...two } = ACCESS_HEADERS;
    const res = await fetch(mock.url + OVERVIEW, { headers: two });
    expect(res.status).toBe(401);
  });
});

describe("custody mock arguments", () => {
  it("parses port, host and spec", () => {
    const opts = parseMockArgs(["--port", "4011", "--host=127.0.0.1", "--spec", "spec/openapi.yaml"]);
    expect(opts).toMatchObject({ port: 4011, host: "127.0.0.1", help: false });
    expect(opts.spec).toMatch(/spec\/openapi\.yaml$/);
  });

  it("rejects bad flags with a UsageError", async () => {
    await expect(run(["--port", "http"])).rejects.toBeInstanceOf(UsageError);
    await expect(run(["--port", "70000"])).rejects.toBeInstanceOf(UsageError);
    await expect(run(["--bogus"])).rejects.toBeInstanceOf(UsageError);
    await expect(run(["--host"])).rejects.toBeInstanceOf(UsageError);
    await expect(run(["--spec", "no/such/file.yaml"])).rejects.toThrow(/spec not found/);
  });
});

describe("Prism's own port", () => {
  it("is picked again when another process took it before Prism could bind it", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const busy = (taken.address() as { port: number }).port;
    const picks = [busy];
    try {
      const prism = await startPrism(DEFAULT_SPEC, async () => picks.shift() ?? (await freePort()));
      try {
        expect(prism.port).not.toBe(busy);
        const res = await fetch(`http://127.0.0.1:${prism.port}${OVERVIEW}`);
        await res.text(); // read, so that no connection stays open
        expect(res.status).toBe(401);
      } finally {
        await prism.stop();
      }
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
