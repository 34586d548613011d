// Public surface of the node access (reference deployment): the JSON-RPC gateway and its servers. The
// chains it fronts live one layer down, in reference/chain.
export { createRpcGateway, type RpcGateway, type RpcGatewayOptions } from "./gateway.ts";
export { attachRpcGateway, startNodeAccess, type NodeAccess, type NodeAccessOptions } from "./server.ts";
export type { ApiKeys } from "./auth.ts";
export { UNAUTHORIZED_RPC_BODY } from "./jsonrpc.ts";
