export interface SuccessEnvelope<T> {
    success: true;
    message: "success";
    code: 0;
    data: T;
}
export interface ErrorEnvelope {
    success: false;
    message: string;
    /** The HTTP status as an integer; the one 401 keeps the seed's string `unauthorized`. */
    code: number | string;
    data: null;
}
export type Envelope<T> = SuccessEnvelope<T> | ErrorEnvelope;
/**
 * Error code per HTTP status, as the spec declares them (x-custody-error-codes): the status itself as an
 * integer, as the real service answers (https://docs.fystack.io/errors); 401 keeps the seed's `unauthorized`.
 */
export declare const ERROR_CODES: {
    readonly 400: 400;
    readonly 401: "unauthorized";
    readonly 403: 403;
    readonly 404: 404;
    readonly 409: 409;
    readonly 413: 413;
    readonly 500: 500;
};
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];
export declare function successEnvelope<T>(data: T): SuccessEnvelope<T>;
/**
 * JSON.stringify(successEnvelope(data)), byte for byte, without building the envelope object: the
 * fixed part is a constant. Falls back to the object when `data` itself serializes to nothing.
 */
export declare function serializeSuccess(data: unknown): string;
export declare function errorEnvelope(message: string, code: number | string): ErrorEnvelope;
export declare const UNAUTHORIZED_MESSAGE = "invalid api signature";
/** The one answer to every authentication failure. */
export declare const UNAUTHORIZED_ENVELOPE: Readonly<ErrorEnvelope>;
/** The exact bytes of the 401 body; every auth failure sends these, so none says which check failed. */
export declare const UNAUTHORIZED_BODY = "{\"success\":false,\"message\":\"invalid api signature\",\"code\":\"unauthorized\",\"data\":null}";
/** True when `x` has the envelope shape of seed 2.1 (errors must carry data null). */
export declare function isEnvelope(x: unknown): x is Envelope<unknown>;
export declare function isErrorEnvelope(x: unknown): x is ErrorEnvelope;
