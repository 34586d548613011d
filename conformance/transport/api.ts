// Signed calls to the wallet API through the bounded probe. Signing uses runtime/http/hmac.ts, the same
// definition the spec carries in x-custody-hmac; callers may override any part to break it on purpose.
import { computeSignature, HMAC_HEADERS, unixSeconds } from "../../runtime/http/hmac.ts";
import type { Credentials } from "../run/config.ts";
import { joinUrl } from "../run/config.ts";
import type { OperationInfo } from "../run/operations.ts";
import { pathParams } from "../run/operations.ts";
import type { HttpExchange, HttpProbe } from "./probe.ts";

export interface ApiRequest {
  method: string;
  /** Path as signed and sent (starts with /api/v1), without query. */
  path: string;
  query?: Record<string, string>;
  /** A value is sent as JSON; a string is sent as is. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Omit to send the request unsigned. */
  credentials?: Credentials;
  timestamp?: string | number;
}

export class ApiClient {
  constructor(
    private readonly probe: HttpProbe,
    readonly baseUrl: string,
    private readonly signal?: AbortSignal,
  ) {}

  url(path: string, query?: Record<string, string>): string {
    const qs = query && Object.keys(query).length > 0 ? `?${new URLSearchParams(query).toString()}` : "";
    return joinUrl(this.baseUrl, path) + qs;
  }

  /** Sends a request, signed with `credentials` when given; transport failures throw CheckFailed. */
  send(req: ApiRequest): Promise<HttpExchange> {
    const body = encodeBody(req.body);
    const headers: Record<string, string> = {};
    if (body !== undefined) headers["content-type"] = "application/json";
    if (req.credentials)
      Object.assign(headers, authHeaders(req.credentials, req.method, req.path, body ?? "", req.timestamp));
    Object.assign(headers, req.headers ?? {});
    return this.probe.send({ method: req.method, url: this.url(req.path, req.query), headers, body }, this.signal);
  }

  /** Sends exactly these headers and body (the auth matrix builds them itself). */
  sendRaw(
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: string,
    query?: Record<string, string>,
  ): Promise<HttpExchange> {
    return this.probe.send({ method, url: this.url(path, query), headers, body }, this.signal);
  }
}

/** The three HMAC headers for a request. */
export function authHeaders(
  credentials: Credentials,
  method: string,
  path: string,
  body: string,
  timestamp: string | number = unixSeconds(),
): Record<string, string> {
  const ts = String(timestamp);
  return {
    [HMAC_HEADERS.key]: credentials.apiKey,
    [HMAC_HEADERS.timestamp]: ts,
    [HMAC_HEADERS.signature]: computeSignature(credentials.apiSecret, { method, path, timestamp: ts, body }),
  };
}

export function encodeBody(body: unknown): string | undefined {
  if (body === undefined) return undefined;
  return typeof body === "string" ? body : JSON.stringify(body);
}

/** Fills an operation's path template; unknown parameters get a placeholder that names them. */
export function fillPath(op: OperationInfo, values: Record<string, string | undefined>): string {
  let path = op.path;
  for (const name of pathParams(op)) {
    const value = values[name] ?? placeholderId(name);
    path = path.replace(`{${name}}`, encodeURIComponent(value));
  }
  return path;
}

/** An id no deployment has (so a request reaching a handler gets 404, never touches real data). */
export function placeholderId(name: string): string {
  return `certify-missing-${name.replace(/_id$/, "")}-0000`;
}
