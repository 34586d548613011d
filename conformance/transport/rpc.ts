// Node access (seed 4.1) over the bounded probes: JSON-RPC over HTTP and WebSocket with the key
// in the query (api_key) or in the authorization header (APIKEY <key>), or no key at all.
import { applyRpcAuth } from "../../runtime/jsonrpc/protocol.ts";
import { CheckFailed } from "../checks/outcome.ts";
import { joinUrl } from "../run/config.ts";
import type { HttpExchange, HttpProbe } from "./probe.ts";
import type { Redactor } from "./redact.ts";
import { openWs, tryOpenWs, type WsConnection, type WsOpenAttempt } from "./ws-probe.ts";

export type KeyPlacement = "query" | "header" | "none";

/** The exact 401 body the brief fixes for node access without a valid key. */
export const RPC_UNAUTHORIZED = { jsonrpc: "2.0", id: null, error: { code: -32001, message: "unauthorized" } } as const;

export const HEX_QUANTITY = /^0x(0|[1-9a-f][0-9a-f]*)$/;
export const HEX_DATA_32 = /^0x[0-9a-f]{64}$/;

export interface RpcTarget {
  rpcUrl: string;
  wsUrl: string;
  apiKey: string;
}

export class RpcClient {
  private nextId = 1;

  constructor(
    readonly target: RpcTarget,
    private readonly http: HttpProbe,
    private readonly redactor: Redactor,
    private readonly timeoutMs: number,
    private readonly signal?: AbortSignal,
  ) {}

  // Where the key goes is runtime/jsonrpc/protocol.ts's rule, the one every client follows.
  httpUrl(placement: KeyPlacement, key = this.target.apiKey): string {
    const url = joinUrl(this.target.rpcUrl, "/rpc");
    return placement === "query" ? applyRpcAuth(url, key, "query").url : url;
  }

  wsUrl(placement: KeyPlacement, key = this.target.apiKey): string {
    return placement === "query" ? applyRpcAuth(this.target.wsUrl, key, "query").url : this.target.wsUrl;
  }

  keyHeaders(placement: KeyPlacement, key = this.target.apiKey): Record<string, string> {
    return placement === "header" ? applyRpcAuth("", key, "header").headers : {};
  }

  /** POSTs a raw payload (a value is serialized) to {rpc_url}/rpc. */
  post(payload: unknown, placement: KeyPlacement = "query", key?: string): Promise<HttpExchange> {
    const body = typeof payload === "string" ? payload : JSON.stringify(payload);
    return this.http.send(
      {
        method: "POST",
        url: this.httpUrl(placement, key),
        headers: { "content-type": "application/json", ...this.keyHeaders(placement, key) },
        body,
      },
      this.signal,
    );
  }

  /** One call over HTTP; returns the parsed response object (not just the result). */
  async callHttp(
    method: string,
    params: unknown[] = [],
    placement: KeyPlacement = "query",
  ): Promise<{ ex: HttpExchange; response: RpcResponse }> {
    const id = this.nextId++;
    const ex = await this.post({ jsonrpc: "2.0", id, method, params }, placement);
    const response = parseRpcResponse(ex);
    return { ex, response };
  }

  /** The result of a call over HTTP, failing on an error object or a missing result. */
  async resultHttp(method: string, params: unknown[] = [], placement: KeyPlacement = "query"): Promise<unknown> {
    const { ex, response } = await this.callHttp(method, params, placement);
    if (ex.response.status !== 200) throw new CheckFailed(`${method}: HTTP ${ex.response.status}`, ex.evidence);
    if (response.error)
      throw new CheckFailed(`${method}: JSON-RPC error ${JSON.stringify(response.error)}`, ex.evidence);
    if (!("result" in response)) throw new CheckFailed(`${method}: response without result`, ex.evidence);
    return response.result;
  }

  openWs(placement: KeyPlacement = "query", onOpen?: Parameters<typeof openWs>[0]["onOpen"]): Promise<WsConnection> {
    return openWs({
      url: this.wsUrl(placement),
      headers: this.keyHeaders(placement),
      timeoutMs: this.timeoutMs,
      redactor: this.redactor,
      signal: this.signal,
      onOpen,
    });
  }

