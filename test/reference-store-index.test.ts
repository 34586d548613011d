// The state store's indexes and its large-directory reading: pages in creation order, records moving
// between buckets, buckets and unparsed records taken from a snapshot, a changed index definition
// rebuilt, journal changes after the snapshot refiled, the older snapshot format still read, and lines
// split across read chunks.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readLines } from "../reference/store/line-reader.ts";
import { StateStore } from "../reference/store/state-store.ts";

interface Thing {
  id: string;
  group: string;
  status: string;
}

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "custody-store-index-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const keysOf = (t: Thing) => [`group:${t.group}`, `group:${t.group}:status:${t.status}`];
const ids = (things: Thing[]) => things.map((t) => t.id);

function fill(store: StateStore, n: number): void {
  store.transact((tx) => {
    for (let i = 0; i < n; i++)
      tx.put<Thing>("things", { id: `t${i}`, group: i % 2 === 0 ? "even" : "odd", status: "new" });
  });
}

describe("indexes", () => {
  it("pages a bucket in creation order; a record that changes keys moves, in order, to its new bucket", () => {
    const store = StateStore.open();
    store.defineIndex<Thing>("things", keysOf);
    fill(store, 10);
    expect(ids(store.page<Thing>("things", "group:even", 1, 2))).toEqual(["t2", "t4"]);
    expect(store.count("things", "group:odd")).toBe(5);
    // t7 then t3 become done: the done bucket still lists them in creation order.
    store.transact((tx) => tx.put<Thing>("things", { id: "t7", group: "odd", status: "done" }));
    store.transact((tx) => tx.put<Thing>("things", { id: "t3", group: "odd", status: "done" }));
    expect(ids(store.page<Thing>("things", "group:odd:status:done", 0, 10))).toEqual(["t3", "t7"]);
    expect(ids(store.page<Thing>("things", "group:odd:status:new", 0, 10))).toEqual(["t1", "t5", "t9"]);
    // An update keeps the record's place in its unchanged buckets.
    expect(ids(store.page<Thing>("things", "group:odd", 0, 10))).toEqual(["t1", "t3", "t5", "t7", "t9"]);
    store.transact((tx) => tx.delete("things", "t5"));
    expect(ids([...store.scan<Thing>("things", "group:odd:status:new", "group:odd:status:done")])).toEqual([
      "t1",
      "t3",
      "t7",
      "t9",
    ]);
    expect(store.page("things", "group:none", 0, 5)).toEqual([]);
  });

  it("an index defined after records exist files them all", () => {
    const store = StateStore.open();
    fill(store, 6);
    store.defineIndex<Thing>("things", keysOf);
    expect(ids(store.page<Thing>("things", "group:even", 0, 10))).toEqual(["t0", "t2", "t4"]);
  });
});

