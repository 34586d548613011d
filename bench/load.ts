// Load generators: a closed loop of N callers for a fixed time (throughput at N concurrent requests),
// over undici for HTTP and over one `ws` connection for WebSocket (N messages in flight).
import { Pool } from "undici";
import WebSocket from "ws";

export interface LoadResult {
  /** Completed calls that met the expectation. */
  ok: number;
  /** Calls that failed or answered unexpectedly. */
  errors: number;
  seconds: number;
  /** ok / seconds. */
  perSecond: number;
  firstError?: string;
}

/** N workers each awaiting `call()` in a loop until the time is up. */
export async function closedLoop(
  concurrency: number,
  durationMs: number,
  call: () => Promise<void>,
): Promise<LoadResult> {
  let ok = 0;
  let errors = 0;
  let firstError: string | undefined;
  const started = performance.now();
  const deadline = started + durationMs;
  const worker = async () => {
    while (performance.now() < deadline) {
      try {
        await call();
        ok++;
      } catch (error) {
        errors++;
        firstError ??= error instanceof Error ? error.message : String(error);
        // A failing target answers fast; do not spin the CPU counting its errors.
        if (errors > 1000) return;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  return { ok, errors, seconds, perSecond: ok / seconds, firstError };
}

export interface HttpLoadInput {
  origin: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Fresh headers per request (e.g. a signature); called in the load generator. */
  headersPerRequest?: () => Record<string, string>;
  expectStatus: number;
  connections: number;
  durationMs: number;
}

/** HTTP requests over a keep-alive pool of `connections`, one request in flight per connection. */
export async function httpLoad(input: HttpLoadInput): Promise<LoadResult> {
  const pool = new Pool(input.origin, { connections: input.connections, pipelining: 1 });
  try {
    return await closedLoop(input.connections, input.durationMs, async () => {
      const headers = input.headersPerRequest ? { ...input.headers, ...input.headersPerRequest() } : input.headers;
      const res = await pool.request({ method: input.method as "GET", path: input.path, headers, body: input.body });
      // Read the whole body: a client always does, and it keeps the comparison honest.
      await res.body.text();
      if (res.statusCode !== input.expectStatus)
        throw new Error(`HTTP ${res.statusCode} (expected ${input.expectStatus})`);
    });
  } finally {
    await pool.close();
  }
}

export interface WsLoadInput {
  url: string;
  /** Builds message number i (ids must be unique so answers can be matched). */
  message: (id: number) => string;
  inFlight: number;
  durationMs: number;
}

/** Keeps `inFlight` JSON-RPC requests outstanding on one WebSocket; counts the answers with a result. */
export async function wsLoad(input: WsLoadInput): Promise<LoadResult> {
  const socket = new WebSocket(input.url);
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
    socket.once("unexpected-response", (_req, res) =>
      reject(new Error(`WebSocket upgrade refused: HTTP ${res.statusCode}`)),
    );
  });
  let ok = 0;
  let errors = 0;
  let firstError: string | undefined;
  let nextId = 1;
  const started = performance.now();
  const deadline = started + input.durationMs;
  try {
    await new Promise<void>((resolve, reject) => {
      let outstanding = 0;
      const send = () => {
        outstanding++;
        socket.send(input.message(nextId++));
      };
      socket.on("message", (data: Buffer) => {
        outstanding--;
        const text = data.toString("utf8");
        if (text.includes('"result"')) ok++;
        else {
          errors++;
          firstError ??= text.slice(0, 200);
        }
        if (performance.now() < deadline) send();
        else if (outstanding === 0) resolve();
      });
      socket.once("close", () => reject(new Error("the WebSocket closed during the run")));
      socket.once("error", reject);
      for (let i = 0; i < input.inFlight; i++) send();
    });
  } finally {
    socket.removeAllListeners("close");
    socket.on("error", () => undefined);
    socket.terminate();
  }
  const seconds = (performance.now() - started) / 1000;
  return { ok, errors, seconds, perSecond: ok / seconds, firstError };
}
