// Solana signing through the /web3 operations, with the requests the real service's SolanaSigner sends
// (fystack/platform-sdk src/solanaSigner.ts): solana_signMessage through requestSign, then the
// signature (base58) read from getTransactionStatus; solana_signTransaction through signRawTransaction
// with the serialized transaction in data. Each signature must verify against the wallet's sol address.
import { base58 } from "@scure/base";
import { addressBytes, keypairFromSeed, signatureBytes, verifyBytes } from "../../../lib/solana/keys.ts";
import { transferMessage } from "../../../lib/solana/system-program.ts";
import { encodeTransaction } from "../../../lib/solana/transaction.ts";
import type { CheckContext } from "../../run/context.ts";
import type { Check } from "../check.ts";
import { fail } from "../outcome.ts";
import { acceptedId, addressOf, web3Result } from "./shared.ts";

/** A throwaway recipient (never funded, never signing). */
function randomAddress(): Uint8Array {
  return keypairFromSeed(crypto.getRandomValues(new Uint8Array(32))).publicKey;
}

/** A recent blockhash from the deployment's Solana RPC when given; signing does not need a live one. */
async function blockhash(ctx: CheckContext): Promise<Uint8Array> {
  const rpc = ctx.suite.solanaRpc(ctx.signal);
  return rpc
    ? base58.decode((await rpc.latestBlockhash("confirmed")).blockhash)
    : crypto.getRandomValues(new Uint8Array(32));
}

export const solanaSignMessage: Check = {
  id: "chains.solana-sign-message",
  statements: ["s1.other-groups"],
  group: "chains",
  title:
    "A solana_signMessage signature (base58, read as the SolanaSigner does) verifies against the wallet's sol address",
  severity: "MUST",
  seedRef: "§1 (signing group); assumed: solana_signMessage",
  level: "full",
  requires: ["wallet"],
  awaits: ["wallet"],
  timeoutScale: 2,
  sends: "requestSign with solana_signMessage, then getTransactionStatus until it answers a signature",
  async run(ctx) {
    const { walletId } = await ctx.need("wallet");
    const sol = await addressOf(ctx, walletId, "sol");
    const message = `custody certify ${Date.now()} — ünïcödé`;
    const id = acceptedId(
      ctx,
      "requestSign",
      await ctx.call("requestSign", {
        params: { wallet_id: walletId },
        body: { method: "solana_signMessage", message, chain_id: 0 },
      }),
    );
    const { hash, evidence } = await web3Result(ctx, walletId, id);
    const signature = signatureBytes(hash);
    if (!signature) fail(`the signature ${JSON.stringify(hash)} is not base58 of 64 bytes`, evidence);
    if (!verifyBytes(signature, new TextEncoder().encode(message), addressBytes(sol.address)!)) {
      fail(
        `the signature does not verify against the wallet's sol address ${sol.address} over the UTF-8 bytes of the message`,
        { ...evidence, details: { message, signature: hash } },
      );
    }
  },
};

export const solanaSignTransaction: Check = {
  id: "chains.solana-sign-transaction",
  statements: ["s1.other-groups"],
  group: "chains",
  title: "A solana_signTransaction signature verifies over the transaction's message against the wallet's sol address",
  severity: "MUST",
  seedRef: "§1 (signing group); assumed: solana_signTransaction",
  level: "full",
  requires: ["wallet"],
  awaits: ["wallet"],
  timeoutScale: 2,
  sends: "signRawTransaction with solana_signTransaction of a transfer built by the runner, then getTransactionStatus",
  async run(ctx) {
    const { walletId } = await ctx.need("wallet");
    const sol = await addressOf(ctx, walletId, "sol");
    const from = addressBytes(sol.address);
    if (!from) fail(`the sol address ${JSON.stringify(sol.address)} is not base58 of 32 bytes`, sol.evidence);
    const message = transferMessage({ from, to: randomAddress(), lamports: 1_000_000n }, await blockhash(ctx));
    const data = Buffer.from(encodeTransaction([new Uint8Array(64)], message)).toString("base64");
    const body = { data, from: sol.address, meta: { tx_method: "solana_signTransaction" }, chainId: "1399811149" };
    const id = acceptedId(
      ctx,
      "signRawTransaction",
      await ctx.call("signRawTransaction", { params: { wallet_id: walletId }, body }),
    );
    const { hash, evidence } = await web3Result(ctx, walletId, id);
    const signature = signatureBytes(hash);
    if (!signature) fail(`the signature ${JSON.stringify(hash)} is not base58 of 64 bytes`, evidence);
    if (!verifyBytes(signature, message, from))
      fail(`the signature does not verify over the transaction's message against ${sol.address}`, {
        ...evidence,
        details: { signature: hash },
      });
  },
};
