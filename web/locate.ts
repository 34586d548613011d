// Where the package's own files are, wherever it is installed or run from (never the cwd): one rule,
// lib/package-root.ts, for spec/, templates/, runtime/ and web/ alike.
import { createRequire } from "node:module";
import path from "node:path";
import { packagePath } from "../lib/package-root.ts";

/** A file shipped in the package, by its path from the package root. */
export function packageFile(...parts: string[]): string {
  return packagePath(import.meta.url, ...parts);
}

/** The folder of an installed dependency, resolved the way node resolves it from this package. */
export function dependencyDir(name: string): string {
  return path.dirname(createRequire(import.meta.url).resolve(`${name}/package.json`));
}
