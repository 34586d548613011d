// Serving the few static files of the docs and console pages: from memory after the first read, with
// a content type, no caching across sandbox restarts, and a Content-Security-Policy that allows only
// this server's own scripts (the pages load nothing from elsewhere, so they work offline).
import { readFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import path from "node:path";

const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".yaml": "application/yaml; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".png": "image/png",
};

const CSP =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'";

const cache = new Map<string, Buffer>();

export function readAsset(file: string): Buffer {
  let bytes = cache.get(file);
  if (bytes === undefined) {
    bytes = readFileSync(file);
    cache.set(file, bytes);
  }
  return bytes;
}

/** Sends a file (or given bytes) with its content type; HEAD gets the headers only. */
export function sendAsset(
  res: ServerResponse,
  method: string | undefined,
  file: string,
  bytes: Buffer = readAsset(file),
  cacheControl = "no-cache",
): void {
  res.writeHead(200, {
    "content-type": TYPES[path.extname(file)] ?? "application/octet-stream",
    "content-length": String(bytes.length),
    "cache-control": cacheControl,
    "x-content-type-options": "nosniff",
    "content-security-policy": CSP,
    "referrer-policy": "no-referrer",
  });
  res.end(method === "HEAD" ? undefined : bytes);
}

export function redirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { location, "content-length": "0" });
  res.end();
}
