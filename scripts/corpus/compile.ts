// tsc --strict (the project's settings) over many generated outputs at once, with each error line
// attributed to the output folder it is in. A batch whose tsc dies without saying where (out of memory)
// is split in halves until the folder that kills it stands alone.
import { relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { typecheck } from "../../generator/typecheck.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface CompileVerdict {
  ok: boolean;
  /** The first error lines (at most 3), or why tsc stopped. */
  errors: string[];
  errorCount: number;
}

export async function compileBatches(
  dirs: readonly string[],
  batchSize: number,
  onBatch?: (done: number) => void,
): Promise<Map<string, CompileVerdict>> {
  const verdicts = new Map<string, CompileVerdict>();
  for (let i = 0; i < dirs.length; i += batchSize) {
    await compileBatch(dirs.slice(i, i + batchSize), verdicts);
    onBatch?.(Math.min(i + batchSize, dirs.length));
  }
  return verdicts;
}

async function compileBatch(dirs: readonly string[], verdicts: Map<string, CompileVerdict>): Promise<void> {
  const result = await typecheck(dirs, { maxOldSpaceMb: 6144 });
  const lines = result.output.split("\n").filter((l) => /error TS\d+/.test(l));
  const rel = dirs.map((d) => `${relative(ROOT, resolve(d)).split(sep).join("/")}/`);
  const attributed = new Map<string, string[]>(rel.map((r) => [r, []]));
  let unattributed = 0;
  for (const line of lines) {
    const owner = rel.find((r) => line.startsWith(r));
    if (owner === undefined) unattributed++;
    else attributed.get(owner)!.push(line);
  }
  if (!result.ok && lines.length === 0) {
    // tsc died without a diagnostic: out of memory, or killed.
    if (dirs.length === 1) {
      verdicts.set(dirs[0], {
        ok: false,
        errors: [`tsc stopped: ${result.output.split("\n").filter(Boolean).pop()?.slice(0, 200) ?? "no output"}`],
        errorCount: 1,
      });
      return;
    }
    const half = Math.ceil(dirs.length / 2);
    await compileBatch(dirs.slice(0, half), verdicts);
    await compileBatch(dirs.slice(half), verdicts);
    return;
  }
  dirs.forEach((dir, i) => {
    const own = attributed.get(rel[i])!;
    verdicts.set(dir, {
      ok: own.length === 0,
      errors: own.slice(0, 3).map((l) => l.slice(rel[i].length, rel[i].length + 300)),
      errorCount: own.length,
    });
  });
  // Errors in shared files (runtime/) would count against every output of the batch: say so.
  if (unattributed > 0)
    console.error(
      `compile: ${unattributed} error lines outside the batch's folders (runtime/?): ${lines.find((l) => !rel.some((r) => l.startsWith(r)))}`,
    );
}
