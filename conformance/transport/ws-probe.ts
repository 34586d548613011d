// The bounded WebSocket client the rpc checks use: an open deadline, a deadline per awaited message,
// a payload cap, no redirects, and a clear reason when the socket closes or the upgrade is refused.

import type { IncomingMessage } from "node:http";
import WebSocket from "ws";
import { CheckFailed } from "../checks/outcome.ts";
import type { Evidence, RequestEvidence } from "../checks/types.ts";
import { DEFAULT_MAX_BODY_BYTES, flattenHeaders, formatBytes, truncate } from "./probe.ts";
import type { Redactor } from "./redact.ts";

export interface WsOpenOptions {
  url: string;
  headers?: Record<string, string>;
  timeoutMs: number;
  redactor: Redactor;
  signal?: AbortSignal;
  maxPayloadBytes?: number;
  /** Called synchronously inside the open event (to prove a request sent at once is answered). */
  onOpen?: (socket: WebSocket) => void;
}

export type WsOpenAttempt =
  | { ok: true; connection: WsConnection }
  | { ok: false; reason: string; status?: number; body?: string; evidence: Evidence };

/** Opens a socket; a refused upgrade, a timeout or an error is returned as a value. */
export function tryOpenWs(options: WsOpenOptions): Promise<WsOpenAttempt> {
  const requestEvidence: RequestEvidence = {
    method: "GET (websocket upgrade)",
    url: options.redactor.url(options.url),
    headers: options.redactor.headers(options.headers ?? {}),
  };
  const maxPayload = options.maxPayloadBytes ?? DEFAULT_MAX_BODY_BYTES;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (value: WsOpenAttempt) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      resolve(value);
    };
    const refuse = (reason: string, status?: number, body?: string, headers?: Record<string, string>) => {
      socket.terminate();
      finish(refusal(options.redactor, requestEvidence, reason, status, body, headers));
    };
    let socket: WebSocket;
    try {
      socket = new WebSocket(options.url, {
        headers: options.headers,
        maxPayload,
        followRedirects: false,
        handshakeTimeout: options.timeoutMs,
        perMessageDeflate: false,
      });
    } catch (err) {
      resolve({
        ok: false,
        reason: `invalid WebSocket URL: ${(err as Error).message}`,
        evidence: { request: requestEvidence },
      });
      return;
    }
    const timer = setTimeout(() => refuse(`WebSocket not open within ${options.timeoutMs} ms`), options.timeoutMs);
    const onAbort = () => refuse("cancelled: the check's time limit was reached");
    options.signal?.addEventListener("abort", onAbort, { once: true });
    const connection = new WsConnection(socket, options.redactor, requestEvidence, maxPayload);
    socket.on("open", () => {
      options.onOpen?.(socket);
      finish({ ok: true, connection });
    });
    socket.on("unexpected-response", (_req, res: IncomingMessage) => refuseUpgrade(res, options, refuse));
    socket.on("error", (err: Error & { code?: string }) => {
      if (!settled) refuse(`WebSocket failed to open: ${describeWsError(err)}`);
    });
    socket.on("close", (code) => {
      if (!settled) refuse(`WebSocket closed during the handshake (code ${code})`);
    });
  });
}

/** The failed attempt: the reason, and evidence of the request and of what answered, redacted. */
function refusal(
  redactor: Redactor,
  requestEvidence: RequestEvidence,
  reason: string,
  status?: number,
  body?: string,
  headers?: Record<string, string>,
): WsOpenAttempt {
  return {
    ok: false,
    reason,
    status,
    body,
    evidence: {
      request: requestEvidence,
      response: {
        status,
        headers: headers ? redactor.headers(headers) : undefined,
        body: body === undefined ? undefined : truncate(redactor.body(body)),
        error: reason,
      },
    },
  };
}

/** An HTTP answer instead of the upgrade: a redirect is refused at once, else after reading a bounded body. */
function refuseUpgrade(
  res: IncomingMessage,
  options: WsOpenOptions,
  refuse: (reason: string, status?: number, body?: string, headers?: Record<string, string>) => void,
): void {
  const status = res.statusCode ?? 0;
  const headers = flattenHeaders(res.headers as Record<string, string | string[] | undefined>);
  if (status >= 300 && status < 400) {
    refuse(
      `WebSocket upgrade redirected to ${options.redactor.url(headers.location ?? "(no location)")} (redirects are never followed)`,
      status,
      undefined,
      headers,
    );
    return;
  }
  readBounded(res, 64 * 1024, Math.min(options.timeoutMs, 2_000)).then((body) =>
    refuse(`WebSocket upgrade refused with HTTP ${status}`, status, body, headers),
  );
}

