// `npm run build`: dist/ for the package, in two steps.
// 1. The JavaScript: the compile a clone runs (bin/compiled-sources.mjs: esbuild, one file per source,
//    relative ".ts" imports rewritten to ".js", the workers written as .mjs and the console's adapter
//    copied beside them), so an install runs the JavaScript the test suite runs from a clone. tsc
//    emitting it took twice the CPU of this whole build (13 against 6.1 CPU-s, both without type checks).
// 2. Declarations for what the package exports (runtime/, generated/: tsconfig.declarations.json), with
//    ".ts" specifiers rewritten to ".js" so consumers need no allowImportingTsExtensions. tsc checks those
//    folders as it writes them; CUSTODY_BUILD_NO_CHECK=1 skips that (tsc --noCheck: the same
//    declarations but for the order of inferred members), for the test suite's pack
//    (test/support/packed-install.ts). The whole project's type check is `npm run typecheck`.
import { execFileSync } from "node:child_process";
import { copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { compiledSources, jsSpecifiers } from "../bin/compiled-sources.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const dist = join(root, "dist");
rmSync(dist, { recursive: true, force: true });

compiledSources(root, dist);

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const noCheck = process.env.CUSTODY_BUILD_NO_CHECK === "1" ? ["--noCheck"] : [];
const declarations = join(root, "tsconfig.declarations.json");
execFileSync(process.execPath, [tsc, "-p", declarations, ...noCheck], { stdio: "inherit" });
for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith(".d.ts")) continue;
  const file = join(entry.parentPath, entry.name);
  const text = readFileSync(file, "utf8");
  const fixed = jsSpecifiers(text);
  if (fixed !== text) writeFileSync(file, fixed);
}
// `custody trigger` imports the console's adapter (plain JavaScript); its declarations are hand-written.
copyFileSync(join(root, "web/console/adapter.d.ts"), join(dist, "web/console/adapter.d.ts"));
console.log("custody build: dist/ written");
