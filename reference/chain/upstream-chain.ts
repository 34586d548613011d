// A ChainBackend that forwards every call to an existing JSON-RPC node over HTTP (`--upstream URL`).
// Calls are bounded: a deadline per call, a cap on the response size, and upstream failures come back
// as short ChainRpcErrors that never contain the upstream URL (it often embeds a provider key).
import type { Readable } from "node:stream";
import { Pool } from "undici";
import {
  type BlockListener,
  BlockListeners,
  type ChainBackend,
  ChainRpcError,
  type RpcCall,
  toNewBlock,
} from "./backend.ts";

export interface UpstreamChainOptions {
  /** http(s) URL of the JSON-RPC endpoint, path and query included. */
  url: string;
  /** Extra request headers, e.g. the upstream's own authorization. */
  headers?: Record<string, string>;
  /** Deadline of one call in milliseconds. Default 10 s. */
  timeoutMs?: number;
  /** Largest accepted response body. Default 32 MiB (eth_getLogs answers can be large). */
  maxResponseBytes?: number;
  /** How often to poll eth_blockNumber while someone listens for blocks. Default 1 s. */
  pollIntervalMs?: number;
  /** Keep-alive connections to the upstream. Default 32. */
  connections?: number;
}

/** Blocks announced per poll at most; a longer gap (a stalled poller, a reorg) skips ahead to the head. */
const MAX_BLOCKS_PER_POLL = 64;
const MAX_MESSAGE_CHARS = 500;

export class UpstreamChain implements ChainBackend {
  readonly kind = "upstream" as const;
  readonly chainId: number;
  readonly #pool: Pool;
  readonly #path: string;
  readonly #headers: Record<string, string>;
  readonly #timeoutMs: number;
  readonly #maxResponseBytes: number;
  readonly #pollIntervalMs: number;
  readonly #listeners = new BlockListeners();
  #nextId = 1;
  #pollTimer: NodeJS.Timeout | undefined;
  #lastBlock: bigint | undefined;
  #closed = false;

  private constructor(pool: Pool, path: string, chainId: number, options: UpstreamChainOptions) {
    this.#pool = pool;
    this.#path = path;
    this.chainId = chainId;
    this.#headers = { "content-type": "application/json", accept: "application/json", ...options.headers };
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#maxResponseBytes = options.maxResponseBytes ?? 32 * 1024 * 1024;
    this.#pollIntervalMs = options.pollIntervalMs ?? 1000;
  }

  /** Connects and reads the upstream's chain id; rejects with a clear message if it does not answer. */
  static async connect(options: UpstreamChainOptions): Promise<UpstreamChain> {
    const url = parseUpstreamUrl(options.url);
    const pool = new Pool(url.origin, { connections: options.connections ?? 32, keepAliveTimeout: 10_000 });
    const probe = new UpstreamChain(pool, url.pathname + url.search, 0, options);
    try {
      const chainIdHex = await probe.request({ method: "eth_chainId" });
      if (typeof chainIdHex !== "string" || !/^0x[0-9a-fA-F]+$/.test(chainIdHex)) {
        throw new Error("eth_chainId did not return a hex quantity");
      }
      return new UpstreamChain(pool, probe.#path, Number.parseInt(chainIdHex, 16), options);
    } catch (error) {
      await pool.close().catch(() => undefined);
      throw new Error(`upstream ${url.origin} is not a usable JSON-RPC node: ${(error as Error).message}`);
    }
  }

  async request(call: RpcCall): Promise<unknown> {
    if (this.#closed) throw new ChainRpcError(-32000, "the upstream connection is closed");
    const body = JSON.stringify({ jsonrpc: "2.0", id: this.#nextId++, method: call.method, params: call.params ?? [] });
    // undici bounds the wait for headers and each pause in the body; readCapped bounds the total.
    // (An AbortSignal timer per call would cost about a quarter of the gateway's throughput.)
    const deadline = Date.now() + this.#timeoutMs;
    let text: string;
    let status: number;
    try {
      const response = await this.#pool.request({
        path: this.#path,
        method: "POST",
        headers: this.#headers,
        body,
        headersTimeout: this.#timeoutMs,
        bodyTimeout: this.#timeoutMs,
      });
      status = response.statusCode;
      text = await readCapped(response.body, this.#maxResponseBytes, deadline);
    } catch (error) {
      throw transportError(error);
    }
    return resultOf(status, text);
  }

  onBlock(listener: BlockListener): () => void {
    const remove = this.#listeners.add(listener);
    this.#schedulePoll();
    return remove;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#listeners.clear();
    clearTimeout(this.#pollTimer);
    await this.#pool.close();
  }

  // Plain HTTP has no push, so new blocks are found by polling, and only while someone listens.
  #schedulePoll(): void {
    if (this.#listeners.size === 0) this.#lastBlock = undefined; // a later listener starts from the head again
    if (this.#pollTimer || this.#closed || this.#listeners.size === 0) return;
    const delay = this.#lastBlock === undefined ? 0 : this.#pollIntervalMs;
    this.#pollTimer = setTimeout(() => {
      void this.#poll().finally(() => {
        this.#pollTimer = undefined;
        this.#schedulePoll();
      });
    }, delay);
    this.#pollTimer.unref();
  }

  async #poll(): Promise<void> {
    try {
      const head = BigInt(String(await this.request({ method: "eth_blockNumber" })));
      const last = this.#lastBlock;
      if (last === undefined || head <= last) {
        if (last === undefined) this.#lastBlock = head;
        return;
      }
      const from = head - last > BigInt(MAX_BLOCKS_PER_POLL) ? head - BigInt(MAX_BLOCKS_PER_POLL) + 1n : last + 1n;
      for (let n = from; n <= head && !this.#closed; n++) {
        const block = toNewBlock(
          headerOf(await this.request({ method: "eth_getBlockByNumber", params: [`0x${n.toString(16)}`, false] })),
        );
        if (!block) return; // not yet visible on this upstream node (load-balanced); retry next poll
        this.#lastBlock = n;
        this.#listeners.emit(block);
      }
    } catch {
      // The upstream is down or slow; the next poll tries again.
    }
  }
}

