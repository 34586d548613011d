import { RpcTransportError } from "./jsonrpc-client.ts";
import { firstIssue } from "./schema-issue.ts";
/** Sends one call and checks its result against the method's schema. */
export async function callRpcMethod(client, method, params, schema) {
    const result = await client.request(method, trimOptional(params));
    const checked = schema.safeParse(result);
    if (checked.success)
        return checked.data;
    throw new RpcTransportError("invalid_response", `${method}: the result does not match the spec at ${firstIssue(checked.error)}`);
}
/** Trailing optional params left out are not sent as nulls. */
function trimOptional(params) {
    let end = params.length;
    while (end > 0 && params[end - 1] === undefined)
        end--;
    return params.slice(0, end);
}
//# sourceMappingURL=rpc-call.js.map