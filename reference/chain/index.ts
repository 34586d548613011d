// Public surface of the chain layer: the backends the node access and the wallet API run on.
export {
  type BlockListener,
  BlockListeners,
  type ChainBackend,
  ChainRpcError,
  type NewBlock,
  type RpcCall,
  type RpcParams,
} from "./backend.ts";
export { EmbeddedChain, type EmbeddedChainOptions, type Faucet, startEmbeddedChain } from "./embedded-chain.ts";
export { connectUpstreamChain, UpstreamChain, type UpstreamChainOptions } from "./upstream-chain.ts";
