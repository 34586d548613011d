// What a running check sees: the target, bounded clients bound to its own deadline, the operation
// table and the shared prerequisites (fixtures), which are created once and shared by all checks.

import { CheckSkipped } from "../checks/outcome.ts";
import type { Level, Prerequisite } from "../checks/types.ts";
import type { FixtureRegistry, FixtureResult, FixtureValues } from "../provision/registry.ts";
import { ApiClient, fillPath } from "../transport/api.ts";
import type { HttpExchange, HttpProbe } from "../transport/probe.ts";
import type { Redactor } from "../transport/redact.ts";
import { RpcClient } from "../transport/rpc.ts";
import { SolanaRpcClient } from "../transport/solana-rpc.ts";
import { Cleanup } from "./cleanup.ts";
import type { Credentials, RunOptions, Target } from "./config.ts";
import { RunMarker, runBoundMs } from "./marker.ts";
import type { OperationInfo } from "./operations.ts";
import { findOperation, isRead } from "./operations.ts";
import { type SupplyMode, supplyMode } from "./supply.ts";

export interface CallArgs {
  params?: Record<string, string | undefined>;
  query?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
  /** Defaults to the admin key; `null` sends the request unsigned. */
  credentials?: Credentials | null;
}

/** State shared by every check of one run. */
export class Suite {
  /** What the run undoes when it ends (cleanup.ts). */
  readonly cleanup = new Cleanup();
  /** The mark on every record the run creates, with the run's lease (marker.ts). */
  readonly marker: RunMarker;
  fixtures!: FixtureRegistry<Suite>;

  constructor(
    readonly config: Target,
    readonly options: RunOptions,
    readonly operations: OperationInfo[],
    readonly redactor: Redactor,
    readonly http: HttpProbe,
    /** Aborted when the whole run stops. */
    readonly signal: AbortSignal,
  ) {
    this.marker = new RunMarker(runBoundMs(options.timeoutMs));
  }

  /** Registers the call that removes a record this run created; it runs when the run ends. */
  removeAtEnd(what: string, operationId: string, args: CallArgs): void {
    this.cleanup.deployment(what, (signal) => this.call(operationId, args, signal));
  }

  get level(): Level {
    return this.options.level;
  }

  /** Whether fixtures come only from flags or may be created (decided once, supply.ts). */
  get supply(): SupplyMode {
    return this.options.supply ?? supplyMode(this.options.level, false);
  }

  private readonly seedViews = new Map<string, OperationInfo>();

  /**
   * The operation, or a skip naming it when the spec in use has none by that id. At --level seed
   * its generated response schemas are left out: they carry the spec's choices where the seed is
   * silent (enums, id formats), and the seed's own field types are checked by envelope.seed-*.
   */
  operation(operationId: string): OperationInfo {
    const op = findOperation(this.operations, operationId);
    if (!op)
      throw new CheckSkipped(`operation ${operationId} is not in the operation table`, undefined, "inapplicable");
    if (this.level === "full") return op;
    let view = this.seedViews.get(operationId);
    if (!view) this.seedViews.set(operationId, (view = { ...op, responseSchemas: {} }));
    return view;
  }

  api(signal: AbortSignal = this.signal): ApiClient {
    return new ApiClient(this.http, this.config.baseUrl, signal);
  }

  rpc(signal: AbortSignal = this.signal): RpcClient {
    const target = { rpcUrl: this.config.rpcUrl, wsUrl: this.config.wsUrl, apiKey: this.config.rpcApiKey };
    return new RpcClient(target, this.http, this.redactor, this.options.timeoutMs, signal);
  }

  /** The deployment's Solana JSON-RPC, when --solana-rpc-url names one. */
  solanaRpc(signal: AbortSignal = this.signal): SolanaRpcClient | undefined {
    return this.config.solanaRpcUrl
      ? new SolanaRpcClient(this.config.solanaRpcUrl, this.config.rpcApiKey, this.http, signal)
      : undefined;
  }

  /** Calls an operation by id, signed with the admin key unless told otherwise. */
  call(operationId: string, args: CallArgs = {}, signal: AbortSignal = this.signal): Promise<HttpExchange> {
    const op = this.operation(operationId);
    return this.api(signal).send({
      method: op.method,
      path: fillPath(op, args.params ?? {}),
      query: args.query,
      body: args.body,
      headers: args.headers,
      credentials: args.credentials === null ? undefined : (args.credentials ?? this.config.admin),
    });
  }
}

/** A part of a check (one request it judges) that was not judged, and why. */
export interface SkippedCell {
  cell: string;
  reason: string;
}

/** A request judged with another key, and the owner's answer to the same request when one was sent. */
export interface Judged {
  ex: HttpExchange;
  control?: HttpExchange;
}

/** What of a request's shape the seed does not show (§4: no shown operation takes a body or a query), or undefined. */
export function unshownShape(args: CallArgs): string | undefined {
  const parts: string[] = [];
  if (args.query && Object.keys(args.query).length > 0)
    parts.push(`the query string ?${new URLSearchParams(args.query).toString()}`);
  if (args.body !== undefined) parts.push("a request body");
  const headers = Object.keys(args.headers ?? {});
  if (headers.length > 0) parts.push(`the header${headers.length > 1 ? "s" : ""} ${headers.join(", ")}`);
  return parts.length > 0 ? parts.join(" and ") : undefined;
}

