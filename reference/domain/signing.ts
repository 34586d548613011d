// Message signing with a wallet's key: EIP-191 personal_sign (the "\x19Ethereum Signed Message:\n" +
// length prefix), so any EVM tool can recover the wallet address from the signature.
import { type Hex, isHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { SignedMessage } from "../../generated/types.ts";
import { badRequest } from "../../runtime/errors.ts";
import type { Actor } from "./records.ts";
import type { WalletService } from "./wallets.ts";

export class SigningService {
  constructor(private readonly wallets: WalletService) {}

  async signMessage(
    actor: Actor,
    walletId: string,
    input: { message: string; encoding?: "utf8" | "hex" },
  ): Promise<SignedMessage> {
    const wallet = this.wallets.readyWallet(actor, walletId, badRequest);
    const encoding = input.encoding ?? "utf8";
    if (encoding === "hex" && (!isHex(input.message, { strict: true }) || input.message.length % 2 !== 0)) {
      throw badRequest("message: with encoding hex it must be 0x followed by an even number of hex digits");
    }
    const account = privateKeyToAccount(this.wallets.privateKeyOf(wallet.id));
    const signature = await account.signMessage({
      message: encoding === "hex" ? { raw: input.message as Hex } : input.message,
    });
    return {
      wallet_id: wallet.id,
      address: wallet.address,
      message: input.message,
      signature,
      signature_scheme: "eip191",
    };
  }
}
