// Amounts on the API are decimal strings in whole asset units ("0.5" ETH); on chain they are integers
// of the smallest unit (wei). Parsing is strict: a plain positive decimal, no sign, no exponent, no more
// fraction digits than the asset has, so "1e18" or "0.0000000000000000001" is refused, never rounded.
import { formatUnits } from "viem";

const DECIMAL = /^(0|[1-9][0-9]*)(\.[0-9]+)?$/;

/** Smallest units of `amount`, or undefined when it is not a plain decimal with at most `decimals` places. */
export function parseAmount(amount: string, decimals: number): bigint | undefined {
  if (typeof amount !== "string" || amount.length > 80 || !DECIMAL.test(amount)) return undefined;
  const [whole, fraction = ""] = amount.split(".");
  const digits = fraction.replace(/^\./, "");
  if (digits.length > decimals) return undefined;
  return BigInt(whole) * 10n ** BigInt(decimals) + BigInt(digits.padEnd(decimals, "0") || "0");
}

export function formatAmount(units: bigint, decimals: number): string {
  return formatUnits(units, decimals);
}

/** `units` (of an asset with `decimals`) times a USD price, with 2 decimals, rounded half up. */
export function usdValue(units: bigint, decimals: number, priceUsd: string): string {
  const cents = parseAmount(priceUsd, 2);
  if (cents === undefined) return "0.00";
  const scale = 10n ** BigInt(decimals);
  const totalCents = (units * cents * 2n + scale) / (2n * scale);
  const whole = totalCents / 100n;
  const rest = (totalCents % 100n).toString().padStart(2, "0");
  return `${whole}.${rest}`;
}
