// One delivery attempt (reference/webhooks/http-post.ts): the body and its signed headers are made only
// once the connection is up, so a receiver that refuses connections costs no serializing or signing.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { postWebhook } from "../reference/webhooks/http-post.ts";

const servers: http.Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

async function receiver(): Promise<{ url: string; got: { headers: http.IncomingHttpHeaders; body: string }[] }> {
  const got: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      got.push({ headers: req.headers, body });
      res.end("ok");
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, got };
}

const options = { timeoutMs: 2_000, maxBodyBytes: 100 };

describe("postWebhook", () => {
  it("never makes the request for a refused connection", async () => {
    let made = 0;
    const result = await postWebhook({
      ...options,
      url: "http://127.0.0.1:1/hook",
      request: () => (made++, { body: "{}", headers: {} }),
    });
    expect(result.error).toBe("connection refused");
    expect(made).toBe(0);
  });

  it("makes it once, when connected, and sends its body and headers with the right content-length", async () => {
    const r = await receiver();
    let made = 0;
    const body = JSON.stringify({ note: "é" });
    const result = await postWebhook({
      ...options,
      url: r.url,
      request: () => (made++, { body, headers: { "x-signature": "sig", "content-type": "application/json" } }),
    });
    expect(result).toMatchObject({ status: 200, body: "ok" });
    expect(made).toBe(1);
    expect(r.got).toHaveLength(1);
    expect(r.got[0].body).toBe(body);
    expect(r.got[0].headers["x-signature"]).toBe("sig");
    expect(r.got[0].headers["content-length"]).toBe(String(Buffer.byteLength(body)));
  });

  it("fails the attempt with the reason when the request cannot be made (no throw, nothing sent)", async () => {
    const r = await receiver();
    const result = await postWebhook({
      ...options,
      url: r.url,
      request: () => {
        throw new Error("no signing key");
      },
    });
    expect(result.error).toBe("request not sent: no signing key");
    expect(r.got).toHaveLength(0);
  });
});