  tryOpenWs(placement: KeyPlacement, key?: string): Promise<WsOpenAttempt> {
    return tryOpenWs({
      url: this.wsUrl(placement, key),
      headers: this.keyHeaders(placement, key),
      timeoutMs: this.timeoutMs,
      redactor: this.redactor,
      signal: this.signal,
    });
  }

  /** Sends one request over an open socket and returns the response with the same id. */
  async callWs(
    conn: WsConnection,
    method: string,
    params: unknown[] = [],
    id: unknown = this.nextId++,
  ): Promise<RpcResponse> {
    conn.send({ jsonrpc: "2.0", id, method, params });
    return this.awaitId(conn, id);
  }

  /** Waits for the response carrying `id`, skipping subscription notifications. */
  async awaitId(conn: WsConnection, id: unknown): Promise<RpcResponse> {
    return (await this.awaitIds(conn, [id]))[0]!;
  }

  /**
   * Waits for the responses carrying each of `ids`, in whatever order they arrive (a server may answer
   * requests sent together out of order), skipping subscription notifications; answers in `ids` order.
   */
  async awaitIds(conn: WsConnection, ids: readonly unknown[]): Promise<RpcResponse[]> {
    const deadline = Date.now() + this.timeoutMs;
    const found: (RpcResponse | undefined)[] = ids.map(() => undefined);
    while (found.some((r) => r === undefined)) {
      const remaining = deadline - Date.now();
      const missing = ids.filter((_, i) => found[i] === undefined);
      const late = () =>
        new CheckFailed(
          `no answer with id ${missing.map((id) => JSON.stringify(id)).join(", ")} within ${this.timeoutMs} ms`,
          conn.evidence(),
        );
      if (remaining <= 0) throw late();
      const text = await conn.next(remaining).catch((err: unknown) => {
        throw err instanceof CheckFailed && err.message.startsWith("no WebSocket message") ? late() : err;
      });
      const parsed = parseRpcText(text);
      if (!parsed)
        throw new CheckFailed(`WebSocket message is not a JSON-RPC response: ${text.slice(0, 120)}`, conn.evidence());
      if (Array.isArray(parsed) || !("id" in parsed)) continue;
      const at = ids.findIndex((id, i) => found[i] === undefined && sameId(parsed.id, id));
      if (at >= 0) found[at] = parsed;
    }
    return found as RpcResponse[];
  }
}

export interface RpcResponse {
  jsonrpc?: unknown;
  id?: unknown;
  result?: unknown;
  error?: { code?: unknown; message?: unknown; data?: unknown };
}

function sameId(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function parseRpcText(text: string): RpcResponse | RpcResponse[] | undefined {
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === "object" && v !== null ? (v as RpcResponse | RpcResponse[]) : undefined;
  } catch {
    return undefined;
  }
}

/** Parses an HTTP JSON-RPC answer as one response object; fails with the reason otherwise. */
export function parseRpcResponse(ex: HttpExchange): RpcResponse {
  const parsed = parseRpcText(ex.response.text);
  if (parsed === undefined || Array.isArray(parsed)) {
    const preview = ex.response.text.slice(0, 120).replace(/\s+/g, " ") || "(empty)";
    throw new CheckFailed(
      `node access answered HTTP ${ex.response.status} (${ex.response.headers["content-type"] ?? "no content-type"}) with no JSON-RPC response object: ${preview}`,
      ex.evidence,
    );
  }
  return parsed;
}

export function parseRpcBatch(ex: HttpExchange): RpcResponse[] {
  const parsed = parseRpcText(ex.response.text);
  if (!Array.isArray(parsed)) {
    throw new CheckFailed(
      `expected a JSON array of responses to the batch, got: ${ex.response.text.slice(0, 120) || "(empty)"}`,
      ex.evidence,
    );
  }
  return parsed;
}
