// The response envelope of every wallet API response (seed 2.1, codes decided in the brief).

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
export const ERROR_CODES = {
  400: 400,
  401: "unauthorized",
  403: 403,
  404: 404,
  409: 409,
  413: 413,
  500: 500,
} as const;

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

export function successEnvelope<T>(data: T): SuccessEnvelope<T> {
  return { success: true, message: "success", code: 0, data };
}

const SUCCESS_PREFIX = '{"success":true,"message":"success","code":0,"data":';

/**
 * JSON.stringify(successEnvelope(data)), byte for byte, without building the envelope object: the
 * fixed part is a constant. Falls back to the object when `data` itself serializes to nothing.
 */
export function serializeSuccess(data: unknown): string {
  const json = JSON.stringify(data);
  return json === undefined ? JSON.stringify(successEnvelope(data)) : `${SUCCESS_PREFIX + json}}`;
}

export function errorEnvelope(message: string, code: number | string): ErrorEnvelope {
  return { success: false, message, code, data: null };
}

export const UNAUTHORIZED_MESSAGE = "invalid api signature";

/** The one answer to every authentication failure. */
export const UNAUTHORIZED_ENVELOPE: Readonly<ErrorEnvelope> = Object.freeze(
  errorEnvelope(UNAUTHORIZED_MESSAGE, ERROR_CODES[401]),
);

/** The exact bytes of the 401 body; every auth failure sends these, so none says which check failed. */
export const UNAUTHORIZED_BODY =
  '{"success":false,"message":"invalid api signature","code":"unauthorized","data":null}';

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/** True when `x` has the envelope shape of seed 2.1 (errors must carry data null). */
export function isEnvelope(x: unknown): x is Envelope<unknown> {
  if (!isRecord(x)) return false;
  if (typeof x.success !== "boolean" || typeof x.message !== "string") return false;
  if (typeof x.code !== "string" && typeof x.code !== "number") return false;
  if (!("data" in x)) return false;
  return x.success || x.data === null;
}

export function isErrorEnvelope(x: unknown): x is ErrorEnvelope {
  return isEnvelope(x) && x.success === false;
}
