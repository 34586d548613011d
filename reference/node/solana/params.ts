// Reading the parameters of Solana JSON-RPC calls: positional, with an optional config object last
// ({commitment, encoding, ...}), as Solana's RPC takes them. Every refusal is an RpcFault -32602 naming
// the parameter.
import { base58 } from "@scure/base";
import { addressBytes } from "../../../lib/solana/keys.ts";
import type { Commitment } from "../../chain/solana/runtime.ts";
import { INVALID_PARAMS, isPlainObject, RpcFault } from "../jsonrpc.ts";

export type Params = readonly unknown[];

export function paramsOf(request: Record<string, unknown>): Params {
  if (!Object.hasOwn(request, "params") || request.params === null) return [];
  if (Array.isArray(request.params)) return request.params;
  throw invalid("params must be an array");
}

export function invalid(message: string): RpcFault {
  return new RpcFault(INVALID_PARAMS, `Invalid params: ${message}`);
}

export function pubkeyAt(params: Params, i: number, what = "pubkey"): { text: string; bytes: Uint8Array } {
  const v = params[i];
  const bytes = typeof v === "string" ? addressBytes(v) : undefined;
  if (!bytes) throw invalid(`${what} (parameter ${i + 1}) must be a base58 public key of 32 bytes`);
  return { text: v as string, bytes };
}

export function configAt(params: Params, i: number): Record<string, unknown> {
  const v = params[i];
  if (v === undefined || v === null) return {};
  if (!isPlainObject(v)) throw invalid(`parameter ${i + 1} must be a configuration object`);
  return v;
}

const COMMITMENTS: Record<string, Commitment> = {
  processed: "processed",
  confirmed: "confirmed",
  finalized: "finalized",
  recent: "processed",
  single: "confirmed",
  singleGossip: "confirmed",
  root: "finalized",
  max: "finalized",
};

/** The config's commitment; Solana's RPC defaults to finalized. */
export function commitmentOf(config: Record<string, unknown>): Commitment {
  const c = config.commitment;
  if (c === undefined) return "finalized";
  const known = typeof c === "string" ? COMMITMENTS[c] : undefined;
  if (!known) throw invalid(`commitment must be processed, confirmed or finalized, got ${JSON.stringify(c)}`);
  return known;
}

export function stringAt(params: Params, i: number, what: string): string {
  const v = params[i];
  if (typeof v !== "string" || v.length === 0) throw invalid(`${what} (parameter ${i + 1}) must be a string`);
  return v;
}

export function integerAt(params: Params, i: number, what: string): number {
  const v = params[i];
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0)
    throw invalid(`${what} (parameter ${i + 1}) must be a non-negative integer`);
  return v;
}

/** Bytes of `text` in base58 (Solana's default for transactions) or base64. */
export function decodeEncoded(text: string, encoding: unknown, what: string): Uint8Array {
  const enc = encoding ?? "base58";
  try {
    if (enc === "base64") return new Uint8Array(Buffer.from(text, "base64"));
    if (enc === "base58") return base58.decode(text);
  } catch {
    throw invalid(`${what} is not valid ${String(enc)}`);
  }
  throw invalid(`encoding must be base58 or base64, got ${JSON.stringify(enc)}`);
}
