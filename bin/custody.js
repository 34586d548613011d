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
import { Worker } from "node:worker_threads";

/** The key cli/certify-sandbox.ts adopts an early sandbox thread by (EARLY_SANDBOX_WORKER there). */
const EARLY_SANDBOX_WORKER = Symbol.for("custody.early-sandbox-worker");
const compiled = new URL("../dist/cli/main.js", import.meta.url);
const source = new URL("../cli/main.ts", import.meta.url);
const useSource = existsSync(source) && !(process.env.CUSTODY_COMPILED === "1" && existsSync(compiled));

let main;
if (useSource) {
  ({ main } = (await (process.env.CUSTODY_TSX === "1" ? null : fromCompiledSources())) ?? (await fromTsx()));
} else if (existsSync(compiled)) {
  startSandboxEarly(new URL("../dist/cli/sandbox-worker.mjs", import.meta.url));
  ({ main } = await import(compiled.href));
} else {
  console.error("custody: dist/ is missing; run npm run build");
  process.exit(2);
}
try {
  process.exitCode = await main(process.argv.slice(2));
} finally {
  // A sandbox thread started early that the command did not take (a usage error, --help).
  void globalThis[EARLY_SANDBOX_WORKER]?.worker.terminate();
}

/** The sources compiled to .custody-run/, or null when they cannot be (no esbuild, a syntax error). */
async function fromCompiledSources() {
  let dir;
  try {
    const { compiledSources } = await import("./compiled-sources.mjs");
    dir = compiledSources(fileURLToPath(new URL("..", import.meta.url)));
  } catch {
    return null;
  }
  startSandboxEarly(pathToFileURL(join(dir, "cli/sandbox-worker.mjs")));
  return import(pathToFileURL(await bundleOrModule(dir, "cli/main.js")).href);
}

/**
 * `custody certify --sandbox` runs the sandbox in a worker thread (cli/certify-sandbox.ts). Started
 * here, that thread loads the sandbox's code while this one loads the command line's (about a third
 * of a second each on a quiet machine), instead of after it; it starts the sandbox once certify
 * adopts it and sends the options. Unadopted, it never holds the process open.
 */
function startSandboxEarly(workerUrl) {
  const argv = process.argv.slice(2);
  if (argv[0] !== "certify" || !argv.includes("--sandbox") || argv.includes("--help") || argv.includes("-h")) return;
  if (!existsSync(workerUrl)) return;
  const slot = { worker: new Worker(workerUrl), url: workerUrl.href };
  slot.worker.unref();
  // A thread that fails before certify takes it is forgotten: certify starts its own.
  const forget = () => globalThis[EARLY_SANDBOX_WORKER] === slot && delete globalThis[EARLY_SANDBOX_WORKER];
  slot.worker.once("error", forget);
  slot.worker.once("exit", forget);
  globalThis[EARLY_SANDBOX_WORKER] = slot;
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
