// Lists every hand-written function longer than --max lines (default 80), longest first, and exits 1
// when there is one: the project's rule of small functions, checkable in CI. Skips tests, generated
// output, dependencies and fixtures. Usage: node --import tsx scripts/function-length.ts [--max 80] [dir...]
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

const SKIPPED_DIRS = new Set(["node_modules", "test", "generated", "fixtures", "dist", ".git"]);
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs)$/;

interface LongFunction {
  file: string;
  line: number;
  name: string;
  lines: number;
}

function parseArgs(argv: string[]): { max: number; roots: string[] } {
  let max = 80;
  const roots: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--max") {
      max = Number(argv[++i]);
      if (!Number.isInteger(max) || max < 1) throw new Error(`--max must be a positive integer, got ${argv[i]}`);
    } else roots.push(argv[i]);
  }
  return { max, roots: roots.length > 0 ? roots : ["."] };
}

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name) && !entry.name.startsWith(".")) yield* sourceFiles(join(dir, entry.name));
    } else if (SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts")) yield join(dir, entry.name);
  }
}

/** A readable name: the declared one, else the variable, property or class member it is assigned to. */
function functionName(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  if (node.name !== undefined) return node.name.getText(source);
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.name !== undefined) {
    return parent.name.getText(source);
  }
  return "<anonymous>";
}

function longFunctions(file: string, max: number): LongFunction[] {
  const text = readFileSync(file, "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body !== undefined) {
      const fn = node as ts.FunctionLikeDeclaration;
      const start = source.getLineAndCharacterOfPosition(fn.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(fn.getEnd()).line;
      const lines = end - start + 1;
      if (lines > max) found.push({ file, line: start + 1, name: functionName(fn, source), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function main(): void {
  const { max, roots } = parseArgs(process.argv.slice(2));
  const found = roots.flatMap((root) => [...sourceFiles(root)].flatMap((file) => longFunctions(file, max)));
  found.sort((a, b) => b.lines - a.lines);
  for (const f of found) console.log(`${f.lines} ${relative(".", f.file)}:${f.line} ${f.name}`);
  if (found.length > 0) {
    console.error(`${found.length} function(s) longer than ${max} lines`);
    process.exitCode = 1;
  }
}

try {
  main();
} catch (error) {
  console.error(`function-length: ${(error as Error).message}`);
  process.exitCode = 2;
}
