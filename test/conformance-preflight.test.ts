// The preflight: each class of wrong setting stops the run with exit 2 and one or two lines naming
// the setting, before any check runs; a target that never answers is unreachable within --timeout-ms.
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../cli/certify.ts";
import { type FakeTarget, startFakeTarget } from "./support/fake-target.ts";

let t: FakeTarget;
const servers: Server[] = [];
beforeAll(async () => {
  t = await startFakeTarget();
});
afterAll(async () => {
  await t.close();
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

async function serve(handler: Parameters<typeof createServer>[1] | "silent"): Promise<string> {
  const server = handler === "silent" ? createServer() : createServer(handler);
  const sockets: Socket[] = [];
  if (handler === "silent") server.on("connection", (s) => sockets.push(s)); // accepts, never answers
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  servers.push(server);
  server.on("close", () => sockets.forEach((s) => s.destroy()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function certify(
  over: Record<string, string>,
  extra: string[] = [],
): Promise<{ code: number; out: string; err: string }> {
  const flags = {
    "base-url": t.baseUrl,
    "rpc-url": t.rpcUrl,
    "ws-url": t.wsUrl,
    "api-key": t.owner.apiKey,
    "api-secret": t.owner.apiSecret,
    "rpc-api-key": t.rpcApiKey,
    ...over,
  };
  const argv = [...Object.entries(flags).flatMap(([k, v]) => [`--${k}`, v]), "--no-color", ...extra];
  let out = "";
  let err = "";
  const code = await run(argv, {
    env: {},
    operations: t.operations,
    stdout: (s) => (out += s),
    stderr: (s) => (err += s),
  });
  return { code, out, err };
}

function expectStopped(r: { code: number; out: string; err: string }, ...patterns: RegExp[]): void {
  expect(r.code).toBe(2);
  expect(r.out).toBe(""); // no check ran
  const lines = r.err.trim().split("\n");
  expect(lines.length).toBeLessThanOrEqual(2);
  for (const p of patterns) expect(r.err).toMatch(p);
}

describe("preflight", () => {
  it("unreachable: nothing listens at the base URL", async () => {
    const url = await serve(() => undefined);
    const closed = servers.pop()!;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expectStopped(
      await certify({ "base-url": url }),
      /target unreachable: http:\/\/127\.0\.0\.1:\d+/,
      /check --base-url/,
    );
  });

  it("unreachable: a target that accepts and never answers, within --timeout-ms, not check by check", async () => {
    const url = await serve("silent");
    expectStopped(
      await certify({ "base-url": url, "timeout-ms": "400" }),
      /target unreachable/,
      /400 ms/,
      /--timeout-ms/,
    );
  });

  it("not the service: a web server answering HTML", async () => {
    const url = await serve((_req, res) =>
      res.writeHead(200, { "content-type": "text/html" }).end("<html><body>hello</body></html>"),
    );
    expectStopped(
      await certify({ "base-url": url }),
      /answers \(HTTP 200, text\/html\) but not with the service's JSON envelope/,
      /check --base-url/,
    );
  });

  it("credentials refused: a wrong --api-secret", async () => {
    expectStopped(
      await certify({ "api-secret": "not-the-secret" }),
      /refused the credentials \(HTTP 401/,
      /check --api-key and --api-secret/,
    );
  });

  it("credentials refused with the clock off: shows the server's Date against ours", async () => {
    const url = await serve((_req, res) =>
      res
        .writeHead(401, { "content-type": "application/json", date: "Sat, 01 Jan 2000 00:00:00 GMT" })
        .end('{"success":false,"message":"invalid api signature","code":"unauthorized","data":null}'),
    );
    const r = await certify({ "base-url": url });
    expectStopped(
      r,
      /check --api-key and --api-secret/,
      /the clock: the server's Date is 2000-01-01T00:00:00\.000Z, ours is/,
    );
  });

  it("workspace refused: a --workspace-id that is not the key's", async () => {
    expectStopped(
      await certify({ "workspace-id": "3f1c2a9e-7b4d-4e0a-9c61-5d2b8f0e4a17" }),
      /refused workspace 3f1c2a9e-7b4d-4e0a-9c61-5d2b8f0e4a17 to this key \(HTTP 40[34] on GET \/api\/v1\/workspaces\/3f1c2a9e-7b4d-4e0a-9c61-5d2b8f0e4a17\/webhook-verification-key, operation 8\): check --workspace-id/,
    );
    const right = await certify({ "workspace-id": t.workspaceId }, ["--only", "envelope"]);
    expect(right.code).not.toBe(2);
  });

  it("RPC key refused: a wrong --rpc-api-key", async () => {
    expectStopped(
      await certify({ "rpc-api-key": "wrong-rpc-key" }),
      /node access refused the key \(HTTP 401/,
      /check --rpc-api-key/,
    );
  });

  it("WebSocket refused: a --ws-url where nothing upgrades", async () => {
    expectStopped(
      await certify({ "ws-url": t.wsUrl.replace(/\/ws$/, "/nowhere") }),
      /WebSocket refused/,
      /check --ws-url/,
    );
  });

  it("a target that signs differently (only uppercase hex) is told its credentials are refused, not 100 failures", async () => {
    const strict = await startFakeTarget({ faults: ["uppercase-only-signature"] });
    try {
      let err = "";
      const code = await run(
        [
          "--base-url",
          strict.baseUrl,
          "--rpc-url",
          strict.rpcUrl,
          "--api-key",
          strict.owner.apiKey,
          `--api-secret=${strict.owner.apiSecret}`,
          "--rpc-api-key",
          strict.rpcApiKey,
        ],
        { env: {}, operations: strict.operations, stdout: () => undefined, stderr: (s) => (err += s) },
      );
      expect(code).toBe(2);
      expect(err).toMatch(/refused the credentials/);
    } finally {
      await strict.close();
    }
  });

  it("secrets never reach the preflight's lines", async () => {
    const r = await certify({ "rpc-api-key": "wrong-rpc-key-secret-value" });
    expect(r.err).not.toContain("wrong-rpc-key-secret-value");
  });
});