describe("a large data directory", () => {
  it("reopens with the snapshot's buckets, parses a record only when it is read, and refiles what the journal changed", () => {
    const dir = tempDir();
    const a = StateStore.open({ dataDir: dir });
    a.defineIndex<Thing>("things", keysOf);
    fill(a, 300);
    a.compact();
    // After the snapshot: one record changes status, one is deleted, one is added.
    a.transact((tx) => tx.put<Thing>("things", { id: "t4", group: "even", status: "done" }));
    a.transact((tx) => tx.delete("things", "t6"));
    a.transact((tx) => tx.put<Thing>("things", { id: "t300", group: "even", status: "new" }));
    a.close();

    const parsed: string[] = [];
    const original = JSON.parse;
    JSON.parse = ((text: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) => {
      if (text.startsWith('{"id":"t')) parsed.push(text);
      return original(text, reviver);
    }) as typeof JSON.parse;
    let b: StateStore;
    try {
      b = StateStore.open({ dataDir: dir });
      const sampled = parsed.length;
      b.defineIndex<Thing>("things", keysOf);
      // The definition is checked on a sample (and the changed records refiled), not on every record.
      expect(parsed.length - sampled).toBeLessThan(40);
      expect(sampled).toBe(0);
    } finally {
      JSON.parse = original;
    }
    const evenNew = [
      ...Array.from({ length: 150 }, (_, i) => `t${2 * i}`).filter((id) => id !== "t4" && id !== "t6"),
      "t300",
    ];
    expect(ids(b.page<Thing>("things", "group:even:status:new", 0, 200))).toEqual(evenNew);
    expect(ids(b.page<Thing>("things", "group:even:status:done", 0, 10))).toEqual(["t4"]);
    expect(b.get<Thing>("things", "t6")).toBeUndefined();
    expect(b.get<Thing>("things", "t299")).toEqual({ id: "t299", group: "odd", status: "new" });
    expect(b.get("things", "t299")).toBe(b.get("things", "t299")); // parsed once, then kept
  });

  it("rebuilds an index whose definition changed since the snapshot", () => {
    const dir = tempDir();
    const a = StateStore.open({ dataDir: dir });
    a.defineIndex<Thing>("things", keysOf);
    fill(a, 8);
    a.close();
    const b = StateStore.open({ dataDir: dir });
    b.defineIndex<Thing>("things", (t) => [`by-status:${t.status}`, `group:${t.group}`]);
    expect(b.count("things", "by-status:new")).toBe(8);
    expect(b.count("things", "group:even:status:new")).toBe(0);
  });

  it("rebuilds an index whose definition reads the same but files records elsewhere (checked on a sample)", () => {
    const dir = tempDir();
    let prefix = "group";
    const byPrefix = (t: Thing) => [`${prefix}:${t.group}`];
    const a = StateStore.open({ dataDir: dir });
    a.defineIndex<Thing>("things", byPrefix);
    fill(a, 100);
    a.close();
    prefix = "team";
    const b = StateStore.open({ dataDir: dir });
    b.defineIndex<Thing>("things", byPrefix);
    expect(b.count("things", "team:even")).toBe(50);
    expect(b.count("things", "group:even")).toBe(0);
  });

  it("still opens a directory written in the first snapshot format", () => {
    const dir = tempDir();
    fs.writeFileSync(
      path.join(dir, "snapshot.json"),
      JSON.stringify({
        format: "custody-sandbox-snapshot/1",
        seq: 2,
        at: "x",
        meta: { k: 1 },
        collections: {
          things: { a: { id: "a", group: "even", status: "new" }, b: { id: "b", group: "odd", status: "new" } },
        },
      }),
    );
    fs.writeFileSync(
      path.join(dir, "journal.ndjson"),
      `${JSON.stringify({ seq: 3, at: "x", ops: [{ c: "things", id: "c", v: { id: "c", group: "even", status: "new" } }] })}\n`,
    );
    const store = StateStore.open({ dataDir: dir });
    store.defineIndex<Thing>("things", keysOf);
    expect(ids(store.page<Thing>("things", "group:even", 0, 10))).toEqual(["a", "c"]);
    expect(store.getMeta("k")).toBe(1);
    store.compact();
    store.close();
    expect(fs.existsSync(path.join(dir, "snapshot.json"))).toBe(false);
    const again = StateStore.open({ dataDir: dir });
    again.defineIndex<Thing>("things", keysOf);
    expect(ids(again.page<Thing>("things", "group:even", 0, 10))).toEqual(["a", "c"]);
  });

  it("reads lines that cross read chunks, and stops at a torn last line", () => {
    const dir = tempDir();
    const file = path.join(dir, "lines");
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i} ${"é".repeat(i)}`);
    fs.writeFileSync(file, `${lines.join("\n")}\nunterminated`);
    const got: string[] = [];
    const { acceptedBytes, totalBytes } = readLines(file, (text) => void got.push(text), 7);
    expect(got).toEqual(lines);
    expect(totalBytes - acceptedBytes).toBe(Buffer.byteLength("unterminated"));
  });
});
