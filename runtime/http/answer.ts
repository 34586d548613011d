// The answer of one wallet API call: the envelope's data, or the error it stands for (the ApiError
// subclass of its status, or ResponseValidationError when a success answer is not an envelope).
import { isEnvelope } from "../envelope.ts";
import { type ApiError, apiErrorFor, ResponseValidationError } from "../errors.ts";
import type { TransportResponse } from "./transport.ts";

/**
 * The data of a success envelope, or an ApiError carrying status, headers, code, message and request id.
 * `expectedStatus` (the operation's declared success status) makes any other 2xx an error too.
 */
export function unwrapEnvelope<T = unknown>(response: TransportResponse, expectedStatus?: number): T {
  const { status, body, requestId, headers } = response;
  const statusOk = expectedStatus === undefined ? status >= 200 && status < 300 : status === expectedStatus;
  if (isEnvelope(body)) {
    if (body.success && statusOk) return body.data as T;
    const code = body.success ? "unexpected_status" : body.code;
    const message = body.success ? `unexpected HTTP status ${status}` : body.message;
    throw apiErrorFor(status, code, message, { requestId, body, headers });
  }
  throw notAnEnvelope(response);
}

/** A success status without an envelope breaks the schema; an error status without one is still that status's error. */
function notAnEnvelope(response: TransportResponse): ApiError {
  const { status, body, requestId, headers, text } = response;
  const message = `HTTP ${status}: the response is not an envelope`;
  if (status >= 200 && status < 300) {
    return new ResponseValidationError(status, message, {
      issues: [{ path: [], message: "expected the envelope {success, message, code, data}" }],
      rawBody: text,
      requestId,
      headers,
      body: body ?? text,
    });
  }
  return apiErrorFor(status, "invalid_response", message, { requestId, body: body ?? text, headers });
}
