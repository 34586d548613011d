// The sandbox's state store: what was committed survives a reopen, a torn last line is dropped,
// compaction keeps everything, and a crash between snapshot and journal truncation loses nothing.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseJournal } from "../reference/store/journal.ts";
import { StateStore } from "../reference/store/state-store.ts";

const dirs: string[] = [];
function tempDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "custody-store-"));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe("StateStore", () => {
  it("keeps committed records and meta across a reopen", () => {
    const dir = tempDir();
    const a = StateStore.open({ dataDir: dir });
    a.transact((tx) => {
      tx.put("things", { id: "t1", n: 1 });
      tx.put("things", { id: "t2", n: 2 });
      tx.setMeta("cursor", "7");
    });
    a.transact((tx) => {
      tx.put("things", { id: "t1", n: 10 });
      tx.delete("things", "t2");
    });
    // no close(): simulates a crash after the last commit returned
    const b = StateStore.open({ dataDir: dir });
    expect(b.list("things")).toEqual([{ id: "t1", n: 10 }]);
    expect(b.getMeta("cursor")).toBe("7");
  });

  it("applies nothing of a transaction that throws", () => {
    const dir = tempDir();
    const a = StateStore.open({ dataDir: dir });
    expect(() =>
      a.transact((tx) => {
        tx.put("things", { id: "t1" });
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(a.get("things", "t1")).toBeUndefined();
    expect(StateStore.open({ dataDir: dir }).get("things", "t1")).toBeUndefined();
  });

  it("drops a torn last line (a crash mid-append) and keeps appending cleanly", () => {
    const dir = tempDir();
    const a = StateStore.open({ dataDir: dir });
    a.transact((tx) => tx.put("things", { id: "t1" }));
    fs.appendFileSync(path.join(dir, "journal.ndjson"), '{"seq":2,"at":"x","ops":[{"c":"things","id":"t2","v"');
    const b = StateStore.open({ dataDir: dir });
    expect(b.list("things").map((r: any) => r.id)).toEqual(["t1"]);
    b.transact((tx) => tx.put("things", { id: "t3" }));
    const c = StateStore.open({ dataDir: dir });
    expect(c.list("things").map((r: any) => r.id)).toEqual(["t1", "t3"]);
  });

  it("compacts into a snapshot and empties the journal", () => {
    const dir = tempDir();
    const a = StateStore.open({ dataDir: dir, compactAfterLines: 10 });
    for (let i = 0; i < 25; i++) a.transact((tx) => tx.put("things", { id: `t${i}`, i }));
    expect(fs.existsSync(path.join(dir, "snapshot.ndjson"))).toBe(true);
    expect(parseJournal(fs.readFileSync(path.join(dir, "journal.ndjson"), "utf8")).lines.length).toBeLessThan(10);
    const b = StateStore.open({ dataDir: dir });
    expect(b.list("things")).toHaveLength(25);
  });

  it("loses nothing when a crash leaves journal lines the snapshot already covers", () => {
    const dir = tempDir();
    const a = StateStore.open({ dataDir: dir });
    a.transact((tx) => tx.put("things", { id: "t1", v: 1 }));
    a.transact((tx) => tx.put("things", { id: "t1", v: 2 }));
    const journal = fs.readFileSync(path.join(dir, "journal.ndjson"), "utf8");
    a.compact();
    // Put back the lines compaction removed, as if it had crashed before truncating the journal,
    // then add a newer one: replay must skip the covered lines and apply only the newer one.
    fs.writeFileSync(
      path.join(dir, "journal.ndjson"),
      `${journal + JSON.stringify({ seq: 3, at: "x", ops: [{ c: "things", id: "t2", v: { id: "t2" } }] })}\n`,
    );
    const b = StateStore.open({ dataDir: dir });
    expect(b.get("things", "t1")).toEqual({ id: "t1", v: 2 });
    expect(b.get("things", "t2")).toEqual({ id: "t2" });
  });

  it("copies records, so mutating an object after put changes nothing committed", () => {
    const s = StateStore.open();
    const rec = { id: "t1", tags: ["a"] };
    s.transact((tx) => tx.put("things", rec));
    rec.tags.push("b");
    expect(s.get<typeof rec>("things", "t1")?.tags).toEqual(["a"]);
  });

  it("adopts a record without a copy but frozen through and through, so nothing can change it after the commit, and journals it", () => {
    const dir = tempDir();
    const s = StateStore.open({ dataDir: dir });
    const rec = { id: "t1", tags: ["a"], attempts: [{ n: 1 }] };
    s.transact((tx) => tx.adopt("things", rec));
    expect(s.get("things", "t1")).toBe(rec);
    expect(() => rec.tags.push("b")).toThrow(TypeError);
    expect(() => {
      rec.attempts[0].n = 2;
    }).toThrow(TypeError);
    s.close();
    expect(StateStore.open({ dataDir: dir }).get("things", "t1")).toEqual({
      id: "t1",
      tags: ["a"],
      attempts: [{ n: 1 }],
    });
  });

  it("writes the journal with owner-only permissions", () => {
    const dir = tempDir();
    const s = StateStore.open({ dataDir: dir });
    s.transact((tx) => tx.put("things", { id: "t1" }));
    expect(fs.statSync(path.join(dir, "journal.ndjson")).mode & 0o077).toBe(0);
  });

  it("refuses a data directory another live process holds, and takes over a stale lock", async () => {
    const dir = tempDir();
    const other = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
    try {
      fs.writeFileSync(path.join(dir, "lock"), String(other.pid));
      expect(() => StateStore.open({ dataDir: dir })).toThrow(`in use by process ${other.pid}`);
    } finally {
      other.kill("SIGKILL");
      await new Promise((r) => other.once("exit", r));
    }
    const s = StateStore.open({ dataDir: dir });
    expect(fs.readFileSync(path.join(dir, "lock"), "utf8")).toBe(String(process.pid));
    s.close();
    expect(fs.existsSync(path.join(dir, "lock"))).toBe(false);
  });
});
