// One HTTP exchange over undici's dispatch API, the body collected straight into memory. undici's
// request() adds a response stream, an async resource and (for the deadline) an AbortSignal with its
// timer per call; on a small JSON answer those cost more than the exchange itself. Here: one handler
// object, one plain timer, no stream. Never follows redirects and never holds more than maxBytes.
import { type Dispatcher, util } from "undici";

import {
  BodyTooLarge,
  DeadlineExceeded,
  declaresMoreThan,
  flattenHeaders,
  type RawResponse,
  type RawSend,
  type RawSendInput,
} from "./raw.ts";

export { BodyTooLarge, DeadlineExceeded, declaresMoreThan, flattenHeaders, type RawResponse };

/** A RawSend's input, with the dispatcher to send through and the path (with the query) to send. */
export interface ExchangeInput extends Omit<RawSendInput, "url" | "pathAndQuery"> {
  dispatcher: Dispatcher;
  /** Path and query, as sent. */
  path: string;
}

export function exchange(input: ExchangeInput): Promise<RawResponse> {
  return new Promise<RawResponse>((resolve, reject) => new Collector(input, resolve, reject).start());
}

/** A RawSend for the HTTP transport over an undici dispatcher (Node): the fast path for Node tuning. */
export function undiciSend(dispatcher: Dispatcher): RawSend {
  return ({ url: _url, pathAndQuery, ...rest }) => exchange({ ...rest, dispatcher, path: pathAndQuery });
}

// The legacy handler methods (onConnect, onHeaders, onData, onComplete, onError) are what undici's
// dispatchers call natively; the newer controller API is adapted onto them per request.
class Collector implements Dispatcher.DispatchHandler {
  private status = 0;
  private headers: Record<string, string> = {};
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private abortRequest: ((reason?: Error) => void) | undefined;
  /** Why the exchange was cancelled before undici handed out its abort function. */
  private cancelled: Error | undefined;
  private settled = false;
  private timer: NodeJS.Timeout | undefined;
  private onSignal: (() => void) | undefined;

  constructor(
    private readonly input: ExchangeInput,
    private readonly resolve: (response: RawResponse) => void,
    private readonly reject: (error: unknown) => void,
  ) {}

  start(): void {
    const { input } = this;
    if (input.signal?.aborted) return this.fail(input.signal.reason ?? new Error("aborted"));
    // Unref'd like AbortSignal.timeout's timer: a deadline alone does not keep the process alive.
    this.timer = setTimeout(onDeadline, input.timeoutMs, this);
    this.timer.unref();
    if (input.signal !== undefined) {
      const signal = input.signal;
      this.onSignal = () => this.cancel(signal.reason ?? new Error("aborted"));
      signal.addEventListener("abort", this.onSignal, { once: true });
    }
    try {
      input.dispatcher.dispatch(
        {
          origin: input.origin,
          path: input.path,
          method: input.method as Dispatcher.HttpMethod,
          headers: input.headers,
          body: input.body ?? null,
        },
        this,
      );
    } catch (error) {
      this.fail(error);
    }
  }

  /** Ends the exchange now with `reason`, and stops the request (at once, or as soon as it starts). */
  cancel(reason: Error): void {
    if (this.settled) return;
    this.fail(reason);
    if (this.abortRequest !== undefined) this.abortRequest(reason);
    else this.cancelled = reason;
  }

  /** Called by the timer: the whole exchange took longer than timeoutMs. */
  expire(): void {
    this.cancel(new DeadlineExceeded(this.input.timeoutMs));
  }

  onConnect(abort: (reason?: Error) => void): void {
    if (this.cancelled !== undefined) return abort(this.cancelled);
    this.abortRequest = abort;
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    if (statusCode < 200) return true; // 1xx: informational, the answer follows
    this.status = statusCode;
    this.headers = flattenHeaders(util.parseHeaders(rawHeaders));
    if (declaresMoreThan(this.headers, this.input.maxBytes)) {
      this.cancel(new BodyTooLarge(this.input.maxBytes));
      return false;
    }
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.size += chunk.length;
    if (this.size > this.input.maxBytes) {
      this.cancel(new BodyTooLarge(this.input.maxBytes));
      return false;
    }
    this.chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    if (this.settled) return;
    this.cleanUp();
    // Decoded once as a whole, so multi-byte characters split across chunks stay intact.
    const text =
      this.chunks.length === 1
        ? this.chunks[0].toString("utf8")
        : Buffer.concat(this.chunks, this.size).toString("utf8");
    this.resolve({ status: this.status, headers: this.headers, text });
  }

  onError(error: Error): void {
    this.fail(error);
  }

  private fail(error: unknown): void {
    if (this.settled) return;
    this.cleanUp();
    this.reject(error);
  }

  private cleanUp(): void {
    this.settled = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    if (this.onSignal !== undefined) this.input.signal?.removeEventListener("abort", this.onSignal);
  }
}

// Module-level with the collector as the timer's argument: no closure per exchange.
function onDeadline(collector: Collector): void {
  collector.expire();
}