/** Opens a socket or throws CheckFailed with the reason and evidence. */
export async function openWs(options: WsOpenOptions): Promise<WsConnection> {
  const attempt = await tryOpenWs(options);
  if (!attempt.ok) throw new CheckFailed(attempt.reason, attempt.evidence);
  return attempt.connection;
}

export class WsConnection {
  private readonly queue: string[] = [];
  private waiter: ((message: string | Error) => void) | undefined;
  private closedReason: string | undefined;
  /** Every message sent and received, for evidence. */
  readonly transcript: Array<{ direction: "sent" | "received"; data: string }> = [];

  constructor(
    readonly socket: WebSocket,
    private readonly redactor: Redactor,
    private readonly requestEvidence: RequestEvidence,
    private readonly maxPayload: number,
  ) {
    socket.on("message", (data: WebSocket.RawData) => {
      const text = Buffer.isBuffer(data) ? data.toString("utf8") : Buffer.concat(data as Buffer[]).toString("utf8");
      this.transcript.push({ direction: "received", data: text });
      if (this.waiter) {
        const w = this.waiter;
        this.waiter = undefined;
        w(text);
      } else this.queue.push(text);
    });
    socket.on("close", (code: number) => {
      this.closedReason =
        code === 1009
          ? `WebSocket message exceeds ${formatBytes(this.maxPayload)}`
          : `WebSocket closed by the target (code ${code}) before an answer`;
      this.waiter?.(new Error(this.closedReason));
      this.waiter = undefined;
    });
    socket.on("error", (err: Error & { code?: string }) => {
      this.closedReason ??= `WebSocket error: ${describeWsError(err)}`;
    });
  }

  /** Sends a JSON value or a raw string. */
  send(message: unknown): void {
    const text = typeof message === "string" ? message : JSON.stringify(message);
    this.transcript.push({ direction: "sent", data: text });
    if (this.socket.readyState !== WebSocket.OPEN) {
      throw new CheckFailed(this.closedReason ?? "WebSocket is not open", this.evidence());
    }
    this.socket.send(text);
  }

  /** The next message, or CheckFailed after `timeoutMs` / on close. */
  next(timeoutMs: number): Promise<string> {
    const queued = this.queue.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (this.closedReason) return Promise.reject(new CheckFailed(this.closedReason, this.evidence()));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = undefined;
        reject(new CheckFailed(`no WebSocket message within ${timeoutMs} ms`, this.evidence()));
      }, timeoutMs);
      this.waiter = (message) => {
        clearTimeout(timer);
        if (message instanceof Error) reject(new CheckFailed(message.message, this.evidence()));
        else resolve(message);
      };
    });
  }

  /** True when no message arrives within `ms` (used to show notifications get no answer). */
  async silentFor(ms: number): Promise<boolean> {
    try {
      await this.next(ms);
      return false;
    } catch (err) {
      if (err instanceof CheckFailed && err.message.startsWith("no WebSocket message")) return true;
      throw err;
    }
  }

  evidence(): Evidence {
    return {
      request: this.requestEvidence,
      details: {
        transcript: this.transcript.slice(-10).map((m) => ({ ...m, data: truncate(this.redactor.body(m.data)) })),
      },
    };
  }

  close(): void {
    if (this.socket.readyState === WebSocket.OPEN || this.socket.readyState === WebSocket.CONNECTING)
      this.socket.terminate();
  }
}

function describeWsError(err: Error & { code?: string }): string {
  switch (err.code) {
    case "ECONNREFUSED":
      return "connection refused";
    case "ECONNRESET":
      return "connection reset by the target";
    case "ENOTFOUND":
      return "host not found";
    case "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH":
      return "message too large";
  }
  return err.message;
}

/** Reads at most `max` bytes of a refused upgrade's body, for `timeoutMs` at most. */
function readBounded(res: IncomingMessage, max: number, timeoutMs: number): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      clearTimeout(timer);
      res.destroy();
      resolve(Buffer.concat(chunks).toString("utf8"));
    };
    const timer = setTimeout(done, timeoutMs);
    res.on("data", (chunk: Buffer) => {
      if (size + chunk.length > max) {
        chunks.push(chunk.subarray(0, max - size));
        size = max;
        done();
        return;
      }
      size += chunk.length;
      chunks.push(chunk);
    });
    res.on("end", done);
    res.on("error", done);
  });
}
