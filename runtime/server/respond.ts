// Writing responses: always the envelope as JSON, always an x-request-id.
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { ERROR_CODES, errorEnvelope, UNAUTHORIZED_BODY } from "../envelope.ts";

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

// An incoming id is echoed only when it is short and harmless in logs and headers.
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's x-request-id when it is a single sane value, else a fresh UUID. */
export function resolveRequestId(req: IncomingMessage): string {
  const incoming = req.headers["x-request-id"];
  return typeof incoming === "string" && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

export interface SendOptions {
  headers?: Record<string, string>;
  /** Ask the client to close the connection (used when the request body was not read to its end). */
  close?: boolean;
}

// Set by sendJson itself; a caller's header of the same name is replaced, as setHeader would.
const OWN_HEADERS = new Set([
  "content-type",
  "content-length",
  "x-request-id",
  "cache-control",
  "x-content-type-options",
]);

/** Sends an already serialized JSON body. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: string,
  requestId: string,
  options: SendOptions = {},
): void {
  if (res.headersSent || res.destroyed) return;
  // One writeHead with a flat list: node then skips its per-response header map (setHeader per header).
  const headers: string[] = [];
  if (options.headers !== undefined) {
    for (const name in options.headers) {
      if (!Object.hasOwn(options.headers, name)) continue;
      const lower = name.toLowerCase();
      if (!OWN_HEADERS.has(lower) && !(options.close && lower === "connection"))
        headers.push(name, options.headers[name]);
    }
  }
  headers.push(
    "content-type",
    JSON_CONTENT_TYPE,
    "content-length",
    String(Buffer.byteLength(body, "utf8")),
    "x-request-id",
    requestId,
    // Envelopes describe one caller's money; no shared cache may keep them.
    "cache-control",
    "no-store",
    "x-content-type-options",
    "nosniff",
  );
  if (options.close) headers.push("connection", "close");
  res.writeHead(status, headers);
  res.end(body);
}

export function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  requestId: string,
  options: SendOptions & { code?: number | string } = {},
): void {
  const code = options.code ?? ERROR_CODES[status as keyof typeof ERROR_CODES] ?? "error";
  sendJson(res, status, JSON.stringify(errorEnvelope(message, code)), requestId, options);
}

/** The one 401 answer: identical bytes whichever check failed. */
export function sendUnauthorized(res: ServerResponse, requestId: string): void {
  sendJson(res, 401, UNAUTHORIZED_BODY, requestId);
}
