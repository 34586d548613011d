// The clone runs .custody-run/'s entry points bundled (bin/bundled-entries.mjs), split where they
// import on demand: a bundled module still sees its own URL (relative files, workers), CommonJS stays
// node's to load, and a bundle follows every change of a file it was made from.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error plain JavaScript without declarations
import { bundledEntry } from "../bin/bundled-entries.mjs";

const root = mkdtempSync(join(tmpdir(), "custody-bundled-"));
const runDir = join(root, ".custody-run");
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, text: string, ageSeconds = 0): void {
  mkdirSync(join(root, path, ".."), { recursive: true });
  writeFileSync(join(root, path), text);
  const t = Date.now() / 1000 - ageSeconds;
  utimesSync(join(root, path), t, t);
}

async function run(bundle: string): Promise<Record<string, unknown>> {
  // A query string per import: the ESM cache would otherwise answer the first version again.
  return (await import(`${pathToFileURL(bundle).href}?${Math.random()}`)) as Record<string, unknown>;
}

describe("bundledEntry", () => {
  write("package.json", JSON.stringify({ type: "module" }));
  write(".custody-run/lib/where.js", "export const where = import.meta.url;\n", 60);
  write(".custody-run/lib/data.txt", "beside where.js\n", 60);
  write(
    ".custody-run/cli/main.js",
    [
      'import { readFileSync } from "node:fs";',
      'import { where } from "../lib/where.js";',
      'import counter from "../node_modules/counter/index.js";',
      "export const url = where;",
      'export const beside = readFileSync(new URL("./data.txt", where), "utf8").trim();',
      "export const shared = counter;",
      "",
    ].join("\n"),
    60,
  );
  write(".custody-run/node_modules/counter/package.json", JSON.stringify({ type: "commonjs" }), 60);
  write(".custody-run/node_modules/counter/index.js", "module.exports = { file: __filename };\n", 60);

  it("keeps each module's own URL and leaves CommonJS to node", async () => {
    const bundle = await bundledEntry(runDir, "cli/main.js");
    const mod = await run(bundle);
    expect(mod.url).toBe(pathToFileURL(join(runDir, "lib/where.js")).href);
    expect(mod.beside).toBe("beside where.js");
    expect((mod.shared as { file: string }).file).toBe(join(runDir, "node_modules/counter/index.js"));
    expect(readFileSync(bundle, "utf8")).not.toContain("module.exports");
  });

  it("is not rebuilt while its files are unchanged, and is after one changes", async () => {
    const bundle = await bundledEntry(runDir, "cli/main.js");
    const built = statSync(bundle).mtimeMs;
    expect(statSync(await bundledEntry(runDir, "cli/main.js")).mtimeMs).toBe(built);
    write(".custody-run/lib/where.js", "export const where = `${import.meta.url}#changed`;\n", -2); // newer than the bundle
    const mod = await run(await bundledEntry(runDir, "cli/main.js"));
    expect(mod.url).toBe(`${pathToFileURL(join(runDir, "lib/where.js")).href}#changed`);
  });

  it("runs the modules unbundled while another process bundles, and takes over a lock left by a dead one", async () => {
    write(".custody-run/lib/where.js", `export const where = \`\${import.meta.url}#again\`;\n`, -4); // stale bundle
    const lock = join(runDir, "bundles/cli-main.lock");
    writeFileSync(lock, "");
    expect(await bundledEntry(runDir, "cli/main.js")).toBe(join(runDir, "cli/main.js"));
    const old = Date.now() / 1000 - 600;
    utimesSync(lock, old, old);
    const mod = await run(await bundledEntry(runDir, "cli/main.js"));
    expect(mod.url).toBe(`${pathToFileURL(join(runDir, "lib/where.js")).href}#again`);
    expect(existsSync(lock)).toBe(false);
  });

  it("splits where the entry imports on demand: what it imports so is loaded only when asked for", async () => {
    // The CommonJS package notes each load in a file (a global would outlive this test in a shared process).
    const loads = join(root, "weight-loads.txt");
    write(".custody-run/cli/lazy.js", 'export const heavy = () => import("./heavy.js");\n');
    write(".custody-run/cli/heavy.js", 'import weight from "../node_modules/weight/index.js";\nexport { weight };\n');
    write(".custody-run/node_modules/weight/package.json", JSON.stringify({ type: "commonjs" }));
    write(
      ".custody-run/node_modules/weight/index.js",
      `require("node:fs").appendFileSync(${JSON.stringify(loads)}, "loaded\\n");\nmodule.exports = 42;\n`,
    );
    const loaded = () => (existsSync(loads) ? readFileSync(loads, "utf8").split("\n").length - 1 : 0);
    const bundle = await bundledEntry(runDir, "cli/lazy.js");
    const chunks = readdirSync(join(bundle, "..")).filter((f) => f.startsWith("chunk-"));
    expect(chunks.length).toBeGreaterThan(0);
    expect(readFileSync(bundle, "utf8")).not.toContain("node_modules/weight");
    const mod = (await run(bundle)) as { heavy: () => Promise<{ weight: number }> };
    expect(loaded()).toBe(0);
    expect((await mod.heavy()).weight).toBe(42);
    expect(loaded()).toBe(1);
  });

  it("throws on an entry esbuild cannot bundle", async () => {
    write(".custody-run/cli/broken.js", 'import { missing } from "./nowhere.js";\nexport const x = missing;\n');
    await expect(bundledEntry(runDir, "cli/broken.js")).rejects.toThrow();
  });
});
