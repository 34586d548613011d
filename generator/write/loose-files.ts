// Single files written beside a folder we do not own as a whole (a package's package.json,
// tsconfig.json, README.md next to its src/, dist/ and node_modules/).
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { FileChange, RenderedFile } from "./output.ts";

export async function diffFiles(dir: string, files: readonly RenderedFile[]): Promise<FileChange[]> {
  return Promise.all(
    files.map(async (file) => {
      const current = await readFile(join(dir, file.path), "utf8").catch(() => undefined);
      const status = current === undefined ? "added" : current === file.content ? "unchanged" : "changed";
      return { path: file.path, status, changed: status !== "unchanged" } as FileChange;
    }),
  );
}

/** Writes the files whose change says so; returns how many. */
export async function writeFilesIfChanged(
  dir: string,
  files: readonly RenderedFile[],
  changes: readonly FileChange[],
): Promise<number> {
  await mkdir(dir, { recursive: true });
  let written = 0;
  for (const file of files) {
    if (!changes.find((c) => c.path === file.path)?.changed) continue;
    await mkdir(dirname(join(dir, file.path)), { recursive: true });
    await writeFile(join(dir, file.path), file.content);
    written++;
  }
  return written;
}
