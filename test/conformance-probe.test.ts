// The bounded probes: a deadline over connect + headers + body, a body cap, no redirects, evidence
// with secrets redacted; WebSocket open and message deadlines.
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { BodyLimitReached } from "../conformance/checks/outcome.ts";
import { HttpProbe } from "../conformance/transport/probe.ts";
import { partialKeyId, REDACTED, Redactor } from "../conformance/transport/redact.ts";
import { tryOpenWs } from "../conformance/transport/ws-probe.ts";

const servers: Server[] = [];
const sockets = new Set<Socket>();
afterEach(async () => {
  // Upgraded sockets are not the server's to close any more; end them here.
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  server.on("connection", (socket: Socket) => sockets.add(socket));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function probe(timeoutMs = 500, redactor = new Redactor()): HttpProbe {
  return new HttpProbe({ timeoutMs, redactor, maxBodyBytes: 64 * 1024 });
}

describe("HttpProbe", () => {
  it("returns status, lower-case headers and the body", async () => {
    const url = await serve((_req, res) =>
      res.writeHead(201, { "X-Thing": "1", "content-type": "application/json" }).end('{"a":1}'),
    );
    const ex = await probe().send({ method: "GET", url });
    expect(ex.response.status).toBe(201);
    expect(ex.response.headers["x-thing"]).toBe("1");
    expect(ex.response.text).toBe('{"a":1}');
  });

  it("fails a server that never answers within the deadline, naming the phase", async () => {
    const url = await serve(() => undefined);
    const attempt = await probe(300).attempt({ method: "GET", url });
    expect(attempt.ok).toBe(false);
    if (!attempt.ok) {
      expect(attempt.reason).toBe("no response within 300 ms (waiting for the response headers)");
      expect(attempt.kind).toBe("timeout");
    }
  });

  it("fails a body that drips past the deadline", async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200);
      const t = setInterval(() => res.write("x"), 50);
      res.on("close", () => clearInterval(t));
    });
    const attempt = await probe(300).attempt({ method: "GET", url });
    expect(!attempt.ok && attempt.reason).toMatch(/^response body not complete within 300 ms \(received \d+ bytes\)$/);
  });

  it("aborts a body over the cap, declared or streamed", async () => {
    const declared = await serve((_req, res) =>
      res.writeHead(200, { "content-length": String(1 << 20) }).end(Buffer.alloc(1 << 20)),
    );
    const streamed = await serve((_req, res) => {
      res.writeHead(200);
      res.end(Buffer.alloc(200 * 1024));
    });
    const a = await probe().attempt({ method: "GET", url: declared });
    const b = await probe().attempt({ method: "GET", url: streamed });
    expect(!a.ok && a.reason).toMatch(/^response body exceeds 64 KiB/);
    expect(!b.ok && b.reason).toBe("response body exceeds 64 KiB");
  });

  it("throws a body over the cap from send as certify's limit (a skip naming --max-body-mib), never a failure", async () => {
    const url = await serve((_req, res) => res.writeHead(200).end(Buffer.alloc(100 * 1024, 0x20)));
    const err = await probe()
      .send({ method: "GET", url })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BodyLimitReached);
    expect((err as BodyLimitReached).kind).toBe("limit");
    expect((err as BodyLimitReached).needs).toBe("--max-body-mib");
    expect((err as Error).message).toMatch(
      /larger than certify's response body limit \(response body exceeds 64 KiB\); raise it with --max-body-mib/,
    );
  });

  it("redacts only the kept prefix of a large body, a secret crossing the cut or cut short included", () => {
    const redactor = new Redactor();
    const secret = "s3cr3t-value-0123456789";
    redactor.addSecret(secret);
    const crossing = `${"x".repeat(4090)}${secret}${"y".repeat(300_000)}`;
    const kept = redactor.bodyPrefix(crossing, 4096);
    expect(kept).not.toContain(secret.slice(0, 6));
    expect(kept.startsWith("x".repeat(4090) + REDACTED)).toBe(true);
    const cutShort = redactor.bodyPrefix(`{"items":[],"api_secret":"${"z".repeat(5000)}"}`, 4096);
    expect(cutShort).toMatch(new RegExp(`"api_secret":"${REDACTED.replace(/\*/g, "\\*")}`));
    expect(cutShort).not.toContain("zzzz");
  });

  it("never follows a redirect", async () => {
    let followed = 0;
    const target = await serve((_req, res) => {
      followed++;
      res.end("{}");
    });
    const url = await serve((_req, res) =>
      res.writeHead(307, { location: `${target}/elsewhere?api_key=leak-me-123456` }).end(),
    );
    const attempt = await probe().attempt({ method: "GET", url });
    expect(!attempt.ok && attempt.reason).toBe(
      `redirected to ${target}/elsewhere?api_key=${REDACTED} (redirects are never followed)`,
    );
    expect(followed).toBe(0);
  });

  it("reports a refused connection as unreachable and a reset as a target fault", async () => {
    const refused = await probe().attempt({ method: "GET", url: "http://127.0.0.1:9/" });
    expect(!refused.ok && refused.kind).toBe("unreachable");
    const url = await serve((req) => req.socket.destroy());
    const reset = await probe().attempt({ method: "GET", url });
    expect(!reset.ok && reset.reason).toBe("connection closed by the target before a response");
    expect(!reset.ok && reset.kind).toBe("reset");
  });

  it("redacts secrets in the evidence it captures", async () => {
    const redactor = new Redactor();
    redactor.addSecret("super-secret-value");
    redactor.addKeyId("ak_0123456789abcdef");
    const url = await serve((req, res) =>
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ echoed: req.headers, secret: "anything", note: "super-secret-value" })),
    );
    const ex = await probe(500, redactor).send({
      method: "POST",
      url: `${url}/rpc?api_key=rpc-key-abcdef`,
      headers: {
        "ACCESS-API-KEY": "ak_0123456789abcdef",
        "ACCESS-SIGN": "c2lnbmF0dXJl",
        authorization: "APIKEY rpc-key-abcdef",
      },
      body: '{"api_secret":"super-secret-value"}',
    });
    const text = JSON.stringify(ex.evidence);
    expect(text).not.toContain("super-secret-value");
    expect(text).not.toContain("c2lnbmF0dXJl");
    expect(text).not.toContain("rpc-key-abcdef");
    expect(text).not.toContain("ak_0123456789abcdef");
    expect(ex.evidence.request?.headers["ACCESS-API-KEY"]).toBe(partialKeyId("ak_0123456789abcdef"));
    expect(ex.evidence.request?.headers.authorization).toBe(`APIKEY ${REDACTED}`);
    expect(ex.evidence.request?.url).toContain(`api_key=${REDACTED}`);
  });
});

