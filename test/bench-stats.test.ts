// The benchmark harness's arithmetic: medians, which way a ratio points, interleaving, and the
// operation counting behind "operations dropped" and the 2x/4x certify specs. No timings asserted.
import { describe, expect, it } from "vitest";
import { multiplySpec } from "../bench/certify.ts";
import { countSpecOperations } from "../bench/generation.ts";
import { alternate, directionOf, entry, median, percentile, ratioOf, roundSignificant } from "../bench/stats.ts";
import { consoleTable, formatRatio } from "../bench/table.ts";

describe("median", () => {
  it("takes the middle value, or the mean of the two middle ones", () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it("ignores values that are not finite and is NaN for nothing", () => {
    expect(median([Number.NaN, 2, Number.POSITIVE_INFINITY, 4])).toBe(3);
    expect(median([])).toBeNaN();
  });
});

describe("percentile", () => {
  it("takes the nearest rank, ignoring what is not a number", () => {
    const hundred = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect([
      percentile(hundred, 0.5),
      percentile(hundred, 0.99),
      percentile(hundred, 1),
      percentile(hundred, 0),
    ]).toEqual([50, 99, 100, 1]);
    expect(percentile([3, Number.NaN, 1], 0.5)).toBe(1);
    expect(percentile([], 0.5)).toBeNaN();
  });
});

describe("ratios: > 1 means ours is better", () => {
  it("divides baseline by ours for times and memory", () => {
    expect(directionOf("s")).toBe("lower-is-better");
    expect(directionOf("MB")).toBe("lower-is-better");
    expect(ratioOf(2, 6, "lower-is-better")).toBe(3);
  });

  it("divides ours by baseline for throughput", () => {
    for (const unit of ["req/s", "calls/s", "ops/s", "msg/s"]) expect(directionOf(unit)).toBe("higher-is-better");
    expect(ratioOf(300, 1000, "higher-is-better")).toBeCloseTo(0.3);
  });

  it("has no ratio when a figure is missing or zero", () => {
    expect(ratioOf(null, 1, "lower-is-better")).toBeNull();
    expect(ratioOf(1, 0, "higher-is-better")).toBeNull();
    expect(ratioOf(Number.NaN, 1, "higher-is-better")).toBeNull();
  });

  it("builds entries with the ratio its unit implies and rounded figures", () => {
    expect(entry("gen", 1.23456, "peer", 4.9382, "s")).toEqual({
      name: "gen",
      ours: 1.235,
      baseline_name: "peer",
      baseline: 4.938,
      unit: "s",
      ratio: 4,
    });
    const crashed = entry("gen", 2, "peer", null, "s", "peer out of memory");
    expect(crashed.ratio).toBeNull();
    expect(crashed.note).toBe("peer out of memory");
    expect(roundSignificant(123456, 3)).toBe(123000);
  });
});

describe("alternate", () => {
  it("interleaves contenders round by round and drops the warm-ups", async () => {
    const order: string[] = [];
    let n = 0;
    const make = (name: string) => ({ name, run: async () => (order.push(name), ++n) });
    const samples = await alternate([make("a"), make("b")], { warmups: 1, runs: 2 });
    expect(order).toEqual(["a", "b", "a", "b", "a", "b"]);
    expect(samples).toEqual({ a: [3, 5], b: [4, 6] });
  });
});

describe("operation counting", () => {
  const spec = {
    openapi: "3.1.0",
    paths: {
      "/api/v1/a": { get: { operationId: "getA" }, post: { operationId: "postA" }, parameters: [] },
      "/api/v1/b/{id}": { delete: { operationId: "deleteB" } },
    },
    webhooks: { "x.y": { post: { operationId: "hook" } } },
  };

  it("counts operations under paths only", () => {
    expect(countSpecOperations(spec)).toBe(3);
  });

  it("multiplies operations under renamed paths and operationIds", () => {
    const x4 = multiplySpec(spec, 4) as { paths: Record<string, Record<string, { operationId: string }>> };
    expect(countSpecOperations(x4)).toBe(12);
    expect(x4.paths["/api/v1/c3/b/{id}"].delete.operationId).toBe("deleteBC3");
    const ids = Object.values(x4.paths).flatMap((item) =>
      ["get", "post", "delete"].filter((m) => item[m]).map((m) => item[m].operationId),
    );
    expect(new Set(ids).size).toBe(12);
  });
});

describe("table", () => {
  it("shows a missing figure and ratio as a dash", () => {
    const table = consoleTable([entry("gen", 2, "peer", null, "s", "peer timed out")]);
    expect(table).toContain("—");
    expect(table).toContain("peer timed out");
    expect(formatRatio(1.234)).toBe("1.23x");
  });
});
