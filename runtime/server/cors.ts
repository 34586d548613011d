// CORS for the wallet API, so that a frontend's dev server (another origin) can call it from a
// browser (Fetch standard, "CORS protocol"). Preflights are answered only for the spec's operations;
// everything else falls through to the wrapped listener (which answers 404 for unknown routes).
// Authentication is by headers (HMAC), never by cookies, so credentials mode is not needed.
import type { IncomingMessage, ServerResponse } from "node:http";
import { createMatcher } from "./match.ts";

/** Request headers a browser may send: the HMAC headers, both spellings of the idempotency key, JSON. */
export const CORS_ALLOWED_HEADERS = [
  "ACCESS-API-KEY",
  "ACCESS-TIMESTAMP",
  "ACCESS-SIGN",
  "Idempotency-Key",
  "idempotencyKey",
  "content-type",
  "x-request-id",
];
/** Response headers a browser script may read beyond the CORS-safelisted ones. */
export const CORS_EXPOSED_HEADERS = ["x-request-id", "content-disposition"];
/** How long a browser may cache a preflight answer, in seconds. */
const PREFLIGHT_MAX_AGE = "600";

export interface CorsOptions {
  /** Allowed origins: ["*"] for any (the default), else exact origins such as http://localhost:5173. */
  origins?: readonly string[];
}

export interface CorsRoute {
  method: string;
  path: string;
}

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** Parses --cors-origin values: "*" or absolute http(s) origins without path; throws with the fix named. */
export function parseCorsOrigins(values: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of values.flatMap((v) => v.split(","))) {
    const value = raw.trim();
    if (value === "*") {
      out.push("*");
      continue;
    }
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new Error(`--cors-origin '${value}' is not an origin; use '*' or e.g. http://localhost:5173`);
    }
    if ((url.protocol !== "http:" && url.protocol !== "https:") || url.origin !== value.replace(/\/$/, "")) {
      throw new Error(
        `--cors-origin '${value}' is not an origin (scheme://host[:port], no path); e.g. http://localhost:5173`,
      );
    }
    out.push(url.origin);
  }
  if (out.length === 0) throw new Error("--cors-origin needs a value: '*' or an origin such as http://localhost:5173");
  return out;
}

/** The Access-Control-Allow-Origin value for this request's Origin, or undefined when it is not allowed. */
function allowedOrigin(origins: readonly string[], origin: string | undefined): string | undefined {
  if (origins.includes("*")) return "*";
  return origin !== undefined && origins.includes(origin) ? origin : undefined;
}

/**
 * Wraps `next` with CORS: every answer to an allowed Origin carries Access-Control-Allow-Origin and the
 * exposed headers; an OPTIONS preflight for a route of `routes` is answered 204 with the allowed
 * methods and headers. A preflight for an origin that is not allowed gets 204 without CORS headers, so
 * the browser refuses the call (and the server says nothing more).
 */
export function withCors(next: Listener, routes: readonly CorsRoute[], options: CorsOptions = {}): Listener {
  const origins = options.origins ?? ["*"];
  const byPath = new Map<string, Set<string>>();
  for (const r of routes) {
    const methods = byPath.get(r.path) ?? new Set<string>();
    methods.add(r.method.toUpperCase());
    byPath.set(r.path, methods);
  }
  // One matcher entry per path template: a preflight asks about a path, whatever method it names.
  const matcher = createMatcher([...byPath].map(([path, methods]) => ({ method: "OPTIONS", path, value: methods })));
  const exposed = CORS_EXPOSED_HEADERS.join(", ");
  const allowHeaders = CORS_ALLOWED_HEADERS.join(", ");

  return (req, res) => {
    const origin = typeof req.headers.origin === "string" ? req.headers.origin : undefined;
    const allow = allowedOrigin(origins, origin);
    const vary = origins.includes("*") ? undefined : "Origin";
    if (req.method === "OPTIONS" && req.headers["access-control-request-method"] !== undefined) {
      const path = (req.url ?? "").split("?")[0];
      const methods = matcher.match("OPTIONS", path)?.value;
      if (methods !== undefined) {
        const headers: Record<string, string> = { "content-length": "0" };
        if (vary) headers.vary = vary;
        if (allow !== undefined) {
          headers["access-control-allow-origin"] = allow;
          headers["access-control-allow-methods"] = [...methods].join(", ");
          headers["access-control-allow-headers"] = allowHeaders;
          headers["access-control-max-age"] = PREFLIGHT_MAX_AGE;
        }
        res.writeHead(204, headers);
        res.end();
        return;
      }
    }
    if (allow !== undefined) {
      res.setHeader("access-control-allow-origin", allow);
      res.setHeader("access-control-expose-headers", exposed);
    }
    if (vary) res.setHeader("vary", vary);
    next(req, res);
  };
}
