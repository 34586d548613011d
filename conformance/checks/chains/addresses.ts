// One address per family (the spec's address_type evm | sol | tron, AddressType of the real service's
// SDK): the Solana address is an Ed25519 public key, the same through getDepositAddress and the /web3
// wallet detail the SolanaSigner reads; the Tron address is base58check with Tron's 0x41 prefix, and
// (the spec's choice) the wallet's secp256k1 key's, so its 20 bytes are the EVM address's.
import { addressBytes, isOnCurve } from "../../../lib/solana/keys.ts";
import { tronAddressBytes } from "../../../lib/tron/address.ts";
import type { Check } from "../check.ts";
import { expectSuccess } from "../expect.ts";
import { fail } from "../outcome.ts";
import { addressOf } from "./shared.ts";

export const solanaAddress: Check = {
  id: "chains.solana-address",
  statements: ["s1.deposit-address-derived"],
  group: "chains",
  title:
    "A wallet's sol address is an Ed25519 public key (base58), the same in getDepositAddress and the /web3 wallet detail",
  severity: "MUST",
  seedRef: "§1 (the platform derives deposit addresses); assumed: address_type sol",
  level: "full",
  requires: ["wallet"],
  awaits: ["wallet"],
  sends: "getDepositAddress and getWeb3WalletDetail of the run's wallet with address_type=sol",
  async run(ctx) {
    const { walletId } = await ctx.need("wallet");
    const sol = await addressOf(ctx, walletId, "sol");
    const bytes = addressBytes(sol.address);
    if (!bytes) fail(`the sol address ${JSON.stringify(sol.address)} is not base58 of 32 bytes`, sol.evidence);
    if (!isOnCurve(bytes))
      fail(
        `the sol address ${sol.address} is not an Ed25519 public key (off the curve: no key can sign for it)`,
        sol.evidence,
      );
    if (sol.addressType !== "sol")
      fail(`getDepositAddress?address_type=sol answered address_type ${JSON.stringify(sol.addressType)}`, sol.evidence);
    const evm = await addressOf(ctx, walletId, "evm");
    if (evm.address === sol.address) fail("the sol address is the evm address", sol.evidence);
    const ex = await ctx.call("getWeb3WalletDetail", {
      params: { wallet_id: walletId },
      query: { address_type: "sol" },
    });
    const detail = expectSuccess(ex, ctx.operation("getWeb3WalletDetail")) as Record<string, unknown>;
    if (detail.address !== sol.address)
      fail(
        `the /web3 wallet detail says ${JSON.stringify(detail.address)}, getDepositAddress ${sol.address}`,
        ex.evidence,
      );
    if (detail.address_type !== "sol")
      fail(`the /web3 wallet detail answered address_type ${JSON.stringify(detail.address_type)} for sol`, ex.evidence);
    ctx.fact("sol_address", sol.address);
  },
};

export const tronAddress: Check = {
  id: "chains.tron-address",
  group: "chains",
  title: "A wallet's tron address is base58check of 0x41 and 20 bytes",
  severity: "MUST",
  seedRef: "assumed: address_type tron (Tron's base58check)",
  level: "full",
  requires: ["wallet"],
  awaits: ["wallet"],
  sends: "getDepositAddress of the run's wallet with address_type=tron",
  async run(ctx) {
    const { walletId } = await ctx.need("wallet");
    const tron = await addressOf(ctx, walletId, "tron");
    if (!tronAddressBytes(tron.address))
      fail(
        `the tron address ${JSON.stringify(tron.address)} is not base58check of 0x41 and 20 bytes (34 characters, valid checksum)`,
        tron.evidence,
      );
    if (tron.addressType !== "tron")
      fail(
        `getDepositAddress?address_type=tron answered address_type ${JSON.stringify(tron.addressType)}`,
        tron.evidence,
      );
  },
};

export const tronAddressSameKey: Check = {
  id: "chains.tron-address-same-key",
  group: "chains",
  title: "A wallet's tron address is its secp256k1 key's: the same 20 bytes as its evm address",
  severity: "SHOULD",
  seedRef: "assumed: the Tron address of the wallet's secp256k1 key",
  level: "full",
  requires: ["wallet"],
  awaits: ["wallet"],
  after: ["chains.tron-address"],
  sends: "getDepositAddress of the run's wallet with address_type=evm and address_type=tron",
  async run(ctx) {
    const { walletId } = await ctx.need("wallet");
    const tron = await addressOf(ctx, walletId, "tron");
    const evm = await addressOf(ctx, walletId, "evm");
    const bytes = tronAddressBytes(tron.address);
    if (!bytes)
      fail(
        `the tron address ${JSON.stringify(tron.address)} is not a Tron address (see chains.tron-address)`,
        tron.evidence,
      );
    const hex = `0x${Buffer.from(bytes).toString("hex")}`;
    if (hex.toLowerCase() !== evm.address.toLowerCase())
      fail(
        `the tron address ${tron.address} holds ${hex}, the evm address is ${evm.address}: another key`,
        tron.evidence,
      );
  },
};
