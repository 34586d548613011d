import type { IncomingMessage, ServerResponse } from "node:http";
export declare const JSON_CONTENT_TYPE = "application/json; charset=utf-8";
/** The caller's x-request-id when it is a single sane value, else a fresh UUID. */
export declare function resolveRequestId(req: IncomingMessage): string;
export interface SendOptions {
    headers?: Record<string, string>;
    /** Ask the client to close the connection (used when the request body was not read to its end). */
    close?: boolean;
}
/** Sends an already serialized JSON body. */
export declare function sendJson(res: ServerResponse, status: number, body: string, requestId: string, options?: SendOptions): void;
export declare function sendError(res: ServerResponse, status: number, message: string, requestId: string, options?: SendOptions & {
    code?: number | string;
}): void;
/** The one 401 answer: identical bytes whichever check failed. */
export declare function sendUnauthorized(res: ServerResponse, requestId: string): void;
