// Sends the deposits of the lifecycle and money checks with a funded key, through the deployment's own
// node access ({rpc_url}/rpc?api_key=…) and the suite's bounded JSON-RPC client, so every call has
// its deadline and its evidence. viem's accounts module signs the transaction; it is loaded on the
// first deposit (a run without a faucet key never pays for it), and it alone: the whole viem client
// costs a second of CPU to load, for calls the RpcClient makes anyway.
import type { Hex } from "viem";
import { CheckFailed, CheckSkipped } from "../checks/outcome.ts";
import { decimalToUnits } from "../checks/units.ts";
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

/** The send in progress per node and sender: one at a time, so each draws the next nonce. */
const sending = new Map<string, Promise<unknown>>();

/**
 * Sends `amount` (whole native units) from the faucet key to `to`; returns the transaction hash.
 * Sends from one key through one node go one after the other: two at once would draw the same nonce.
 */
export async function sendNativeTransfer(
  rpc: RpcClient,
  privateKey: string,
  to: string,
  amount: string,
  decimals: number,
): Promise<SentTransfer> {
  const key = `${rpc.httpUrl("query")} ${normalizePrivateKey(privateKey)}`;
  const previous = sending.get(key) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(() => sendNow(rpc, privateKey, to, amount, decimals));
  sending.set(key, next);
  void next.finally(() => sending.get(key) === next && sending.delete(key)).catch(() => undefined);
  return next;
}

/** Every call goes through the suite's JSON-RPC client, bounded by its deadline. */
async function sendNow(
  rpc: RpcClient,
  privateKey: string,
  to: string,
  amount: string,
  decimals: number,
): Promise<SentTransfer> {
  const { privateKeyToAccount } = await import("viem/accounts");
  const account = privateKeyToAccount(normalizePrivateKey(privateKey));
  const value = decimalToUnits(amount, decimals);
  if (value === undefined) throw new CheckFailed(`cannot send ${amount}: not a decimal amount`);
  const [chainId, nonce, gasPrice, balance] = await Promise.all([
    quantity(rpc, "eth_chainId"),
    quantity(rpc, "eth_getTransactionCount", [account.address, "pending"]),
    quantity(rpc, "eth_gasPrice"),
    quantity(rpc, "eth_getBalance", [account.address, "latest"]),
  ]);
  const gas = await quantity(rpc, "eth_estimateGas", [{ from: account.address, to, value: hex(value) }]).catch(
    () => 21_000n,
  );
  if (balance < value + gas * gasPrice)
    throw new CheckSkipped(`the faucet key ${account.address} has too little to deposit ${amount}`);
  const raw = await account.signTransaction({
    type: "legacy",
    chainId: Number(chainId),
    nonce: Number(nonce),
    to: to as Hex,
    value,
    gas,
    gasPrice,
  });
  const hash = await rpc.resultHttp("eth_sendRawTransaction", [raw]).catch((err: unknown) => {
    const message = err instanceof Error ? err.message : String(err);
    if (/insufficient funds/i.test(message))
      throw new CheckSkipped(`the faucet key ${account.address} has too little to deposit ${amount}`);
    throw new CheckFailed(
      `sending the deposit through the node access failed: ${message.split("\n")[0]}`,
      err instanceof CheckFailed ? err.evidence : undefined,
    );
  });
  if (typeof hash !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(hash))
    throw new CheckFailed(`eth_sendRawTransaction answered ${JSON.stringify(hash)}, not a transaction hash`);
  return { hash: hash as Hex, from: account.address };
}

/** A hex quantity result, or a failure naming the method and what it answered. */
async function quantity(rpc: RpcClient, method: string, params: unknown[] = []): Promise<bigint> {
  const result = await rpc.resultHttp(method, params);
  if (typeof result !== "string" || !/^0x[0-9a-fA-F]+$/.test(result))
    throw new CheckFailed(`${method} answered ${JSON.stringify(result)}, not a hex quantity`);
  return BigInt(result);
}

function hex(n: bigint): Hex {
  return `0x${n.toString(16)}`;
}
