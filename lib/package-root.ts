// custody's own root (the folder holding its package.json), found from any module's URL, so that
// spec/, templates/ and runtime/ resolve the same from the sources (cli/x.ts) and from the build
// (dist/cli/x.js), in a clone and in node_modules alike.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const cache = new Map<string, string>();

/** The nearest folder at or above `moduleUrl`'s folder that holds a package.json. */
export function packageRoot(moduleUrl: string): string {
  const start = dirname(fileURLToPath(moduleUrl));
  const hit = cache.get(start);
  if (hit !== undefined) return hit;
  let dir = start;
  while (!existsSync(join(dir, "package.json"))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`custody: no package.json above ${start}`);
    dir = up;
  }
  cache.set(start, dir);
  return dir;
}

/** A file or folder of custody's package, e.g. packagePath(import.meta.url, "spec", "openapi.yaml"). */
export function packagePath(moduleUrl: string, ...segments: string[]): string {
  return join(packageRoot(moduleUrl), ...segments);
}
