// Amounts in the API are decimal strings in whole asset units ("0.5"); the chain counts base units.

/** "0.01" with 18 decimals → 10000000000000000n; undefined when it is not a plain decimal string. */
export function decimalToUnits(value: unknown, decimals: number): bigint | undefined {
  if (typeof value !== "string" || !/^\d+(\.\d+)?$/.test(value.trim())) return undefined;
  const [whole, fraction = ""] = value.trim().split(".");
  if (fraction.replace(/0+$/, "").length > decimals) return undefined;
  return BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, "0").slice(0, decimals) || "0");
}

export function unitsToDecimal(units: bigint, decimals: number): string {
  const base = 10n ** BigInt(decimals);
  const whole = units / base;
  const fraction = (units % base).toString().padStart(decimals, "0").replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : whole.toString();
}

/** The balance field of a WalletBalance (seed 2.2 names three; the first present wins). */
export function balanceOf(record: unknown): string | undefined {
  const r = (record ?? {}) as Record<string, unknown>;
  for (const key of ["balance", "total_balance", "available_balance"])
    if (typeof r[key] === "string") return r[key] as string;
  return undefined;
}

/** The asset an overview entry names: `asset_id`, else `asset.id` (both shapes are in use); undefined when none. */
export function assetIdOf(record: unknown): string | undefined {
  const r = (record ?? {}) as Record<string, unknown>;
  if (typeof r.asset_id === "string") return r.asset_id;
  const nested = (r.asset ?? {}) as Record<string, unknown>;
  return typeof nested.id === "string" ? nested.id : undefined;
}

/** The native coin of an EVM network counts in wei (18 decimals). */
export const NATIVE_DECIMALS = 18;

/** Two balance strings of one amount ("1.50" and "1.5"); compared as text when either is not a decimal. */
export function sameAmount(a: string, b: string): boolean {
  const x = decimalToUnits(a, NATIVE_DECIMALS + 60);
  const y = decimalToUnits(b, NATIVE_DECIMALS + 60);
  return x !== undefined && y !== undefined ? x === y : a === b;
}
