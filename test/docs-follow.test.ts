// Every page is true when followed to the letter: the README and each page of docs/ that takes part
// (has markers, test/support/doc-blocks.ts) is run block by block in an empty project where custody is
// installed from its packed tarball (no clone), and fails at the first step that does not do what the
// page says. Every shell, TypeScript, JavaScript and Python block of such a page is either run or says
// why not. The TypeScript files the pages write are type-checked after the last page, all in one tsc
// program (with a file that must not compile, to show the check names the page it fails for).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageRoot } from "../lib/package-root.ts";
import { markdownFiles } from "../scripts/reference-docs/links.ts";
import { blocksOf, CHECKED_LANGS, parseMarker, takesPart, unmarked } from "./support/doc-blocks.ts";
import { followPage, type PageTypeScript, stopAll, typeCheckPages } from "./support/doc-follow.ts";
import { type PackedInstall, packedInstall } from "./support/packed-install.ts";

const ROOT = packageRoot(import.meta.url);

const pages = ["README.md", ...markdownFiles(join(ROOT, "docs")).map((f) => relative(ROOT, f))].sort();
const text = (page: string) => readFileSync(join(ROOT, page), "utf8");
const runnable = pages.filter((p) => blocksOf(text(p)).some((b) => b.marker && b.marker.kind !== "not-run"));
const scratch = mkdtempSync(join(tmpdir(), "custody-docs-follow-"));
afterAll(async () => {
  await stopAll();
  rmSync(scratch, { recursive: true, force: true });
});

describe("doc markers", () => {
  it("every page with code blocks takes part, and marks each shell, TypeScript, JavaScript and Python block", () => {
    const withCode = pages.filter((p) => blocksOf(text(p)).some((b) => CHECKED_LANGS.has(b.lang)));
    expect(withCode.filter((p) => !takesPart(text(p)))).toEqual([]);
    const missing = withCode
      .filter(takesPartOf)
      .flatMap((p) => unmarked(text(p)).map((b) => `${p}:${b.line} (${b.lang})`));
    expect(missing).toEqual([]);
  });

  it("reads each kind of marker, and refuses one it cannot read", () => {
    expect(parseMarker('<!-- run: background until="wallet API" -->')).toEqual({
      kind: "run",
      exit: 0,
      background: true,
      until: "wallet API",
    });
    expect(parseMarker('<!-- run: exit=1 expect="HTTP 404" -->')).toEqual({
      kind: "run",
      exit: 1,
      background: false,
      expect: "HTTP 404",
    });
    expect(parseMarker("<!-- file: src/app.ts -->")).toEqual({ kind: "file", path: "src/app.ts" });
    expect(parseMarker("<!-- not-run: needs a deployment of your own -->")).toEqual({
      kind: "not-run",
      reason: "needs a deployment of your own",
    });
    expect(parseMarker("<!-- run: background -->")).toBeUndefined(); // background needs until=
    expect(parseMarker("<!-- not-run -->")).toBeUndefined(); // a reason is required
    const page = "<!-- run: exits=1 -->\n```sh\ntrue\n```\n\n```ts\nconst x = 1;\n```\n";
    expect(unmarked(page).map((b) => b.line)).toEqual([2, 6]);
  });

  it("the runner stops at the first step that does not do what the page says", async () => {
    const project = mkdtempSync(join(scratch, "runner-"));
    const page = [
      "<!-- run -->",
      "```sh",
      "export GREETING=hello && mkdir sub && cd sub",
      "```",
      '<!-- run: expect="hello from sub" -->',
      "```sh",
      'echo "$GREETING from $(basename "$PWD")"',
      "```",
      "<!-- run -->",
      "```sh",
      "false",
      "echo never",
      "```",
    ].join("\n");
    await expect(followPage(page, { page: "fake.md", project })).rejects.toThrow(
      /^fake\.md:10: exit 1, the page expects 0/,
    );
  });
});

describe("the pages' npx", () => {
  it("runs a bin the project installed (the nearest node_modules/.bin), and hands anything else to npm's npx", async () => {
    const project = mkdtempSync(join(scratch, "npx-"));
    const bin = join(project, "node_modules", ".bin");
    mkdirSync(bin, { recursive: true });
    // npm exec sets npm_command for what it runs: "direct" shows npm was not started.
    const hello = '#!/bin/sh\necho "hello $* from $(basename "$PWD"), ${npm_command:-direct}"\n';
    writeFileSync(join(bin, "hello"), hello, { mode: 0o755 });
    const page = [
      '<!-- run: expect="hello a b from sub, direct" -->',
      "```sh",
      "mkdir sub && cd sub && npx hello a b",
      "```",
      '<!-- run: expect="npm exec" -->',
      "```sh",
      "npx --help",
      "```",
    ].join("\n");
    // Cleared, as `npm test` itself sets it for this process.
    const followed = await followPage(page, { page: "npx.md", project, env: { npm_command: "" } });
    expect(followed.log).toHaveLength(2);
  });
});

/** A page whose TypeScript does not compile, checked with the real pages' files: only it may fail. */
async function wrongPage(): Promise<PageTypeScript> {
  const project = mkdtempSync(join(scratch, "wrong-types-"));
  const page = ["<!-- file: src/wrong.ts -->", "```ts", 'export const count: number = "three";', "```"].join("\n");
  const { typescript } = await followPage(page, { page: "wrong-types.md", project });
  return { page: "wrong-types.md", project, files: typescript };
}

describe("the pages, followed in an empty project with custody installed from its tarball", () => {
  let install: PackedInstall;
  const typescript: PageTypeScript[] = [];
  beforeAll(async () => {
    install = await packedInstall();
  }, 600_000);

  for (const page of runnable) {
    it(page, { timeout: 600_000 }, async () => {
      const project = mkdtempSync(join(scratch, `${page.replace(/\W+/g, "-")}-`));
      const env = { CUSTODY_SANDBOX_FILE: join(project, ".doc-state", "sandbox.json") };
      const followed = await followPage(text(page), {
        page,
        project,
        modules: join(install.project, "node_modules"),
        env,
      });
      console.log(followed.log.join("\n"));
      expect(followed.log.length).toBeGreaterThan(0);
      if (followed.typescript.length) typescript.push({ page, project, files: followed.typescript });
    });
  }

  it("the TypeScript the pages write compiles (one tsc program for all of them)", { timeout: 600_000 }, async () => {
    const pagesWithTypes = typescript.map((p) => p.page);
    const failures = await typeCheckPages(
      [...typescript, await wrongPage()],
      join(install.project, "node_modules"),
      scratch,
    );
    console.log(`type-checked: ${[...pagesWithTypes, "wrong-types.md"].join(", ")}`);
    expect(Object.keys(failures), JSON.stringify(failures, null, 2)).toEqual(["wrong-types.md"]);
    expect(failures["wrong-types.md"]).toMatch(
      /src\/wrong\.ts\(1,14\): error TS2322: Type 'string' is not assignable to type 'number'/,
    );
  });
});

function takesPartOf(page: string): boolean {
  return takesPart(text(page));
}
