// Public surface of the node access (reference deployment): the JSON-RPC gateway and its servers. The
// chains it fronts live one layer down, in reference/chain.

export type { ApiKeys } from "./auth.ts";
export { createRpcGateway, type RpcGateway, type RpcGatewayOptions } from "./gateway.ts";
export { UNAUTHORIZED_RPC_BODY } from "./jsonrpc.ts";
export { attachRpcGateway, type NodeAccess, type NodeAccessOptions, startNodeAccess } from "./server.ts";
