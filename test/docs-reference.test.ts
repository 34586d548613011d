// The reference generated from the code stays true: `npm run docs -- --check` finds nothing stale,
// and a change to a declaration (a check's title, a new flag) makes its page stale, which CI reports.
// Relative links in every Markdown file of the repository resolve (files and headings).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { CERTIFY_OPTIONS } from "../cli/commands/certify.ts";
import { CATALOG } from "../conformance/checks/catalog.ts";
import { checksWithoutSends } from "../scripts/reference-docs/checks-page.ts";
import { counts, renderCounts } from "../scripts/reference-docs/counts.ts";
import { main, ROOT, stale } from "../scripts/reference-docs/index.ts";
import { brokenLinks, markdownFiles } from "../scripts/reference-docs/links.ts";

describe("the generated reference", () => {
  it("is up to date: `npm run docs -- --check` exits 0 (else run `npm run docs`)", async () => {
    // The script's main, in this process: the entry file only hands it process.argv.
    const printed: string[] = [];
    const log = vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void printed.push(args.join(" ")));
    const error = vi
      .spyOn(console, "error")
      .mockImplementation((...args: unknown[]) => void printed.push(args.join(" ")));
    try {
      expect(await main(["--check"])).toBe(0);
    } finally {
      log.mockRestore();
      error.mockRestore();
    }
    expect(printed.join("\n")).toContain("up to date");
  });

  it("goes stale when a check's title changes, and names the page", async () => {
    const check = CATALOG[0] as { title: string };
    const title = check.title;
    check.title = `${title} (changed)`;
    try {
      expect(await stale()).toEqual(["docs/reference/checks.md"]);
    } finally {
      check.title = title;
    }
  });

  it("goes stale when a flag is added: the CLI page and the config page", async () => {
    const options = CERTIFY_OPTIONS as Record<string, unknown>;
    options["body-limit"] = {
      type: "string",
      value: "BYTES",
      description: "stop reading an answer after this many bytes",
    };
    try {
      expect(await stale()).toEqual(["docs/reference/cli.md", "docs/reference/config.md"]);
    } finally {
      delete options["body-limit"];
    }
  });

  it("goes stale when what a check sends changes", async () => {
    const check = CATALOG[0] as { sends: string };
    const sends = check.sends;
    check.sends = `${sends} (changed)`;
    try {
      expect(await stale()).toEqual(["docs/reference/checks.md"]);
    } finally {
      check.sends = sends;
    }
  });

  it("every check says what it sends; one that says nothing is named by `npm run docs`", () => {
    expect(checksWithoutSends()).toEqual([]);
    const silent = { ...CATALOG[1], sends: " " };
    expect(checksWithoutSends([CATALOG[0], silent])).toEqual([silent.id]);
  });

  it("keeps the numbers prose gives for the contract true, and refuses a count it does not know", async () => {
    const values = await counts();
    const page =
      "<!-- generated:count:operations -->29<!-- /generated --> operations, <!-- generated:count:checks -->1<!-- /generated --> checks";
    expect(renderCounts("p.md", page, values)).toBe(
      `<!-- generated:count:operations -->${values.operations}<!-- /generated --> operations, <!-- generated:count:checks -->${CATALOG.length}<!-- /generated --> checks`,
    );
    expect(values.operations).toBeGreaterThan(values["seed-operations"]);
    expect(() => renderCounts("p.md", "<!-- generated:count:endpoints -->3<!-- /generated -->", values)).toThrow(
      /p\.md: unknown count 'endpoints'/,
    );
  });
});

describe("relative links in Markdown", () => {
  const scratch = mkdtempSync(join(tmpdir(), "custody-links-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("resolve in every .md file of the repository", () => {
    const files = markdownFiles(ROOT);
    expect(files.length).toBeGreaterThan(20);
    expect(brokenLinks(ROOT, files)).toEqual([]);
  });

  it("a missing file, a missing heading and a heading that exists are told apart", () => {
    const file = join(scratch, "page.md");
    writeFileSync(join(scratch, "other.md"), "# Other\n\n## The `custody certify` verdict\n");
    writeFileSync(
      file,
      "# Page\n\n[ok](other.md#the-custody-certify-verdict) [gone](missing.md) [anchor](other.md#nope) [web](https://x.test/a.md)\n```\n[code](not-checked.md)\n```\n",
    );
    expect(brokenLinks(scratch, [file])).toEqual([
      { file: "page.md", line: 3, target: "missing.md", problem: "missing.md does not exist" },
      { file: "page.md", line: 3, target: "other.md#nope", problem: "other.md has no heading #nope" },
    ]);
  });
});
