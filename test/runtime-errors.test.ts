// One fault, one type whatever the transport: every runtime error is a CustodyError.
import { describe, expect, it } from "vitest";
import {
  ApiError,
  CustodyError,
  JsonRpcError,
  RpcTransportError,
  TransportError,
  WebhookVerificationError,
} from "../runtime/errors.ts";
import * as runtime from "../runtime/index.ts";

describe("CustodyError", () => {
  it("is the base of ApiError, TransportError, the JSON-RPC errors and the webhook error", () => {
    const errors = [
      new ApiError(404, "not_found", "no such wallet", { requestId: "req_1" }),
      new TransportError("timeout", "GET http://x/ timed out", { method: "GET", url: "http://x/" }),
      new JsonRpcError(-32601, "method not found"),
      new RpcTransportError("http", "HTTP 502", { status: 502 }),
      new WebhookVerificationError("no_valid_signature", "no signature matches"),
    ];
    for (const error of errors) {
      expect(error).toBeInstanceOf(CustodyError);
      expect(error.shortMessage).toBe(error.message);
      expect(error.docsPath).toBe("README.md#errors");
      expect(error.details).toBeTruthy();
    }
    expect(errors[0].details).toBe("HTTP 404 not_found, request req_1");
    expect(errors[2].details).toBe("JSON-RPC error -32601");
  });

  it("is the one class the runtime's modules re-export", () => {
    expect(runtime.ApiError).toBe(ApiError);
    expect(runtime.TransportError).toBe(TransportError);
    expect(runtime.JsonRpcError).toBe(JsonRpcError);
    expect(runtime.WebhookVerificationError).toBe(WebhookVerificationError);
  });
});
