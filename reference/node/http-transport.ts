// JSON-RPC over HTTP: `POST {path}` with a JSON body. Order of checks: CORS preflight (never carries
// credentials), API key (401 before anything else is revealed), method, content type, size, then the
// JSON-RPC payload itself.
import type { IncomingMessage, ServerResponse } from "node:http";
import { presentedKey } from "./auth.ts";
import type { PayloadHandler } from "./dispatch.ts";
import { errorText, INVALID_REQUEST, NULL_ID, UNAUTHORIZED_RPC_BODY } from "./jsonrpc.ts";

export interface HttpTransportOptions {
  path: string;
  maxBodyBytes: number;
  checkKey: (key: string | undefined) => boolean;
  dispatcher: PayloadHandler;
}

const JSON_TYPES = new Set(["application/json", "application/json-rpc", "application/jsonrequest"]);
const BASE_HEADERS = { "content-type": "application/json; charset=utf-8", "access-control-allow-origin": "*" };
/** After answering 413, the rest of an oversized body is read and discarded up to this multiple of the limit. */
const DISCARD_FACTOR = 8;

/** Returns a handler that answers requests for `path` and returns false for any other path. */
export function createHttpTransport(
  options: HttpTransportOptions,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { path, maxBodyBytes, checkKey, dispatcher } = options;
  return (req, res) => {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const requestPath = q < 0 ? url : url.slice(0, q);
    if (requestPath !== path && requestPath !== `${path}/`) return false;
    if (req.method === "OPTIONS") {
      preflight(res);
      return true;
    }
    if (!checkKey(presentedKey(req))) {
      send(res, 401, UNAUTHORIZED_RPC_BODY, { "www-authenticate": "APIKEY" });
      return true;
    }
    if (req.method !== "POST") {
      send(res, 405, rpcError(`HTTP method ${req.method} is not allowed; use POST`), { allow: "POST, OPTIONS" });
      return true;
    }
    if (!isJsonContentType(req.headers["content-type"])) {
      send(res, 415, rpcError("content-type must be application/json"));
      return true;
    }
    const declared = Number(req.headers["content-length"] ?? 0);
    if (declared > maxBodyBytes) {
      rejectTooLarge(req, res, maxBodyBytes);
      return true;
    }
    readBody(req, res, maxBodyBytes, (text) => {
      dispatcher.handle(text, { transport: "http" }).then(
        (answer) => (answer === undefined ? send(res, 204, "") : send(res, 200, answer)),
        () => send(res, 500, errorText(NULL_ID, { code: -32603, message: "internal error" })),
      );
    });
    return true;
  };
}

/** Media type must be JSON; parameters such as charset are ignored. */
export function isJsonContentType(header: string | undefined): boolean {
  if (!header) return false;
  const semicolon = header.indexOf(";");
  const type = (semicolon < 0 ? header : header.slice(0, semicolon)).trim().toLowerCase();
  return JSON_TYPES.has(type) || (type.startsWith("application/") && type.endsWith("+json"));
}

function readBody(req: IncomingMessage, res: ServerResponse, limit: number, onBody: (text: string) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  req.on("data", (chunk: Buffer) => {
    if (over) return;
    size += chunk.length;
    if (size > limit) {
      over = true;
      chunks.length = 0;
      rejectTooLarge(req, res, limit);
      return;
    }
    chunks.push(chunk);
  });
  req.on("end", () => {
    if (!over) onBody(chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks, size).toString("utf8"));
  });
  req.on("error", () => {
    over = true; // client went away; nothing to answer
  });
}

// Answer 413 and close the connection; keep draining a moderately oversized body so the client can
// read the answer instead of seeing a reset, but never more than DISCARD_FACTOR × the limit.
function rejectTooLarge(req: IncomingMessage, res: ServerResponse, limit: number): void {
  if (!res.headersSent) send(res, 413, rpcError(`request body exceeds ${limit} bytes`), { connection: "close" });
  let discarded = 0;
  req.on("data", (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > limit * DISCARD_FACTOR) req.destroy();
  });
  req.resume();
}

function preflight(res: ServerResponse): void {
  res.writeHead(204, {
    "access-control-allow-origin": "*",
    "access-control-allow-methods": "POST, OPTIONS",
    "access-control-allow-headers": "authorization, content-type",
    "access-control-max-age": "600",
  });
  res.end();
}

function rpcError(message: string): string {
  return errorText(NULL_ID, { code: INVALID_REQUEST, message });
}

function send(res: ServerResponse, status: number, body: string, extra?: Record<string, string>): void {
  if (res.headersSent || res.destroyed) return;
  if (status === 204) {
    res.writeHead(204, { "access-control-allow-origin": "*", ...extra });
    res.end();
    return;
  }
  res.writeHead(status, { ...BASE_HEADERS, "content-length": Buffer.byteLength(body), ...extra });
  res.end(body);
}
