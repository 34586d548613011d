// The JavaScript custody runs: bin/custody.js, in a clone, runs its TypeScript sources compiled once
// into .custody-run/ (same layout as the sources, relative ".ts" imports rewritten to ".js"; plain
// .js/.mjs files copied beside them) instead of through tsx's loader hooks, which cost every run about
// as much CPU again as the work itself (docs/measurements/certify.md). A file is recompiled when its
// source is newer than its output, a file whose source is gone is removed, so the tree never runs
// stale code. The folders are tsconfig.build.json's. The package's dist/ is the same compile
// (scripts/build.mjs), so an install runs the JavaScript the tests run from a clone.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, sep } from "node:path";
import { BUNDLE_DIR } from "./bundled-entries.mjs";

export const RUN_DIR = ".custody-run";

const SPECIFIER = /((?:from|import)\s*\(?\s*")(\.{1,2}\/[^"]+)\.ts(")/g;
const COPIED = /\.(?:js|mjs|cjs|json)$/;

/**
 * Brings `out` (root/.custody-run by default; dist/ for the package, scripts/build.mjs) up to date with
 * the sources; returns its path. Throws when a file does not compile.
 */
export function compiledSources(root, out = join(root, RUN_DIR)) {
  const wanted = new Set();
  let esbuild;
  for (const folder of buildFolders(root)) {
    for (const source of filesUnder(join(root, folder))) {
      const target = outputPath(out, relative(root, source));
      if (!target) continue;
      wanted.add(target);
      if (mtime(target) >= mtime(source)) continue;
      esbuild ??= createRequire(import.meta.url)("esbuild");
      writeAtomically(target, source.endsWith(".ts") ? compile(esbuild, source) : readFileSync(source));
    }
  }
  const bundles = join(out, BUNDLE_DIR);
  for (const file of filesUnder(out))
    if (!wanted.has(file) && !file.endsWith(".tmp") && !file.startsWith(`${bundles}${sep}`))
      rmSync(file, { force: true });
  return out;
}

function buildFolders(root) {
  return JSON.parse(readFileSync(join(root, "tsconfig.build.json"), "utf8")).include;
}

/** Where a source file's JavaScript goes, or undefined for files that are not run (tests, declarations). */
function outputPath(out, path) {
  if (path.endsWith(".d.ts") || path.endsWith(".test.ts")) return undefined;
  if (path.endsWith(".ts")) return join(out, `${path.slice(0, -3)}.js`);
  return COPIED.test(path) ? join(out, path) : undefined;
}

function compile(esbuild, source) {
  const { code } = esbuild.transformSync(readFileSync(source, "utf8"), {
    loader: "ts",
    format: "esm",
    target: `node${process.versions.node.split(".")[0]}`,
    sourcefile: source,
    tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: false, useDefineForClassFields: true } },
  });
  return jsSpecifiers(code);
}

/** The text with its relative ".ts" import specifiers ending in ".js" (scripts/build.mjs: declarations too). */
export function jsSpecifiers(text) {
  return text.replace(SPECIFIER, "$1$2.js$3");
}

// Another process may compile the same file at the same moment: each writes its own file, then renames.
function writeAtomically(target, content) {
  mkdirSync(dirname(target), { recursive: true });
  const temp = `${target}.${process.pid}.tmp`;
  writeFileSync(temp, content);
  renameSync(temp, target);
}

function filesUnder(dir) {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && !e.parentPath.includes("node_modules"))
      .map((e) => join(e.parentPath, e.name));
  } catch {
    return [];
  }
}

function mtime(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return -1;
  }
}
