import { ApiPromise } from "./api-promise.ts";
import type { Transport } from "./http-transport.ts";
import type { RetryPolicy } from "./retry.ts";
/** Per-call overrides. */
export interface CallOptions {
    /** Per attempt, in ms. */
    timeoutMs?: number;
    /** The same as timeoutMs (the name other SDKs use); timeoutMs wins when both are given. */
    timeout?: number;
    /** Over all attempts and the waits between them, in ms. */
    deadlineMs?: number;
    /** Retries after the first attempt (only calls safe to repeat are ever retried). */
    maxRetries?: number;
    /** Retry policy for this call (only calls safe to repeat are ever retried). */
    retry?: Partial<RetryPolicy> | false;
    signal?: AbortSignal;
    /** Extra headers, applied after signing; undefined removes one. */
    headers?: Record<string, string | undefined>;
    /**
     * The idempotency key of this call, for an operation that declares one (default: a fresh UUID v4,
     * sent unchanged on every retry of this call). Give your own to make a call safe to repeat across restarts.
     */
    idempotencyKey?: string;
    /**
     * Check the answer against the operation's response schema (default: the transport's
     * validateResponses, itself true by default). Unchecked data is the parsed JSON as it came,
     * unknown fields included.
     */
    validateResponse?: boolean;
}
/** What a generated method hands over: the operation's input parts. */
export interface CallInput {
    params?: object;
    query?: object;
    headers?: object;
    body?: unknown;
}
/** The parts of an operations.ts entry the client needs. */
export interface CallOperation {
    operationId: string;
    method: string;
    path: string;
    successStatus: number;
    idempotent: boolean;
    envelope: boolean;
    responseSchemas: object;
    /** The header the operation declares for an idempotency key, when it declares one. */
    idempotencyHeader?: string;
}
/** How the success body is read: parsed JSON, raw text, or nothing. */
export type ResponseKind = "json" | "text" | "none";
/** One call: `await` it for the data, or `.withResponse()` for the data with status, headers and request id. */
export declare function callOperation(transport: Transport, op: CallOperation, input: CallInput, options: CallOptions | undefined, kind: ResponseKind): ApiPromise<unknown>;
/** A random (version 4) UUID, on any runtime with Web Crypto (randomUUID needs a secure context in browsers). */
export declare function uuidV4(): string;
/** Fills the path template; each value is percent-encoded as one path segment. */
export declare function expandPath(template: string, params: object | undefined): string;
