import type { IncomingMessage } from "node:http";
import type { AuthContext, KeyRecord } from "./types.ts";
export interface AuthenticateInput {
    req: IncomingMessage;
    /** Raw request path without the query string, exactly as received. */
    path: string;
    body: Uint8Array;
    resolveKey: (keyId: string) => Promise<KeyRecord | undefined> | KeyRecord | undefined;
    nowSeconds: number;
    windowSeconds?: number;
}
/**
 * The value of a header that must appear exactly once with a non-empty value; undefined otherwise.
 * rawHeaders is used because node folds repeated headers into one comma-joined string.
 */
export declare function singleHeader(req: IncomingMessage, name: string): string | undefined;
/** The three authentication headers, each as singleHeader reads it, in one pass over rawHeaders. */
export declare function authHeaders(req: IncomingMessage): {
    keyId?: string;
    timestamp?: string;
    signature?: string;
};
export declare function authenticate(input: AuthenticateInput): Promise<AuthContext | undefined>;
