// The MCP server over Streamable HTTP: a client with the bearer token lists the tools; a request
// without it, from another Origin, or for another Host (DNS rebinding) is refused before MCP sees it.
import { request } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { loadToolTable } from "../generator/mcp/load.ts";
import { createMcpServer, type HttpServing, redactor, serveHttp } from "../runtime/mcp/index.ts";

let serving: HttpServing;

beforeAll(async () => {
  const { table } = await loadToolTable("spec/openapi.yaml");
  const invoke = async () => ({ data: { status: "ok" }, status: 200 });
  serving = await serveHttp({
    createServer: () => createMcpServer({ name: "t", version: "0", table, policy: {}, invoke, redact: redactor([]) }),
  });
});
afterAll(async () => serving?.close());

const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "0" } },
};

/** node:http, because fetch will not send a Host header of the caller's choosing. */
function post(headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      serving.url,
      {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.once("error", reject).end(JSON.stringify(INIT));
  });
}

it("binds 127.0.0.1 and serves a client that sends the token", async () => {
  expect(new URL(serving.url).hostname).toBe("127.0.0.1");
  const client = new Client({ name: "http-test", version: "0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(serving.url), {
      requestInit: { headers: { authorization: `Bearer ${serving.token}` } },
    }),
  );
  const { tools } = await client.listTools();
  expect(tools.length).toBeGreaterThan(10);
  expect((await client.callTool({ name: "getHealth", arguments: {} })).structuredContent).toEqual({
    data: { status: "ok" },
  });
  await client.close();
});

it("refuses a missing or wrong token, another Origin and another Host", async () => {
  const auth = { authorization: `Bearer ${serving.token}` };
  expect(await post({})).toBe(401);
  expect(await post({ authorization: "Bearer nope" })).toBe(401);
  expect(await post({ ...auth, origin: "https://evil.example" })).toBe(403);
  expect(await post({ ...auth, host: "evil.example" })).toBe(403);
  expect(await post(auth)).toBe(200);
});
