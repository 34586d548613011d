// The answer of one wallet API call: the envelope's data, or the ApiError it stands for.
import { isEnvelope } from "./envelope.ts";
import { ApiError } from "./errors.ts";
import type { TransportResponse } from "./http-transport.ts";

/**
 * The data of a success envelope, or an ApiError carrying status, code, message and request id.
 * `expectedStatus` (the operation's declared success status) makes any other 2xx an error too.
 */
export function unwrapEnvelope<T = unknown>(response: TransportResponse, expectedStatus?: number): T {
  const { status, body, requestId } = response;
  const statusOk = expectedStatus === undefined ? status >= 200 && status < 300 : status === expectedStatus;
  if (isEnvelope(body)) {
    if (body.success && statusOk) return body.data as T;
    const code = body.success ? "unexpected_status" : body.code;
    const message = body.success ? `unexpected HTTP status ${status}` : body.message;
    throw new ApiError(status, code, message, { requestId, body });
  }
  throw new ApiError(status, "invalid_response", `HTTP ${status}: the response is not an envelope`, {
    requestId,
    body: body ?? response.text,
  });
}