/** Connects to an upstream node (see UpstreamChain). */
export function connectUpstreamChain(options: UpstreamChainOptions): Promise<UpstreamChain> {
  return UpstreamChain.connect(options);
}

function parseUpstreamUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error("upstream URL is not a valid URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("upstream URL must use http or https");
  if (url.username || url.password) throw new Error("upstream URL must not contain credentials; pass them as headers");
  return url;
}

/** Reads a response body, failing once it exceeds `limit` bytes or arrives after `deadline`. */
function readCapped(body: Readable, limit: number, deadline: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const fail = (error: ChainRpcError) => {
      body.destroy();
      reject(error);
    };
    body.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return fail(new ChainRpcError(-32000, `upstream response exceeds ${limit} bytes`));
      if (Date.now() > deadline) return fail(new ChainRpcError(-32000, "upstream timed out"));
      chunks.push(chunk);
    });
    body.on("end", () =>
      resolve(chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks, size).toString("utf8")),
    );
    body.on("error", reject);
  });
}

// The JSON-RPC answer wins over the HTTP status: many nodes send a JSON-RPC error with a 4xx/5xx.
function resultOf(status: number, text: string): unknown {
  let reply: unknown;
  try {
    reply = JSON.parse(text);
  } catch {
    throw new ChainRpcError(
      -32000,
      status >= 200 && status < 300 ? "upstream sent invalid JSON" : `upstream responded with HTTP ${status}`,
    );
  }
  const r = reply as { result?: unknown; error?: { code?: unknown; message?: unknown; data?: unknown } } | null;
  if (r && typeof r === "object" && !Array.isArray(r)) {
    if (r.error && typeof r.error === "object") {
      const code = typeof r.error.code === "number" && Number.isInteger(r.error.code) ? r.error.code : -32000;
      const message =
        typeof r.error.message === "string" ? r.error.message.slice(0, MAX_MESSAGE_CHARS) : "upstream error";
      throw new ChainRpcError(code, message, r.error.data);
    }
    if ("result" in r && status >= 200 && status < 300) return r.result;
  }
  throw new ChainRpcError(
    -32000,
    status >= 200 && status < 300 ? "upstream sent no JSON-RPC result" : `upstream responded with HTTP ${status}`,
  );
}

function transportError(error: unknown): ChainRpcError {
  if (error instanceof ChainRpcError) return error;
  const e = error as { code?: unknown; name?: unknown };
  if (e?.name === "TimeoutError" || e?.code === "UND_ERR_HEADERS_TIMEOUT" || e?.code === "UND_ERR_BODY_TIMEOUT") {
    return new ChainRpcError(-32000, "upstream timed out");
  }
  const reason = typeof e?.code === "string" ? e.code : "connection failed";
  return new ChainRpcError(-32000, `upstream unavailable (${reason})`);
}

// newHeads carries headers only; drop the body parts eth_getBlockByNumber adds.
function headerOf(block: unknown): unknown {
  if (!block || typeof block !== "object") return block;
  const { transactions: _t, uncles: _u, withdrawals: _w, ...header } = block as Record<string, unknown>;
  return header;
}
