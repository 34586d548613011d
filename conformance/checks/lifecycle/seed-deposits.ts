// Deposits at seed level (§3 rules 2 and 3), judged on what the seed shows: the address of
// getDepositAddress (§4 shows its method and path), a transfer through the node access (§4.1), and
// operation 1 read at every block. A MUST only with --faucet-private-key (mustOnlyWith): without a
// funded key certify cannot make a deposit, and a seed-level run is not held back for it.
import type { SeedBalanceRead, SeedDepositFixture } from "../../provision/registry.ts";
import type { CheckContext } from "../../run/context.ts";
import type { Check } from "../check.ts";
import { fail } from "../outcome.ts";
import { decimalToUnits, NATIVE_DECIMALS, sameAmount, unitsToDecimal } from "../units.ts";
import { owned } from "./owned.ts";

/** How far `to` is above `from`, in base units: the strings read as whole coins, and as base units when both are integers. */
export function risesOf(from: string | undefined, to: string | undefined): bigint[] {
  const rises: bigint[] = [];
  const whole = [decimalToUnits(from, NATIVE_DECIMALS), decimalToUnits(to, NATIVE_DECIMALS)];
  if (whole[0] !== undefined && whole[1] !== undefined) rises.push(whole[1] - whole[0]);
  if (from !== undefined && to !== undefined && /^\d+$/.test(from) && /^\d+$/.test(to))
    rises.push(BigInt(to) - BigInt(from));
  return rises;
}

/** The rise in words: in base units when both strings are integers, else in whole coins. */
function riseText(from: string, to: string): string {
  const rises = risesOf(from, to);
  if (rises.length === 2) return `a rise of ${rises[1]} base units`;
  if (rises.length === 1) return `a change of ${unitsToDecimal(rises[0] < 0n ? -rises[0] : rises[0], NATIVE_DECIMALS)}`;
  return "a change certify cannot read as an amount";
}

const moved = (d: SeedDepositFixture, read: SeedBalanceRead) => !sameAmount(read.balance, d.before.balance);
const confirmations = (d: SeedDepositFixture, read: SeedBalanceRead) => read.head - d.txBlock + 1;
const needed = (d: SeedDepositFixture) => d.confirmationBlocks ?? 1;

/** Facts every deposit check reports: where the deposit went and how its confirmations were counted. */
function depositFacts(ctx: CheckContext, d: SeedDepositFixture): void {
  ctx.fact(
    "deposit",
    `${d.amount} to ${d.address} (getDepositAddress, ${d.addressForm}), tx ${d.txHash} in block ${d.txBlock}`,
  );
  ctx.fact(
    "confirmations",
    d.confirmationBlocks !== undefined
      ? `${d.confirmationBlocks} (network.confirmation_blocks of operation 1's answer)`
      : "the deployment shows no network.confirmation_blocks: judged against 1, the transaction's own block",
  );
  ctx.fact(
    "reads",
    `operation 1 read ${d.observations.length} times, heads ${d.observations[0]?.head}-${d.observations.at(-1)?.head}`,
  );
}

export const seedDepositConfirmation: Check = {
  id: "lifecycle.seed-deposit-confirmation",
  statements: ["s3.deposit-balance-when-confirmed", "s1.deposit-detected-then-confirmed", "s4.partial-deposit-address"],
  group: "lifecycle",
  title:
    "A deposit to the address of getDepositAddress leaves operation 1's balance unchanged until the network's confirmations, then raises it by the deposit",
  severity: "MUST",
  seedRef:
    "§3 deposit rule 2; §4 (getDepositAddress returns the deposit address; operation 1); §2.4 confirmation_blocks",
  level: "seed",
  requires: ["faucet"],
  awaits: ["seed-deposit"],
  skipsWithout: ["seed-deposit"],
  mustOnlyWith: "faucet",
  sends:
    "getDepositAddress (the path alone, else ?asset_id=), a transfer from --faucet-private-key through the node access, then getWalletOverview and eth_blockNumber at every block until the balance moved past the confirmations",
  async run(ctx) {
    const d = await owned(ctx, "seed-deposit");
    depositFacts(ctx, d);
    for (const read of d.observations) {
      if (moved(d, read) && confirmations(d, read) < needed(d))
        fail(
          `operation 1 showed balance ${read.balance} (was ${d.before.balance}) with ${confirmations(d, read)} of ${needed(d)} confirmations (head ${read.head}, deposit mined in ${d.txBlock})`,
          read.evidence,
        );
    }
    const after = d.observations.filter((r) => moved(d, r));
    const last = d.observations.at(-1);
    if (after.length === 0)
      fail(
        `operation 1's balance stayed ${d.before.balance} ${last ? `up to head ${last.head}` : ""}, ${d.graceMs} ms past the deposit's ${needed(d)} confirmations (mined in ${d.txBlock}): the deposit of ${d.amount} never reached it`,
        last?.evidence,
      );
    for (const read of after) {
      if (!risesOf(d.before.balance, read.balance).includes(d.amountUnits))
        fail(
          `operation 1's balance went from ${d.before.balance} to ${read.balance}: ${riseText(d.before.balance, read.balance)}, not the deposit of ${d.amount} (${d.amountUnits} wei)`,
          read.evidence,
        );
    }
    const [whole] = risesOf(d.before.balance, after[0].balance);
    ctx.fact("unit", whole === d.amountUnits ? "whole coins" : "base units (wei)");
  },
};

export const seedDepositNoApproval: Check = {
  id: "lifecycle.seed-deposit-no-approval",
  statements: ["s3.deposit-no-approval", "s1.deposits-no-approval"],
  group: "lifecycle",
  title: "A confirmed deposit reaches operation 1's balance with no approval given, none of it held",
  severity: "MUST",
  seedRef: "§3 deposit rule 3; §1 (deposits never need approval); §2.2 on_hold, available_balance",
  level: "seed",
  requires: ["faucet"],
  awaits: ["seed-deposit"],
  skipsWithout: ["seed-deposit"],
  mustOnlyWith: "faucet",
  sends: "nothing of its own: it judges the deposit of lifecycle.seed-deposit-confirmation (certify approves nothing)",
  async run(ctx) {
    const d = await owned(ctx, "seed-deposit");
    depositFacts(ctx, d);
    const last = d.observations.at(-1);
    const held = last ? heldPart(d, last) : undefined;
    if (!d.observations.some((r) => moved(d, r)))
      fail(
        `certify approved nothing, and ${d.graceMs} ms past its ${needed(d)} confirmations the deposit of ${d.amount} was still not in operation 1's balance (${d.before.balance})${held ? `; ${held}` : ""}: a deposit never requires an approval`,
        last?.evidence,
      );
    if (held)
      fail(`the deposit reached the balance, but ${held}: a deposit never requires an approval`, last?.evidence);
  },
};

/** What of the deposit operation 1 shows held: on_hold up by it, or available_balance not up while the balance is. */
function heldPart(d: SeedDepositFixture, read: SeedBalanceRead): string | undefined {
  if (read.onHold !== undefined && risesOf(d.before.onHold ?? "0", read.onHold).includes(d.amountUnits))
    return `on_hold rose by it (${d.before.onHold ?? "absent"} → ${read.onHold})`;
  if (
    moved(d, read) &&
    read.available !== undefined &&
    d.before.available !== undefined &&
    sameAmount(read.available, d.before.available)
  )
    return `available_balance stayed ${read.available}`;
  return undefined;
}