describe("WebSocket probe", () => {
  it("reports a refused upgrade with its status and body", async () => {
    const url = await serve((_req, res) => res.end());
    servers[servers.length - 1].on("upgrade", (_req, socket) =>
      socket.end("HTTP/1.1 401 Unauthorized\r\ncontent-length: 2\r\n\r\n{}"),
    );
    const attempt = await tryOpenWs({ url: url.replace("http", "ws"), timeoutMs: 500, redactor: new Redactor() });
    expect(attempt.ok).toBe(false);
    if (!attempt.ok) {
      expect(attempt.status).toBe(401);
      expect(attempt.reason).toBe("WebSocket upgrade refused with HTTP 401");
    }
  });

  it("bounds the open and each awaited message", async () => {
    const hanging = await serve((_req, res) => res.end());
    servers[servers.length - 1].on("upgrade", () => undefined); // accepts, never completes the handshake
    const attempt = await tryOpenWs({ url: hanging.replace("http", "ws"), timeoutMs: 200, redactor: new Redactor() });
    expect(!attempt.ok && attempt.reason).toBe("WebSocket not open within 200 ms");

    const url = await serve((_req, res) => res.end());
    const wss = new WebSocketServer({ server: servers[servers.length - 1] });
    wss.on("connection", () => undefined);
    const open = await tryOpenWs({ url: url.replace("http", "ws"), timeoutMs: 500, redactor: new Redactor() });
    expect(open.ok).toBe(true);
    if (open.ok) {
      open.connection.send({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber" });
      await expect(open.connection.next(150)).rejects.toThrow("no WebSocket message within 150 ms");
      open.connection.close();
    }
    wss.close();
  });
});
