// What a running check sees: the target, bounded clients bound to its own deadline, the operation
// table and the shared prerequisites (fixtures), which are created once and shared by all checks.
import { ApiClient, fillPath } from "../transport/api.ts";
import { Cleanup } from "./cleanup.ts";
import type { Credentials, RunOptions, Target } from "./config.ts";
import type { FixtureRegistry, FixtureResult, FixtureValues } from "../provision/registry.ts";
import type { OperationInfo } from "./operations.ts";
import { findOperation } from "./operations.ts";
import { CheckSkipped } from "../checks/outcome.ts";
import type { HttpExchange, HttpProbe } from "../transport/probe.ts";
import type { Redactor } from "../transport/redact.ts";
import { RpcClient } from "../transport/rpc.ts";
import { SolanaRpcClient } from "../transport/solana-rpc.ts";
import { supplyMode, type SupplyMode } from "./supply.ts";
import type { Level, Prerequisite } from "../checks/types.ts";
import { RunMarker, runBoundMs } from "./marker.ts";

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
    if (!op) throw new CheckSkipped(`operation ${operationId} is not in the operation table`, undefined, "inapplicable");
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
    return this.config.solanaRpcUrl ? new SolanaRpcClient(this.config.solanaRpcUrl, this.config.rpcApiKey, this.http, signal) : undefined;
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

/** The per-check view: same suite, requests bound to this check's deadline. */
export class CheckContext {
  readonly facts: Record<string, string> = {};
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
