// Which JSON-RPC methods the node access serves, and the parameter checks done before the chain sees a
// call. Everything not listed — personal_*, evm_*, miner_*, debug_*, admin_*, eth_sendTransaction and
// eth_sign (which would use keys held by the node) — is "method not found".

export type Transport = "http" | "ws";

export interface MethodRule {
  /** "forward": sent to the chain backend; "local": answered by the gateway itself. */
  handling: "forward" | "local";
  /** Absent: both transports. */
  only?: Transport;
  /** Returns a message when the params are unacceptable. Params are already known to be an array. */
  check?: (params: readonly unknown[]) => string | undefined;
}

const BLOCK_TAGS = new Set(["latest", "earliest", "pending", "safe", "finalized"]);
const QUANTITY = /^0x(?:0|[1-9a-fA-F][0-9a-fA-F]*)$/;
const HASH32 = /^0x[0-9a-fA-F]{64}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const DATA = /^0x(?:[0-9a-fA-F]{2})+$/;

export const SUBSCRIPTION_KINDS = new Set(["newHeads"]);

function none(method: string): MethodRule["check"] {
  return (params) => (params.length === 0 ? undefined : `${method} takes no parameters`);
}

function exactly(count: number, message: string, ...tests: ((value: unknown) => boolean)[]): MethodRule["check"] {
  return (params) => (params.length === count && tests.every((test, i) => test(params[i])) ? undefined : message);
}

const isBlockTagOrNumber = (v: unknown) => typeof v === "string" && (BLOCK_TAGS.has(v) || QUANTITY.test(v));
const isBoolean = (v: unknown) => typeof v === "boolean";
const isHash = (v: unknown) => typeof v === "string" && HASH32.test(v);
const isData = (v: unknown) => typeof v === "string" && DATA.test(v);

function addressThenBlock(method: string): MethodRule["check"] {
  return (params) =>
    params.length >= 1 && params.length <= 2 && typeof params[0] === "string" && ADDRESS.test(params[0])
      ? undefined
      : `${method} expects [address, block tag or number]`;
}

const forward = (check?: MethodRule["check"]): MethodRule => ({ handling: "forward", check });

const NO_PARAM_METHODS = [
  "web3_clientVersion",
  "net_version",
  "net_listening",
  "net_peerCount",
  "eth_syncing",
  "eth_blockNumber",
  "eth_gasPrice",
  "eth_maxPriorityFeePerGas",
  "eth_blobBaseFee",
  "eth_newBlockFilter",
  "eth_newPendingTransactionFilter",
];

const FORWARDED_METHODS = [
  "web3_sha3",
  "eth_feeHistory",
  "eth_getStorageAt",
  "eth_call",
  "eth_estimateGas",
  "eth_createAccessList",
  "eth_getBlockTransactionCountByHash",
  "eth_getBlockTransactionCountByNumber",
  "eth_getUncleCountByBlockHash",
  "eth_getUncleCountByBlockNumber",
  "eth_getUncleByBlockHashAndIndex",
  "eth_getUncleByBlockNumberAndIndex",
  "eth_getTransactionByBlockHashAndIndex",
  "eth_getTransactionByBlockNumberAndIndex",
  "eth_getBlockReceipts",
  "eth_getLogs",
  "eth_getProof",
  "eth_newFilter",
  "eth_getFilterChanges",
  "eth_getFilterLogs",
  "eth_uninstallFilter",
];

export const METHODS: ReadonlyMap<string, MethodRule> = new Map<string, MethodRule>([
  ...NO_PARAM_METHODS.map((m): [string, MethodRule] => [m, forward(none(m))]),
  ...FORWARDED_METHODS.map((m): [string, MethodRule] => [m, forward()]),
  [
    "eth_getBlockByNumber",
    forward(
      exactly(2, "eth_getBlockByNumber expects [block tag or hex number, boolean]", isBlockTagOrNumber, isBoolean),
    ),
  ],
  [
    "eth_getBlockByHash",
    forward(exactly(2, "eth_getBlockByHash expects [32-byte hex hash, boolean]", isHash, isBoolean)),
  ],
  ["eth_getTransactionByHash", forward(exactly(1, "eth_getTransactionByHash expects [32-byte hex hash]", isHash))],
  ["eth_getTransactionReceipt", forward(exactly(1, "eth_getTransactionReceipt expects [32-byte hex hash]", isHash))],
  [
    "eth_sendRawTransaction",
    forward(exactly(1, "eth_sendRawTransaction expects [hex-encoded signed transaction]", isData)),
  ],
  ["eth_getBalance", forward(addressThenBlock("eth_getBalance"))],
  ["eth_getTransactionCount", forward(addressThenBlock("eth_getTransactionCount"))],
  ["eth_getCode", forward(addressThenBlock("eth_getCode"))],
  // Answered locally: the chain id never changes, and the node holds no keys for its callers.
  ["eth_chainId", { handling: "local", check: none("eth_chainId") }],
  ["eth_accounts", { handling: "local", check: none("eth_accounts") }],
  [
    "eth_subscribe",
    {
      handling: "local",
      only: "ws",
      check: (params) =>
        params.length >= 1 && typeof params[0] === "string" && SUBSCRIPTION_KINDS.has(params[0])
          ? undefined
          : `eth_subscribe supports: ${[...SUBSCRIPTION_KINDS].join(", ")}`,
    },
  ],
  [
    "eth_unsubscribe",
    {
      handling: "local",
      only: "ws",
      check: exactly(1, "eth_unsubscribe expects [subscription id]", (v) => typeof v === "string"),
    },
  ],
]);
