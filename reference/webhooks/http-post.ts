// One delivery attempt: POST the body, wait at most `timeoutMs` for the whole answer (connect,
// headers and body), read at most `maxBodyBytes` of the response body. Redirects are not followed (a
// 3xx is a failed attempt: a receiver must answer at the URL it registered).
//
// The request (body and signed headers) is made only once the connection is up: a receiver that
// refuses connections costs no serializing and no signing (a dead endpoint gets hundreds of attempts),
// and a signed timestamp is the moment the request goes out.
import http from "node:http";
import https from "node:https";

export interface PostResult {
  status?: number;
  body?: string;
  error?: string;
  /** No complete answer within the time-out (the receiver held the attempt). */
  timedOut?: true;
  durationMs: number;
}

/** What is sent: the body and its headers (content-length is added). */
export interface OutgoingRequest {
  body: string;
  headers: Record<string, string>;
}

export interface PostOptions {
  url: string;
  /** Called once, when the connection is established; a throw fails the attempt with its message. */
  request: () => OutgoingRequest;
  timeoutMs: number;
  maxBodyBytes: number;
  signal?: AbortSignal;
}

export function postWebhook(opts: PostOptions): Promise<PostResult> {
  const started = Date.now();
  let url: URL;
  try {
    url = new URL(opts.url);
  } catch {
    return Promise.resolve({ error: "invalid receiver URL", durationMs: 0 });
  }
  return new Promise<PostResult>((resolve) => {
    let settled = false;
    const chunks: Buffer[] = [];
    let kept = 0;
    let status: number | undefined;
    const finish = (result: Omit<PostResult, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onAbort);
      req.destroy();
      resolve({ ...result, durationMs: Date.now() - started });
    };
    const transport = url.protocol === "https:" ? https : http;
    // A fresh connection per attempt: a receiver that hung before must not poison the next attempt.
    const req = transport.request(url, { method: "POST", agent: false });
    const timer = setTimeout(
      () =>
        finish({
          ...(status !== undefined ? { status } : {}),
          error: `timeout: no complete response within ${opts.timeoutMs} ms`,
          timedOut: true,
        }),
      opts.timeoutMs,
    );
    const onAbort = () => finish({ error: "aborted (the sandbox is shutting down, or the webhook was deleted)" });
    opts.signal?.addEventListener("abort", onAbort);
    req.on("error", (err: NodeJS.ErrnoException) =>
      finish({ ...(status !== undefined ? { status } : {}), error: describeError(err) }),
    );
    req.on("response", (res) => {
      status = res.statusCode;
      res.on("data", (chunk: Buffer) => {
        if (kept < opts.maxBodyBytes) {
          const part = chunk.subarray(0, opts.maxBodyBytes - kept);
          chunks.push(part);
          kept += part.length;
        }
      });
      res.on("end", () => finish({ status, body: decode(chunks) }));
      res.on("aborted", () =>
        finish({ status, body: decode(chunks), error: "connection closed before the response was complete" }),
      );
      res.on("error", (err: NodeJS.ErrnoException) =>
        finish({ status, body: decode(chunks), error: describeError(err) }),
      );
    });
    const send = () => {
      if (settled) return;
      let outgoing: OutgoingRequest;
      try {
        outgoing = opts.request();
      } catch (err) {
        return finish({ error: `request not sent: ${err instanceof Error ? err.message : String(err)}` });
      }
      const payload = Buffer.from(outgoing.body, "utf8");
      for (const [name, value] of Object.entries(outgoing.headers)) req.setHeader(name, value);
      req.setHeader("content-length", String(payload.length));
      req.end(payload);
    };
    // The fresh socket is still connecting; a TLS socket emits "connect" too, before its handshake.
    req.once("socket", (socket) => (socket.connecting ? socket.once("connect", send) : send()));
  });
}

function decode(chunks: Buffer[]): string {
  // A cut in the middle of a UTF-8 sequence becomes U+FFFD rather than an exception.
  return new TextDecoder("utf-8", { fatal: false }).decode(Buffer.concat(chunks));
}

function describeError(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case "ECONNREFUSED":
      return "connection refused";
    case "ECONNRESET":
      return "connection reset by the receiver";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "host name could not be resolved";
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return "receiver unreachable";
    default:
      return err.message === "socket hang up"
        ? "connection closed before the response was complete"
        : `connection error: ${err.message}`;
  }
}
