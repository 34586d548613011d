// The harness math: medians, ratios and result entries. Kept free of I/O so a test can pin it down.

/** Whether a bigger figure is better (throughput) or a smaller one (time, memory). */
export type Direction = "higher-is-better" | "lower-is-better";

/** One line of bench/results.json. ratio > 1 always means ours is better. */
export interface ResultEntry {
  name: string;
  ours: number | null;
  baseline_name: string;
  baseline: number | null;
  unit: string;
  ratio: number | null;
  /** Only when something needs saying: a crash, a policy, a dropped operation count. */
  note?: string;
}

/** Units whose figures are better when higher. Everything else (s, ms, MB, x) is better when lower. */
const HIGHER_IS_BETTER = new Set(["req/s", "calls/s", "ops/s", "msg/s"]);

export function directionOf(unit: string): Direction {
  return HIGHER_IS_BETTER.has(unit) ? "higher-is-better" : "lower-is-better";
}

/** Median of the finite values; NaN when there are none. */
export function median(values: readonly number[]): number {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The q-quantile (0..1) of the finite values by the nearest-rank method; NaN when there are none. */
export function percentile(values: readonly number[], q: number): number {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length))) - 1];
}

/**
 * ours compared with the baseline so that > 1 means ours is better:
 * baseline/ours for times and memory, ours/baseline for throughput. null when either is missing or zero.
 */
export function ratioOf(ours: number | null, baseline: number | null, direction: Direction): number | null {
  if (ours === null || baseline === null || !Number.isFinite(ours) || !Number.isFinite(baseline)) return null;
  if (ours <= 0 || baseline <= 0) return null;
  return direction === "higher-is-better" ? ours / baseline : baseline / ours;
}

/** Rounds to `digits` significant digits so the JSON stays readable. */
export function roundSignificant(value: number, digits = 4): number {
  if (!Number.isFinite(value) || value === 0) return value;
  const magnitude = Math.floor(Math.log10(Math.abs(value)));
  const factor = 10 ** (digits - 1 - magnitude);
  return Math.round(value * factor) / factor;
}

function cleanFigure(value: number | null | undefined): number | null {
  return value === null || value === undefined || !Number.isFinite(value) ? null : roundSignificant(value);
}

/** Builds an entry; the ratio follows from the unit. */
export function entry(
  name: string,
  ours: number | null,
  baselineName: string,
  baseline: number | null,
  unit: string,
  note?: string,
): ResultEntry {
  const o = cleanFigure(ours);
  const b = cleanFigure(baseline);
  const r = ratioOf(o, b, directionOf(unit));
  const result: ResultEntry = {
    name,
    ours: o,
    baseline_name: baselineName,
    baseline: b,
    unit,
    ratio: r === null ? null : roundSignificant(r, 3),
  };
  if (note) result.note = note;
  return result;
}

/**
 * Runs each contender `runs` times after `warmups` unmeasured rounds, interleaved (a b c a b c …) so
 * that drift of a shared machine hits every contender alike. Returns every measured sample per name.
 */
export async function alternate<T extends string>(
  contenders: ReadonlyArray<{ name: T; run: () => Promise<number> }>,
  options: { runs: number; warmups: number },
): Promise<Record<T, number[]>> {
  const samples = Object.fromEntries(contenders.map((c) => [c.name, [] as number[]])) as Record<T, number[]>;
  for (let round = 0; round < options.warmups + options.runs; round++) {
    for (const c of contenders) {
      const value = await c.run();
      if (round >= options.warmups) samples[c.name].push(value);
    }
  }
  return samples;
}
