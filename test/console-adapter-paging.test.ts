// The console and `custody trigger` read the newest records of oldest-first lists: latest() finds a
// list's end by probing, reads only its tail afterwards, and copes with a deployment that does not page.
import { describe, expect, it } from "vitest";
import { latest } from "../web/console/adapter.js";

/** A deployment's list operation over `rows`; `pages` false answers every row whatever the query. */
function listOf(rows: number[], pages = true) {
  const requests: Array<{ offset: number; limit: number }> = [];
  const call = async (_op: string, input: { query?: Record<string, string> }) => {
    const offset = Number(input.query?.offset ?? 0);
    const limit = Number(input.query?.limit ?? 20);
    requests.push({ offset, limit });
    return pages ? rows.slice(offset, offset + limit) : rows;
  };
  return { call, requests };
}

describe("latest()", () => {
  it("finds the end of a long list in a few probes and returns its tail, oldest first", async () => {
    const rows = Array.from({ length: 12_345 }, (_, i) => i);
    const { call, requests } = listOf(rows);
    expect(await latest(call, "op", { params: { a: "1" } }, 5)).toEqual([12_340, 12_341, 12_342, 12_343, 12_344]);
    expect(requests.length).toBeLessThan(35);
    // Later reads start just before the known end and pick up what was added.
    rows.push(12_345, 12_346);
    requests.length = 0;
    expect(await latest(call, "op", { params: { a: "1" } }, 3)).toEqual([12_344, 12_345, 12_346]);
    expect(requests).toEqual([{ offset: 12_342, limit: 100 }]);
  });

  it("finds the end again when the list shrank below it", async () => {
    const rows = Array.from({ length: 300 }, (_, i) => i);
    const { call } = listOf(rows);
    expect(await latest(call, "op", { params: { b: "1" } }, 2)).toEqual([298, 299]);
    rows.length = 10;
    expect(await latest(call, "op", { params: { b: "1" } }, 2)).toEqual([8, 9]);
  });

  it("reads a deployment that does not page once, and an empty list as empty", async () => {
    const { call, requests } = listOf([1, 2, 3, 4], false);
    expect(await latest(call, "op", { params: { c: "1" } }, 2)).toEqual([3, 4]);
    expect(requests.length).toBeLessThanOrEqual(2);
    expect(await latest(listOf([]).call, "op", { params: { d: "1" } }, 2)).toEqual([]);
  });
});