const NOTHING_SHOWN = "a refusal of another key would show nothing";
const is2xx = (ex: HttpExchange) => ex.response.status >= 200 && ex.response.status < 300;

/** The per-check view: same suite, requests bound to this check's deadline. */
export class CheckContext {
  readonly facts: Record<string, string> = {};
  /** Parts of the check not judged, with why; reported beside its outcome. */
  readonly skippedCells: SkippedCell[] = [];
  readonly api: ApiClient;
  readonly rpc: RpcClient;

  constructor(
    readonly suite: Suite,
    readonly signal: AbortSignal,
  ) {
    this.api = suite.api(signal);
    this.rpc = suite.rpc(signal);
  }

  get config(): Target {
    return this.suite.config;
  }
  get level(): Level {
    return this.suite.level;
  }
  get timeoutMs(): number {
    return this.suite.options.timeoutMs;
  }
  get operations(): OperationInfo[] {
    return this.suite.operations;
  }
  get redactor(): Redactor {
    return this.suite.redactor;
  }

  operation(operationId: string): OperationInfo {
    return this.suite.operation(operationId);
  }

  call(operationId: string, args: CallArgs = {}): Promise<HttpExchange> {
    return this.suite.call(operationId, args, this.signal);
  }

  /** Records that one part of the check was not judged (the report lists it with the reason). */
  skipCell(cell: string, reason: string): void {
    this.skippedCells.push({ cell, reason });
  }

  /**
   * The one way a check sends a request it judges with another key (another workspace's, a Viewer's,
   * a scoped one). A refusal proves something only where the owner's key is served the same request:
   * a read is sent with the owner's key first (its positive control). Where the owner is refused on a
   * shape the seed does not show (a query string, a body, a header: §4 shows none, and §5 rule 4 leaves
   * the string to sign open), that shape is certify's limit, never the deployment's failure: at seed
   * level the seed's own form (path only) is tried instead, and where that is refused too the cell is
   * skipped, naming why (undefined is returned). A write is never sent twice (its control would make the
   * change): at seed level one of a shape the seed does not show is skipped the same way.
   */
  async sendJudged(
    operationId: string,
    args: CallArgs,
    credentials: Credentials,
    cell = operationId,
  ): Promise<Judged | undefined> {
    const shape = unshownShape(args);
    const op = this.operation(operationId);
    const seed = this.level === "seed";
    if (!isRead(op)) {
      if (!shape || !seed) return { ex: await this.call(operationId, { ...args, credentials }) };
      return void this.skipCell(
        cell,
        `${op.method} with ${shape}: a write of a shape the seed does not show has no control that changes nothing`,
      );
    }
    let sent = args;
    let control = await this.call(operationId, sent);
    if (!is2xx(control) && shape && seed) {
      const seedForm: CallArgs = { params: args.params };
      const retried = await this.call(operationId, seedForm);
      const why = `the owner's key was refused with ${shape} (HTTP ${control.response.status})`;
      if (!is2xx(retried)) {
        const also = `and on the seed's form, the path alone (HTTP ${retried.response.status})`;
        return void this.skipCell(
          cell,
          `${why} ${also}: ${NOTHING_SHOWN} (certify's limit, not the deployment's failure)`,
        );
      }
      this.fact(`seed form: ${cell}`, `${why}: judged on the seed's form, the path alone`);
      [sent, control] = [seedForm, retried];
    }
    if (!is2xx(control)) {
      return void this.skipCell(
        cell,
        `the owner's key gets HTTP ${control.response.status} on the same request: ${NOTHING_SHOWN}`,
      );
    }
    return { ex: await this.call(operationId, { ...sent, credentials }), control };
  }

  /** The cells not judged, as one phrase for a message ("op (reason), ..."). */
  notJudged(): string {
    return this.skippedCells.map((c) => `${c.cell} (${c.reason})`).join(", ");
  }

  /** The prerequisite's value, or CheckSkipped with the reason it is unavailable. */
  need<K extends Prerequisite>(name: K): Promise<FixtureValues[K]> {
    return this.suite.fixtures.need(name);
  }

  /** The prerequisite's outcome as a value (owner checks turn a setup failure into their own failure). */
  settle<K extends Prerequisite>(name: K): Promise<FixtureResult<FixtureValues[K]>> {
    return this.suite.fixtures.settle(name);
  }

  /** A fact for the report (e.g. the webhook profile the deployment matched). */
  fact(key: string, value: string): void {
    this.facts[key] = value;
  }

  /** Sleeps, cut short when the check's deadline passes. */
  sleep(ms: number): Promise<void> {
    return sleep(ms, this.signal);
  }
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

/**
 * How often a wait of a few EVM blocks asks again (a receipt, a balance, a head, a withdrawal's status):
 * at least once per block of the fast chains certify meets (the certified sandbox mines every 150 ms),
 * so such a wait ends within a fraction of a block of what it waits for, for a request or two more.
 * The Solana waits (32 slots) keep a slower pace: there a poll more saves little and costs more.
 */
export const CHAIN_POLL_MS = 100;

/** Polls `probe` every `intervalMs` until it returns a value or `timeoutMs` passes (then undefined). */
export async function pollUntil<T>(
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
  intervalMs: number,
  signal?: AbortSignal,
): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() + intervalMs > deadline || signal?.aborted) return undefined;
    await sleep(intervalMs, signal);
  }
}
