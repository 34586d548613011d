// Streamable HTTP for the MCP server: 127.0.0.1 by default, a bearer token on every request (the
// caller prints the generated one, or is given one), a Host check and an Origin check against DNS
// rebinding (a web page must not reach a local server that can move money). One MCP session per
// client, each with its own server instance, so elicitation reaches the client that called.
import { randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";

export interface HttpServeOptions {
  host?: string;
  port?: number;
  /** The bearer token clients send; generated when absent (read it from the result). */
  token?: string;
  /** Origins a browser-based client may call from (none by default). */
  allowedOrigins?: readonly string[];
  createServer: () => Server;
}

export interface HttpServing {
  url: string;
  token: string;
  close(): Promise<void>;
}

const MAX_BODY = 1024 * 1024;

function sameToken(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function refuse(res: ServerResponse, status: number, message: string): void {
  res
    .writeHead(status, { "content-type": "application/json" })
    .end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new Error("request body over 1 MiB");
    chunks.push(chunk as Buffer);
  }
  return chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

/** Why the request is refused before MCP sees it, or undefined. */
function gate(
  req: IncomingMessage,
  token: string,
  hosts: ReadonlySet<string>,
  origins: ReadonlySet<string>,
): [number, string] | undefined {
  if (!hosts.has(req.headers.host ?? "")) return [403, "Host not allowed"];
  const origin = req.headers.origin;
  if (origin !== undefined && !origins.has(origin)) return [403, "Origin not allowed"];
  const auth = req.headers.authorization ?? "";
  if (!auth.startsWith("Bearer ") || !sameToken(auth.slice(7), token))
    return [401, "a bearer token is required (Authorization: Bearer <token>)"];
  if (new URL(req.url ?? "/", "http://x").pathname !== "/mcp") return [404, "the MCP endpoint is /mcp"];
  return undefined;
}

export async function serveHttp(options: HttpServeOptions): Promise<HttpServing> {
  const token = options.token ?? randomBytes(24).toString("base64url");
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const origins = new Set(options.allowedOrigins ?? []);
  let hosts = new Set<string>();
  const http = createServer((req, res) => {
    void handle(req, res).catch((error: Error) => res.headersSent || refuse(res, 400, error.message));
  });
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const refused = gate(req, token, hosts, origins);
    if (refused) return refuse(res, ...refused);
    const body = req.method === "POST" ? await readJson(req) : undefined;
    const id = req.headers["mcp-session-id"];
    const known = typeof id === "string" ? sessions.get(id) : undefined;
    if (known) return known.handleRequest(req, res, body);
    if (req.method !== "POST" || !isInitializeRequest(body))
      return refuse(res, 400, "no valid session: initialize first");
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (sid) => void sessions.set(sid, transport),
    });
    transport.onclose = () => transport.sessionId && sessions.delete(transport.sessionId);
    await options.createServer().connect(transport);
    await transport.handleRequest(req, res, body);
  }
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) =>
    http.once("error", reject).listen(options.port ?? 0, host, () => resolve()),
  );
  const port = (http.address() as AddressInfo).port;
  hosts = new Set([`${host}:${port}`, `127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
  const shown = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}/mcp`,
    token,
    close: async () => {
      await Promise.all([...sessions.values()].map((t) => t.close()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
