// Sends the deposit of the lifecycle checks with a funded key, through the deployment's own node
// access (viem over {rpc_url}/rpc?api_key=…), bounded like every other request.
import { createWalletClient, defineChain, http, parseUnits, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { CheckFailed, CheckSkipped } from "./outcome.ts";
import type { RpcClient } from "./rpc.ts";

export interface SentTransfer {
  hash: Hex;
  from: Hex;
}

export function normalizePrivateKey(key: string): Hex {
  const hex = key.trim().startsWith("0x") ? key.trim() : `0x${key.trim()}`;
  if (!/^0x[0-9a-fA-F]{64}$/.test(hex)) throw new CheckSkipped("the faucet private key is not 32 bytes of hex");
  return hex as Hex;
}

export function faucetAddress(privateKey: string): Hex {
  return privateKeyToAccount(normalizePrivateKey(privateKey)).address;
}

/** The send in progress per node and sender: one at a time, so each gets the next nonce. */
const sending = new Map<string, Promise<unknown>>();

/**
 * Sends `amount` (whole native units) from the faucet key to `to`; returns the transaction hash.
 * Sends from one key through one node go one after the other: two at once would draw the same nonce.
 */
export function sendNativeTransfer(
  rpc: RpcClient,
  privateKey: string,
  to: string,
  amount: string,
  decimals: number,
  timeoutMs: number,
): Promise<SentTransfer> {
  const key = `${rpc.httpUrl("query")} ${faucetAddress(privateKey)}`;
  const previous = sending.get(key) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(() => sendNow(rpc, privateKey, to, amount, decimals, timeoutMs));
  sending.set(key, next);
  void next.finally(() => sending.get(key) === next && sending.delete(key)).catch(() => undefined);
  return next;
}

async function sendNow(
  rpc: RpcClient,
  privateKey: string,
  to: string,
  amount: string,
  decimals: number,
  timeoutMs: number,
): Promise<SentTransfer> {
  const chainIdHex = await rpc.resultHttp("eth_chainId");
  if (typeof chainIdHex !== "string" || !/^0x[0-9a-f]+$/i.test(chainIdHex)) {
    throw new CheckFailed(`eth_chainId answered ${JSON.stringify(chainIdHex)}, not a hex quantity`);
  }
  const id = Number(BigInt(chainIdHex));
  const url = rpc.httpUrl("query");
  const chain = defineChain({
    id,
    name: `target-${id}`,
    nativeCurrency: { name: "native", symbol: "NATIVE", decimals },
    rpcUrls: { default: { http: [url] } },
  });
  const account = privateKeyToAccount(normalizePrivateKey(privateKey));
  const client = createWalletClient({ account, chain, transport: http(url, { timeout: timeoutMs, retryCount: 0 }) });
  try {
    const hash = await client.sendTransaction({ to: to as Hex, value: parseUnits(amount, decimals), account, chain });
    return { hash, from: account.address };
  } catch (err) {
    const message = (err as { shortMessage?: string; message?: string }).shortMessage ?? (err as Error).message;
    if (/insufficient funds/i.test(message)) throw new CheckSkipped(`the faucet key ${account.address} has too little to deposit ${amount}`);
    throw new CheckFailed(`sending the deposit through the node access failed: ${message.split("\n")[0]}`);
  }
}
