// Public surface of the chain layer: the backends the node access and the wallet API run on.
export { BlockListeners, ChainRpcError, type BlockListener, type ChainBackend, type NewBlock, type RpcCall, type RpcParams } from "./backend.ts";
export { EmbeddedChain, startEmbeddedChain, type EmbeddedChainOptions, type Faucet } from "./embedded-chain.ts";
export { UpstreamChain, connectUpstreamChain, type UpstreamChainOptions } from "./upstream-chain.ts";
