import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger, OperationDefinition, RouterOptions } from "./types.ts";
export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;
/** Logs internal errors by name and message only: messages of our own code carry no secrets, stacks stay out. */
export declare const defaultLogger: Logger;
/** The first of `preferred` that the operation declares, else the first of them. */
export declare function declaredStatus(op: Pick<OperationDefinition, "declaredStatuses">, ...preferred: number[]): number;
/** Path and query of the request target (absolute-form targets are reduced to their path). */
export declare function splitTarget(target: string): {
    path: string;
    search: string;
};
export declare function createRouter(options: RouterOptions): RequestListener;
