// Where the package's own files are, wherever it is installed or run from (never the cwd): the folder
// holding the package.json named "custody", found by walking up from this module.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

let root: string | undefined;

export function packageRoot(): string {
  if (root !== undefined) return root;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = path.join(dir, "package.json");
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, "utf8")) as { name?: string }).name === "custody") return (root = dir);
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("cannot find the custody package root above " + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

/** A file shipped in the package, by its path from the package root. */
export function packageFile(...parts: string[]): string {
  return path.join(packageRoot(), ...parts);
}

/** The folder of an installed dependency, resolved the way node resolves it from this package. */
export function dependencyDir(name: string): string {
  return path.dirname(createRequire(import.meta.url).resolve(`${name}/package.json`));
}
