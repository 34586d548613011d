// What `custody mock` puts in front of Prism: CORS for the spec's operations (Prism runs with its own
// CORS off), the /docs page, and error answers whose envelope message says why the request was
// refused (Prism answers with the spec's example error and puts the reason only in sl-violations).
import { readFileSync } from "node:fs";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import { parse } from "yaml";
import { ERROR_CODES, errorEnvelope } from "../runtime/envelope.ts";
import { type CorsRoute, withCors } from "../runtime/server/cors.ts";
import { createDocsPage } from "./docs-page.ts";

const METHODS = ["get", "put", "post", "delete", "patch"];
const MAX_ERROR_BODY_BYTES = 64 * 1024;

export interface MockProxyOptions {
  /** Where Prism listens, e.g. http://127.0.0.1:41234 */
  upstream: string;
  specFile: string;
  corsOrigins?: readonly string[];
}

/** Method and path of every operation of an OpenAPI document. */
export function specRoutes(specFile: string): CorsRoute[] {
  const doc = parse(readFileSync(specFile, "utf8")) as { paths?: Record<string, Record<string, unknown>> };
  const routes: CorsRoute[] = [];
  for (const [path, item] of Object.entries(doc?.paths ?? {})) {
    for (const method of METHODS)
      if (item && typeof item === "object" && method in item) routes.push({ method: method.toUpperCase(), path });
  }
  return routes;
}

interface Violation {
  location?: string[];
  severity?: string;
  code?: string | number;
  message?: string;
}

/** One line from Prism's sl-violations header, or undefined when it has no errors. */
export function violationsMessage(header: string | undefined): string | undefined {
  if (!header) return undefined;
  let list: Violation[];
  try {
    list = JSON.parse(header) as Violation[];
  } catch {
    return undefined;
  }
  if (!Array.isArray(list)) return undefined;
  const parts = list
    .filter((v) => v && v.severity !== "Warning" && typeof v.message === "string")
    .map((v) => {
      if (v.code === 401)
        return "missing authentication: send ACCESS-API-KEY, ACCESS-TIMESTAMP and ACCESS-SIGN (the mock checks that they are present, not the signature)";
      const where = (v.location ?? []).slice(1).join(".");
      return where ? `${where}: ${v.message}` : (v.message as string);
    });
  return parts.length > 0 ? parts.join("; ") : undefined;
}

/** The error body to send: the envelope with the reason as its message. */
function rewriteError(
  status: number,
  contentType: string,
  body: Buffer,
  reason: string | undefined,
): Buffer | undefined {
  const code = ERROR_CODES[status as keyof typeof ERROR_CODES] ?? "error";
  if (contentType.includes("problem+json")) {
    // Prism's own errors (no such path or method, unresolvable example): the envelope, like the API.
    let detail = reason;
    try {
      const problem = JSON.parse(body.toString("utf8")) as { detail?: string; title?: string };
      detail ??= problem.detail ?? problem.title;
    } catch {
      // keep what we have
    }
    return Buffer.from(JSON.stringify(errorEnvelope(detail ?? http.STATUS_CODES[status] ?? "error", code)));
  }
  if (reason === undefined) return undefined;
  try {
    const envelope = JSON.parse(body.toString("utf8")) as Record<string, unknown>;
    if (envelope && typeof envelope === "object" && "message" in envelope)
      return Buffer.from(JSON.stringify({ ...envelope, message: reason }));
  } catch {
    // not JSON: fall through
  }
  return Buffer.from(JSON.stringify(errorEnvelope(reason, code)));
}

function forward(upstream: URL, req: IncomingMessage, res: ServerResponse): void {
  const headers = { ...req.headers, host: upstream.host };
  delete headers.origin; // CORS is ours; Prism's is off
  const out = http.request(
    { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
    (answer) => {
      const status = answer.statusCode ?? 502;
      const contentType = String(answer.headers["content-type"] ?? "");
      const passHeaders = { ...answer.headers };
      if (status < 400) {
        res.writeHead(status, passHeaders);
        answer.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      answer.on("data", (c: Buffer) => {
        size += c.length;
        if (size <= MAX_ERROR_BODY_BYTES) chunks.push(c);
      });
      answer.on("end", () => {
        const original = Buffer.concat(chunks);
        const rewritten = rewriteError(
          status,
          contentType,
          original,
          violationsMessage(answer.headers["sl-violations"] as string | undefined),
        );
        const body = rewritten ?? original;
        delete passHeaders["transfer-encoding"];
        if (rewritten) passHeaders["content-type"] = "application/json";
        passHeaders["content-length"] = String(body.length);
        res.writeHead(status, passHeaders);
        res.end(body);
      });
      answer.on("error", () => res.destroy());
    },
  );
  out.on("error", (error) => {
    if (res.headersSent) return res.destroy();
    const body = JSON.stringify(errorEnvelope(`the mock server is not reachable: ${error.message}`, "internal_error"));
    res.writeHead(502, { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) });
    res.end(body);
  });
  req.pipe(out);
}

export function createMockProxy(options: MockProxyOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const upstream = new URL(options.upstream);
  const docs = createDocsPage({ specFile: options.specFile });
  const api = withCors((req, res) => forward(upstream, req, res), specRoutes(options.specFile), {
    origins: options.corsOrigins,
  });
  return (req, res) => {
    if (!docs(req, res)) api(req, res);
  };
}
