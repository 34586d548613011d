// One result per `vitest run`, made by the first test file that asks and read by the others: test files run
// in separate processes, so the first takes a lock (an atomic mkdir in the run's share folder, from
// test/support/pack-share.ts) and publishes its result as a JSON file; the others wait for that file.
import { existsSync, mkdirSync, readFileSync, renameSync, watch, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inject } from "vitest";

/** `make(dir)` once per run under the name; every caller gets its JSON result (or its error). */
export async function runOnce<T>(name: string, make: (dir: string) => Promise<T>): Promise<T> {
  const dir = join(inject("packShare"), name);
  const result = `${dir}.json`;
  try {
    mkdirSync(dir);
  } catch {
    await whenExists(result);
    const done = JSON.parse(readFileSync(result, "utf8")) as T | { error: string };
    if (done && typeof done === "object" && "error" in done)
      throw new Error(`the shared ${name} failed: ${(done as { error: string }).error}`);
    return done as T;
  }
  try {
    const done = await make(dir);
    publish(result, done);
    return done;
  } catch (error) {
    publish(result, { error: (error as Error).message });
    throw error;
  }
}

/** Resolves when `file` exists, watching its folder (no polling). */
function whenExists(file: string): Promise<void> {
  return new Promise((resolve) => {
    const watcher = watch(join(file, ".."), () => {
      if (existsSync(file)) {
        watcher.close();
        resolve();
      }
    });
    if (existsSync(file)) {
      watcher.close();
      resolve();
    }
  });
}

/** Written whole, then renamed into place: a waiting process never reads half of it. */
function publish(file: string, value: unknown): void {
  writeFileSync(`${file}.part`, JSON.stringify(value));
  renameSync(`${file}.part`, file);
}
