// The Solana half of the /web3 signing flow, as the real service's SolanaSigner drives it
// (fystack/platform-sdk src/solanaSigner.ts): solana_signMessage through requestSign, and through
// signRawTransaction either {data, from, meta: {tx_method: solana_signTransaction}} (sign only) or
// {transaction, from, method: solana_signAndSendTransaction} (sign and send). Every answer is a base58
// Ed25519 signature by the wallet's Solana key; a sent transaction's id is that signature.
import { base58 } from "@scure/base";
import type { Web3SignRawRequest } from "../../generated/types.ts";
import { signBytes } from "../../lib/solana/keys.ts";
import {
  decodeTransaction,
  encodeTransaction,
  signerKeys,
  type Transaction,
  WireFormatError,
} from "../../lib/solana/transaction.ts";
import { badRequest } from "../../runtime/errors.ts";
import type { DomainContext } from "./context.ts";
import type { SignRequestRecord, WalletRecord } from "./records.ts";
import type { WalletService } from "./wallets.ts";

export type SolanaRawMethod = "solana_signTransaction" | "solana_signAndSendTransaction";

/** The Solana flow a signRawTransaction body asks for, or undefined for an EVM transaction. */
export function solanaRawMethod(body: Web3SignRawRequest): SolanaRawMethod | undefined {
  return body.method ?? body.meta?.tx_method;
}

export function isSolanaMethod(method: string): boolean {
  return method.startsWith("solana_");
}

export class SolanaWeb3 {
  constructor(
    private readonly ctx: DomainContext,
    private readonly wallets: WalletService,
  ) {}

  /** Refuses (400) what can never be signed, before the request is accepted. */
  checkRaw(wallet: WalletRecord & { address: string }, body: Web3SignRawRequest, method: SolanaRawMethod): void {
    const keypair = this.wallets.solanaKeypairOf(wallet.id);
    if (body.from != null && body.from !== keypair.address)
      throw badRequest(`from: ${body.from} is not this wallet's Solana address (${keypair.address})`);
    const tx = this.decode(body, method);
    if (!signerKeys(tx.message).some((k) => base58.encode(k) === keypair.address)) {
      throw badRequest(
        `${method === "solana_signTransaction" ? "data" : "transaction"}: the transaction does not need this wallet's signature (its signers are ${signerKeys(
          tx.message,
        )
          .map((k) => base58.encode(k))
          .join(", ")})`,
      );
    }
    if (method === "solana_signAndSendTransaction" && !this.ctx.solana)
      throw badRequest(
        "transaction: this sandbox runs without its Solana runtime, so it cannot send; solana_signTransaction still signs",
      );
  }

  /** The base58 signature of the UTF-8 bytes of message, exactly as sent. */
  signMessage(r: SignRequestRecord): string {
    const message = String((r.body as { message?: unknown }).message ?? "");
    return base58.encode(signBytes(new TextEncoder().encode(message), this.wallets.solanaKeypairOf(r.wallet_id).seed));
  }

  /** Signs the transaction's message; sends it for signAndSend. Answers the wallet's signature (base58). */
  signRaw(r: SignRequestRecord): string {
    const method = r.method as SolanaRawMethod;
    const body = r.body as Web3SignRawRequest;
    const keypair = this.wallets.solanaKeypairOf(r.wallet_id);
    const tx = this.decode(body, method);
    const signature = signBytes(tx.messageBytes, keypair.seed);
    if (method === "solana_signTransaction") return base58.encode(signature);
    const index = signerKeys(tx.message).findIndex((k) => base58.encode(k) === keypair.address);
    const signatures = tx.signatures.map((s, i) => (i === index ? signature : s));
    const node = this.ctx.solana;
    if (!node) throw new Error("the Solana runtime is not running");
    return node.sendTransaction(encodeTransaction(signatures, tx.messageBytes));
  }

  private decode(body: Web3SignRawRequest, method: SolanaRawMethod): Transaction {
    const field = method === "solana_signTransaction" ? "data" : "transaction";
    const text =
      (method === "solana_signTransaction" ? (body.data ?? body.transaction) : (body.transaction ?? body.data)) ?? "";
    if (text === "" || /^0x/.test(text))
      throw badRequest(`${field}: the serialized Solana transaction, base64, is required for ${method}`);
    try {
      return decodeTransaction(new Uint8Array(Buffer.from(text, "base64")));
    } catch (error) {
      throw badRequest(
        `${field}: not a serialized Solana transaction (${error instanceof WireFormatError ? error.message : "unreadable"})`,
      );
    }
  }
}
