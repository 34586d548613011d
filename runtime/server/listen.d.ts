import { type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
export interface ListenOptions {
    /** 0 (the default) picks a free port. */
    port?: number;
    /** Default 127.0.0.1. */
    host?: string;
    /** Whole request, headers and body. Default 30 s. */
    requestTimeoutMs?: number;
    /** Default 10 s. */
    headersTimeoutMs?: number;
}
export interface RunningServer {
    /** http://host:port, no trailing slash. */
    url: string;
    port: number;
    server: Server;
    close(): Promise<void>;
}
export declare function listen(handler: (req: IncomingMessage, res: ServerResponse) => void, options?: ListenOptions): Promise<RunningServer>;
/**
 * Answers a request node's HTTP parser refused with a 400 error envelope, like every other answer
 * (node's default sends a bare status line). Nothing is written when an answer is already on its way on
 * that connection, so a pipelined response is never corrupted. The socket is ended, not destroyed, so
 * the client receives the answer before the connection closes.
 */
export declare function answerClientError(error: Error & {
    code?: string;
}, socket: Duplex): void;
