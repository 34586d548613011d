// Worker thread of `custody certify --sandbox`: runs the reference deployment on its own event loop
// (a second core), so the deployment and the runner that certifies it do not take turns on one thread.
// Plain JavaScript, so it starts without a TS loader: installed, it loads the compiled sandbox beside
// it (dist/); in a clone's .custody-run/, that sandbox bundled into one file (bin/bundled-entries.mjs,
// as bin/custody.js does for the runner); else the TypeScript sources through tsx.
// The sandbox's code loads at once; the sandbox starts once the options are known: from workerData,
// or from a "start" message when bin/custody.js started this thread early, before the command line
// had loaded (cli/certify-sandbox.ts adopts the thread and sends them).
// Messages: in, { type: "start", options } | "close"; out, { type: "ready", handle } |
// { type: "error", message } | { type: "closed" }.
import { existsSync } from "node:fs";
import { basename, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parentPort, workerData } from "node:worker_threads";

const compiled = new URL("../reference/sandbox.js", import.meta.url);
const source = new URL("../reference/sandbox.ts", import.meta.url);
const runDir = dirname(dirname(fileURLToPath(import.meta.url)));

async function load() {
  if (existsSync(compiled)) return import((await bundled()) ?? compiled.href);
  const { register } = await import("tsx/esm/api");
  register();
  return import(source.href);
}

/** The sandbox's bundle when this file runs from a clone's .custody-run/; undefined when it cannot be made. */
async function bundled() {
  if (basename(runDir) !== ".custody-run") return undefined;
  try {
    const { bundledEntry } = await import(new URL("../../bin/bundled-entries.mjs", import.meta.url).href);
    return pathToFileURL(await bundledEntry(runDir, "reference/sandbox.js")).href;
  } catch {
    return undefined;
  }
}

/** The options: workerData's, else the first "start" message's. Listened for before loading, so none is missed. */
function optionsWanted() {
  if (workerData?.options) return Promise.resolve(workerData.options);
  return new Promise((resolve) => {
    const onStart = (message) => {
      if (message?.type !== "start") return;
      parentPort.off("message", onStart);
      resolve(message.options ?? {});
    };
    parentPort.on("message", onStart);
  });
}

const options = optionsWanted();
try {
  const { startSandbox, sandboxCredentials } = await load();
  const sandbox = await startSandbox(await options);
  parentPort.on("message", (message) => {
    if (message !== "close") return;
    sandbox.close().finally(() => {
      parentPort.postMessage({ type: "closed" });
      parentPort.close();
    });
  });
  // The credentials record crosses the thread boundary; the running parts stay here.
  parentPort.postMessage({ type: "ready", handle: sandboxCredentials(sandbox) });
} catch (error) {
  // An early thread reports only once it is adopted (the start message), to the one listening then.
  await options;
  parentPort.postMessage({ type: "error", message: error instanceof Error ? error.message : String(error) });
  parentPort.close();
}
