// A problem with the input spec, located by file and JSON pointer: `spec/openapi.yaml#/paths/~1a/get: message`.
// The CLI prints `message` as it is; no stack trace ever reaches the user.

export interface SpecProblem {
  /** JSON pointer inside the file ("" for the whole document), or a `line:col` for syntax errors. */
  pointer: string;
  problem: string;
}

export class SpecError extends Error {
  override name = "SpecError";
  readonly file: string;
  readonly problems: readonly SpecProblem[];

  constructor(file: string, problems: readonly SpecProblem[]) {
    super(formatProblems(file, problems));
    this.file = file;
    this.problems = problems;
  }
}

const MAX_SHOWN = 10;

function formatProblems(file: string, problems: readonly SpecProblem[]): string {
  const lines = problems.slice(0, MAX_SHOWN).map((p) => `${formatLocation(file, p.pointer)}: ${p.problem}`);
  if (problems.length > MAX_SHOWN) lines.push(`... and ${problems.length - MAX_SHOWN} more`);
  return lines.join("\n");
}

/** `file#/a/b` for pointers, `file:3:7` for line positions, `file` for the whole document. */
export function formatLocation(file: string, pointer: string): string {
  if (pointer === "") return file;
  if (/^\d+:\d+$/.test(pointer)) return `${file}:${pointer}`;
  return `${file}#${pointer}`;
}
