// How a tool call reaches the API: through a generated client's method (its signing, retries, errors
// and validation), or, for a document with no generated client, through the same runtime call the
// generated methods make. The answer goes to the model as the service sent it (validateResponse
// false): a loosened output schema describes it, and a stricter check would turn good calls into errors.

import type { WithResponse } from "../http/api-promise.ts";
import { callOperation } from "../http/client-call.ts";
import type { Transport } from "../http/transport.ts";
import type { Invoke } from "./call.ts";

type Method = (input: unknown, options: object) => { withResponse(): Promise<WithResponse<unknown>> };

async function result(call: { withResponse(): Promise<WithResponse<unknown>> }) {
  const { data, response } = await call.withResponse();
  return { data, status: response.status, ...(response.requestId ? { requestId: response.requestId } : {}) };
}

/** Calls `client[op.method]` of a generated client. */
export function clientInvoke(client: object): Invoke {
  return (op, input, options) => {
    const method = (client as Record<string, Method | undefined>)[op.method];
    if (typeof method !== "function") throw new Error(`the client has no method ${op.method}`);
    return result(method.call(client, input, { ...options, validateResponse: false }));
  };
}

/** Calls the operation through a runtime transport, as a generated method would. */
export function transportInvoke(transport: Transport): Invoke {
  return (op, input, options) =>
    result(
      callOperation(
        transport,
        {
          operationId: op.operationId,
          method: op.httpMethod,
          path: op.path,
          successStatus: op.successStatus,
          envelope: op.envelope,
          idempotent: op.idempotent,
          responseSchemas: {},
          ...(op.idempotencyHeader ? { idempotencyHeader: op.idempotencyHeader } : {}),
        },
        input,
        { ...options, validateResponse: false },
        "json",
      ),
    );
}
