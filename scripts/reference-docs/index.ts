// The reference generated from the code: `npm run docs` writes it, `npm run docs -- --check` writes
// nothing and exits 1 naming each stale page (test/docs-reference.test.ts runs the check in npm test).
// Whole pages under docs/reference/, and marked regions of hand-written pages
// (<!-- generated:NAME:begin --> … <!-- generated:NAME:end -->), and the numbers that prose in the
// README and docs/ gives for the contract (<!-- generated:count:NAME -->40<!-- /generated -->, counts.ts).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { loadGeneratedOperations } from "../../conformance/run/operations.ts";
import { packageRoot } from "../../lib/package-root.ts";
import { actionSection } from "./action-section.ts";
import { checksPage, checksWithoutSends } from "./checks-page.ts";
import { cliPage } from "./cli-page.ts";
import { commandsSection } from "./commands-section.ts";
import { configPage } from "./config-page.ts";
import { counts, generateOutput, hasCounts, renderCounts } from "./counts.ts";
import { decisionsPage } from "./decisions-page.ts";
import { diffChecksPage } from "./diff-checks-page.ts";
import { markdownFiles } from "./links.ts";

export const ROOT = packageRoot(import.meta.url);

interface Output {
  /** Relative to the repository root. */
  path: string;
  /** The file's whole new text, given its current text (undefined when it does not exist). */
  render(current: string | undefined): string;
}

/** Every generated page and region. */
export async function outputs(): Promise<Output[]> {
  const operations = await loadGeneratedOperations();
  const page = (path: string, render: () => string): Output => ({ path, render: () => `${render().trimEnd()}\n` });
  return [
    page("docs/reference/cli.md", cliPage),
    page("docs/reference/config.md", configPage),
    page("docs/reference/checks.md", () => checksPage(operations)),
    page("docs/reference/assumed-decisions.md", decisionsPage),
    page("docs/reference/diff-checks.md", diffChecksPage),
    region("docs/guides/certify-in-ci.md", "action", actionSection),
    region("README.md", "commands", commandsSection),
    region("docs/guides/generate-and-publish-an-sdk.md", "generate-output", await generateOutput()),
    ...(await countOutputs()),
  ];
}

/** Every page of the README and docs/ that gives a count: its numbers made current. */
async function countOutputs(): Promise<Output[]> {
  const pages = [join(ROOT, "README.md"), ...markdownFiles(ROOT, join(ROOT, "docs"))].filter((f) =>
    hasCounts(readFileSync(f, "utf8")),
  );
  if (pages.length === 0) return [];
  const values = await counts();
  return pages.map((file) => {
    const path = relative(ROOT, file);
    return { path, render: (current: string | undefined) => renderCounts(path, current ?? "", values) };
  });
}

function region(path: string, name: string, content: string | (() => string)): Output {
  const render = typeof content === "string" ? () => content : content;
  const begin = `<!-- generated:${name}:begin (npm run docs) -->`;
  const end = `<!-- generated:${name}:end -->`;
  return {
    path,
    render(current) {
      const text = current ?? "";
      const start = text.indexOf(begin);
      const stop = text.indexOf(end);
      if (start === -1 || stop < start) throw new Error(`${path} has no ${begin} … ${end} markers`);
      return `${text.slice(0, start + begin.length)}\n${render()}\n${text.slice(stop)}`;
    },
  };
}

/** The outputs whose file differs from what would be written now. */
export async function stale(root = ROOT): Promise<string[]> {
  const out: string[] = [];
  for (const o of await outputs()) {
    const file = join(root, o.path);
    const current = existsSync(file) ? readFileSync(file, "utf8") : undefined;
    if (current !== o.render(current)) out.push(o.path);
  }
  return out;
}

async function write(root = ROOT): Promise<string[]> {
  const written: string[] = [];
  for (const o of await outputs()) {
    const file = join(root, o.path);
    const current = existsSync(file) ? readFileSync(file, "utf8") : undefined;
    const next = o.render(current);
    if (next !== current) {
      writeFileSync(file, next);
      written.push(o.path);
    }
  }
  return written;
}

/** `npm run docs` (write) or `npm run docs -- --check`: the exit code. */
export async function main(argv: string[]): Promise<number> {
  const missing = checksWithoutSends();
  if (missing.length)
    console.error(
      `docs: ${missing.length} checks say nothing about what they send (declare sends beside their run): ${missing.join(", ")}`,
    );
  if (argv.includes("--check")) {
    const behind = await stale();
    if (behind.length === 0) {
      console.log("docs --check: the generated reference is up to date");
      return 0;
    }
    console.error(`docs --check: stale, run \`npm run docs\`:\n${behind.map((p) => `  ${p}`).join("\n")}`);
    return 1;
  }
  const written = await write();
  console.log(written.length ? `docs: wrote ${written.join(", ")}` : "docs: the generated reference is up to date");
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  process.exitCode = await main(process.argv.slice(2));
