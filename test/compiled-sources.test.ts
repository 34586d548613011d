// A clone runs its sources compiled to .custody-run/ (bin/compiled-sources.mjs): the output follows
// every change of a source (edited, removed), relative ".ts" imports point at the compiled files, and a
// file that does not compile is an error (bin/custody.js then falls back to tsx).
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error plain JavaScript without declarations
import { compiledSources } from "../bin/compiled-sources.mjs";

const root = mkdtempSync(join(tmpdir(), "custody-compiled-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, text: string, ageSeconds = 0): void {
  mkdirSync(join(root, path, ".."), { recursive: true });
  writeFileSync(join(root, path), text);
  const t = Date.now() / 1000 - ageSeconds;
  utimesSync(join(root, path), t, t);
}

async function run(out: string, name: string, exported = "value"): Promise<unknown> {
  // A query string per import: the ESM cache would otherwise answer the first version again.
  const mod = (await import(`${pathToFileURL(join(out, name)).href}?${Math.random()}`)) as Record<string, unknown>;
  return mod[exported];
}

describe("compiledSources", () => {
  write("tsconfig.build.json", JSON.stringify({ include: ["lib"] }));
  write("lib/a.ts", 'import { b } from "./b.ts";\nexport const value: string = `a+${b}`;\n', 60);
  write("lib/b.ts", "export const b: string = 'one';\n", 60);
  write("lib/a.test.ts", "throw new Error('tests are not compiled');\n", 60);
  write("lib/worker.mjs", "export const value = 'copied';\n", 60);

  it("compiles every source once, rewrites .ts imports, copies plain JavaScript, skips tests", async () => {
    const out = compiledSources(root);
    expect(await run(out, "lib/a.js")).toBe("a+one");
    expect(await run(out, "lib/worker.mjs")).toBe("copied");
    expect(existsSync(join(out, "lib/a.test.js"))).toBe(false);
  });

  it("recompiles a source changed since, and only that one", async () => {
    const before = statSync(join(root, ".custody-run/lib/a.js")).mtimeMs;
    write("lib/b.ts", "export const b: string = 'two';\n");
    const out = compiledSources(root);
    expect(await run(out, "lib/b.js", "b")).toBe("two");
    expect(statSync(join(out, "lib/a.js")).mtimeMs).toBe(before);
  });

  it("removes the output of a source that is gone", () => {
    rmSync(join(root, "lib/worker.mjs"));
    const out = compiledSources(root);
    expect(existsSync(join(out, "lib/worker.mjs"))).toBe(false);
  });

  it("throws on a source esbuild cannot compile", () => {
    write("lib/broken.ts", "export const = ;\n");
    expect(() => compiledSources(root)).toThrow();
    rmSync(join(root, "lib/broken.ts"));
  });
});
