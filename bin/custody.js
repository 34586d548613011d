#!/usr/bin/env node
// Entry point. Installed, custody runs its compiled JavaScript (dist/, made by `npm run build`).
// In a clone, where the TypeScript sources sit beside it, it compiles them to .custody-run/ (only the
// files changed since the last run; bin/compiled-sources.mjs), bundles that into one file
// (bin/bundled-entries.mjs) and runs it, so a fresh clone works without a build, a stale dist/ is
// never picked up, and no run pays for a TypeScript loader or for linking hundreds of modules.
// CUSTODY_COMPILED=1 runs dist/ there too (the start-time benchmark does); CUSTODY_TSX=1 runs the
// sources through tsx (stack traces with TypeScript lines), as does a source esbuild cannot compile.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const compiled = new URL("../dist/cli/main.js", import.meta.url);
const source = new URL("../cli/main.ts", import.meta.url);
const useSource = existsSync(source) && !(process.env.CUSTODY_COMPILED === "1" && existsSync(compiled));

let main;
if (useSource) {
  ({ main } = (await (process.env.CUSTODY_TSX === "1" ? null : fromCompiledSources())) ?? (await fromTsx()));
} else if (existsSync(compiled)) {
  ({ main } = await import(compiled.href));
} else {
  console.error("custody: dist/ is missing; run npm run build");
  process.exit(2);
}
process.exitCode = await main(process.argv.slice(2));

/** The sources compiled to .custody-run/, or null when they cannot be (no esbuild, a syntax error). */
async function fromCompiledSources() {
  let dir;
  try {
    const { compiledSources } = await import("./compiled-sources.mjs");
    dir = compiledSources(fileURLToPath(new URL("..", import.meta.url)));
  } catch {
    return null;
  }
  return import(pathToFileURL(await bundleOrModule(dir, "cli/main.js")).href);
}

/** The bundle of a compiled entry (bin/bundled-entries.mjs), or the entry itself when it cannot be bundled. */
async function bundleOrModule(dir, entry) {
  try {
    const { bundledEntry } = await import("./bundled-entries.mjs");
    return await bundledEntry(dir, entry);
  } catch {
    return join(dir, entry);
  }
}

async function fromTsx() {
  let register;
  try {
    ({ register } = await import("tsx/esm/api"));
  } catch {
    console.error("custody: running from the sources needs tsx (npm install), or build first: npm run build");
    process.exit(2);
  }
  register();
  return import(source.href);
}
