// The deployment's Solana JSON-RPC (--solana-rpc-url; the node-access key in api_key), over the bounded
// probe: the few calls the chains checks make, each failing with the exchange as evidence. Shapes are
// Solana's RPC (solana.com/docs/rpc): state answers are {context: {slot}, value}.
import { base58 } from "@scure/base";
import { keypairFromSeed, type SolanaKeypair, signBytes } from "../../lib/solana/keys.ts";
import { transferMessage } from "../../lib/solana/system-program.ts";
import { encodeTransaction } from "../../lib/solana/transaction.ts";
import { applyRpcAuth } from "../../runtime/jsonrpc/protocol.ts";
import { CheckFailed, CheckSkipped } from "../checks/outcome.ts";
import type { Evidence } from "../checks/types.ts";
import type { HttpExchange, HttpProbe } from "./probe.ts";

export type Commitment = "processed" | "confirmed" | "finalized";

export interface SignatureStatus {
  slot: number;
  err: unknown;
  confirmationStatus?: Commitment;
}

export class SolanaRpcClient {
  private nextId = 1;
  #lastExchange: HttpExchange | undefined;

  constructor(
    private readonly url: string,
    private readonly apiKey: string,
    private readonly http: HttpProbe,
    private readonly signal?: AbortSignal,
  ) {}

  /** The result of one call; a JSON-RPC error is a CheckFailed naming the method. */
  async result(method: string, params: unknown[] = []): Promise<unknown> {
    const { ex, body } = await this.call(method, params);
    if (body.error)
      throw new CheckFailed(`Solana RPC ${method}: error ${JSON.stringify(body.error).slice(0, 300)}`, ex.evidence);
    if (!("result" in body)) throw new CheckFailed(`Solana RPC ${method}: answer without result`, ex.evidence);
    return body.result;
  }

  async call(
    method: string,
    params: unknown[] = [],
  ): Promise<{ ex: HttpExchange; body: { result?: unknown; error?: { code?: unknown; message?: unknown } } }> {
    const ex = await this.http.send(
      {
        method: "POST",
        url: applyRpcAuth(this.url, this.apiKey, "query").url,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: this.nextId++, method, params }),
      },
      this.signal,
    );
    this.#lastExchange = ex;
    let body: unknown;
    try {
      body = JSON.parse(ex.response.text);
    } catch {
      throw new CheckFailed(`Solana RPC ${method}: HTTP ${ex.response.status} with no JSON-RPC answer`, ex.evidence);
    }
    if (body === null || typeof body !== "object" || Array.isArray(body))
      throw new CheckFailed(`Solana RPC ${method}: the answer is not a JSON-RPC object`, ex.evidence);
    return { ex, body: body as { result?: unknown; error?: { code?: unknown; message?: unknown } } };
  }

  /** The last exchange's evidence, for a failure found in its answer (built only when read). */
  get last(): Evidence | undefined {
    return this.#lastExchange?.evidence;
  }

  async latestBlockhash(
    commitment: Commitment = "confirmed",
  ): Promise<{ blockhash: string; lastValidBlockHeight: number }> {
    const r = (await this.result("getLatestBlockhash", [{ commitment }])) as {
      value?: { blockhash?: unknown; lastValidBlockHeight?: unknown };
    };
    const v = r?.value;
    if (
      typeof v?.blockhash !== "string" ||
      base58Bytes(v.blockhash)?.length !== 32 ||
      typeof v.lastValidBlockHeight !== "number"
    ) {
      throw new CheckFailed(`Solana RPC getLatestBlockhash answered ${JSON.stringify(r).slice(0, 200)}`, this.last);
    }
    return { blockhash: v.blockhash, lastValidBlockHeight: v.lastValidBlockHeight };
  }

  async balance(address: string, commitment: Commitment): Promise<bigint> {
    const r = (await this.result("getBalance", [address, { commitment }])) as { value?: unknown };
    if (typeof r?.value !== "number")
      throw new CheckFailed(`Solana RPC getBalance answered ${JSON.stringify(r).slice(0, 200)}`, this.last);
    return BigInt(r.value);
  }

  async signatureStatus(signature: string): Promise<SignatureStatus | null> {
    const r = (await this.result("getSignatureStatuses", [[signature], { searchTransactionHistory: true }])) as {
      value?: unknown[];
    };
    const s = r?.value?.[0];
    if (s === null || s === undefined) return null;
    return s as SignatureStatus;
  }

  async transaction(signature: string): Promise<Record<string, unknown> | null> {
    return (await this.result("getTransaction", [
      signature,
      { commitment: "confirmed", maxSupportedTransactionVersion: 0, encoding: "json" },
    ])) as Record<string, unknown> | null;
  }

  /** Sends base64 wire bytes; answers the signature the node reports. */
  async send(wire: Uint8Array): Promise<string> {
    const r = await this.result("sendTransaction", [
      Buffer.from(wire).toString("base64"),
      { encoding: "base64", preflightCommitment: "confirmed" },
    ]);
    if (typeof r !== "string")
      throw new CheckFailed(`Solana RPC sendTransaction answered ${JSON.stringify(r)}`, this.last);
    return r;
  }

  /** Waits until the signature has at least `commitment`; fails with its last status when it does not. */
  async waitFor(signature: string, commitment: Commitment, timeoutMs: number): Promise<SignatureStatus> {
    const rank = { processed: 0, confirmed: 1, finalized: 2 } as const;
    let last: SignatureStatus | null = null;
    let got: SignatureStatus | undefined;
    // A plain loop, not context.ts's pollUntil: context.ts imports this file.
    for (const deadline = Date.now() + timeoutMs; !this.signal?.aborted; ) {
      last = await this.signatureStatus(signature);
      if (last && rank[last.confirmationStatus ?? "processed"] >= rank[commitment]) {
        got = last;
        break;
      }
      if (Date.now() + 200 > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    if (!got)
      throw new CheckFailed(
        `transaction ${signature} did not reach ${commitment} within ${timeoutMs} ms (last status ${JSON.stringify(last)})`,
        this.last,
      );
    return got;
  }

  /** A throwaway keypair funded by requestAirdrop; a skip (not a failure) when the cluster has no faucet. */
  async fundedKeypair(lamports: bigint, timeoutMs: number): Promise<SolanaKeypair> {
    const payer = keypairFromSeed(crypto.getRandomValues(new Uint8Array(32)));
    const { ex, body } = await this.call("requestAirdrop", [
      payer.address,
      Number(lamports),
      { commitment: "confirmed" },
    ]);
    if (body.error || typeof body.result !== "string") {
      throw new CheckSkipped(
        `the Solana RPC refused requestAirdrop (${JSON.stringify(body.error ?? body.result).slice(0, 160)}): the SOL lifecycle checks need a cluster with a faucet`,
        undefined,
        "inapplicable",
      );
    }
    void ex;
    await this.waitFor(body.result, "confirmed", timeoutMs);
    return payer;
  }

  /** A System Program transfer signed by `from`, sent; answers its signature. */
  async transfer(from: SolanaKeypair, to: string, lamports: bigint): Promise<string> {
    const { blockhash } = await this.latestBlockhash("confirmed");
    const message = transferMessage(
      { from: from.publicKey, to: base58.decode(to), lamports },
      base58.decode(blockhash),
    );
    return this.send(encodeTransaction([signBytes(message, from.seed)], message));
  }
}

export function base58Bytes(text: string): Uint8Array | undefined {
  try {
    return base58.decode(text);
  } catch {
    return undefined;
  }
}
