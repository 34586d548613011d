// What every generated JSON-RPC method does: send the call, then check the result against the
// method's schema from the OpenRPC document.
import type { z } from "zod";
import { RpcTransportError, type RpcClient } from "./jsonrpc-client.ts";
import { firstIssue } from "./schema-issue.ts";

/** Sends one call and checks its result against the method's schema. */
export async function callRpcMethod<T>(client: RpcClient, method: string, params: readonly unknown[], schema: z.ZodType): Promise<T> {
  const result = await client.request(method, trimOptional(params));
  const checked = schema.safeParse(result);
  if (checked.success) return checked.data as T;
  throw new RpcTransportError("invalid_response", `${method}: the result does not match the spec at ${firstIssue(checked.error)}`);
}

/** Trailing optional params left out are not sent as nulls. */
function trimOptional(params: readonly unknown[]): unknown[] {
  let end = params.length;
  while (end > 0 && params[end - 1] === undefined) end--;
  return params.slice(0, end);
}
