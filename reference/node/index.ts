// Public surface of the node access (reference deployment): chain backends, the gateway, the server.
export { ChainRpcError, type BlockListener, type ChainBackend, type NewBlock, type RpcCall, type RpcParams } from "./backend.ts";
export { EmbeddedChain, startEmbeddedChain, type EmbeddedChainOptions, type Faucet } from "./chain.ts";
export { UpstreamChain, connectUpstreamChain, type UpstreamChainOptions } from "./upstream-chain.ts";
export { createRpcGateway, type RpcGateway, type RpcGatewayOptions } from "./gateway.ts";
export { attachRpcGateway, startNodeAccess, type NodeAccess, type NodeAccessOptions } from "./server.ts";
export type { ApiKeys } from "./auth.ts";
export { UNAUTHORIZED_RPC_BODY } from "./jsonrpc.ts";
