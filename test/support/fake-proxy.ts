// A rewriting proxy for fault injection in front of a real deployment (or in front of the runner's
// webhook receiver): each fault is a small function over one request or one response.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ProxiedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface ProxiedResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface ProxyHooks {
  /** Rewrite the request on its way in; return null to answer 200 without forwarding (drop it). */
  request?: (req: ProxiedRequest) => ProxiedRequest | null;
  /** Rewrite the response on its way out. */
  response?: (req: ProxiedRequest, res: ProxiedResponse) => ProxiedResponse;
}

export interface FaultProxy {
  url: string;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(["host", "connection", "content-length", "transfer-encoding", "keep-alive"]);

export async function startFaultProxy(target: string, hooks: ProxyHooks, port = 0): Promise<FaultProxy> {
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let request: ProxiedRequest | null = {
      method: req.method ?? "GET",
      path: req.url ?? "/",
      headers: plain(req.headers),
      body: Buffer.concat(chunks).toString("utf8"),
    };
    request = hooks.request ? hooks.request(request) : request;
    if (request === null) {
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
      return;
    }
    try {
      const upstream = await fetch(`${target}${request.path}`, {
        method: request.method,
        headers: request.headers,
        body: request.method === "GET" || request.method === "HEAD" ? undefined : request.body,
        redirect: "manual",
      });
      let response: ProxiedResponse = { status: upstream.status, headers: {}, body: await upstream.text() };
      upstream.headers.forEach((value, name) => {
        if (!HOP_BY_HOP.has(name) && name !== "content-encoding") response.headers[name] = value;
      });
      if (hooks.response) response = hooks.response(request, response);
      res.writeHead(response.status, response.headers).end(response.body);
    } catch {
      res.writeHead(502).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

function plain(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

/** Rewrites the `data` of an envelope response when `path` matches. */
export function rewriteData(
  match: (req: ProxiedRequest) => boolean,
  change: (data: Record<string, unknown>) => void,
): ProxyHooks["response"] {
  return (req, res) => {
    if (!match(req) || res.status >= 300) return res;
    try {
      const body = JSON.parse(res.body) as { data?: Record<string, unknown> };
      if (body.data && typeof body.data === "object") change(body.data);
      return { ...res, body: JSON.stringify(body) };
    } catch {
      return res;
    }
  };
}
