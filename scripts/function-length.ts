// Lists the hand-written functions longer than a limit (default 80 lines, the project's rule), longest
// first: declarations, methods, accessors, constructors, and arrow functions and function expressions
// (named after the variable or property that holds them); not describe(…) blocks, which only group
// tests. A nested function counts on its own and inside its parent. Reads the sources with the TypeScript compiler API; nothing is loaded or run.
//
//   node --import tsx scripts/function-length.ts [--max 80] [--json] [folder…]
//
// Exit status 0 either way: it reports, it does not enforce.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { sourceFiles } from "../test/support/import-graph.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** Hand-written code: everything but generated/ (written by custody generate) and test fixtures. */
const DEFAULT_DIRS = [
  "bin",
  "lib",
  "cli",
  "diff",
  "web",
  "scripts",
  "runtime",
  "generator",
  "conformance",
  "reference",
  "bench",
  "test",
];

export interface LongFunction {
  file: string;
  line: number;
  name: string;
  lines: number;
}

export function longFunctions(file: string, text: string, max: number): LongFunction[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body && !isDescribeBlock(node)) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      if (lines > max) out.push({ file, line: start + 1, name: nameOf(node), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** A describe(…) callback only groups tests; the tests and helpers inside it are measured one by one. */
function isDescribeBlock(node: ts.Node): boolean {
  const parent = node.parent;
  return !!parent && ts.isCallExpression(parent) && /^describe\b/.test(parent.expression.getText());
}

function nameOf(node: ts.Node): string {
  const own = (node as { name?: ts.Node }).name;
  if (own && (ts.isIdentifier(own) || ts.isStringLiteral(own) || ts.isPrivateIdentifier(own))) return own.text;
  if (ts.isConstructorDeclaration(node)) return "constructor";
  const parent = node.parent;
  if (
    parent &&
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
  ) {
    if (ts.isIdentifier(parent.name) || ts.isStringLiteral(parent.name)) return parent.name.text;
  }
  if (parent && ts.isCallExpression(parent)) {
    const callee = parent.expression.getText().slice(0, 40);
    const label =
      parent.arguments[0] && ts.isStringLiteralLike(parent.arguments[0])
        ? ` "${parent.arguments[0].text.slice(0, 50)}"`
        : "";
    return `(callback of ${callee}${label})`;
  }
  return "(anonymous)";
}

function main(argv: string[]): void {
  let max = 80;
  let json = false;
  const dirs: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--max") max = Number(argv[++i]);
    else if (argv[i] === "--json") json = true;
    else dirs.push(argv[i].replace(/\/$/, ""));
  }
  if (!Number.isInteger(max) || max < 1) {
    console.error("function-length: --max takes a positive whole number of lines");
    process.exit(2);
  }
  const files = sourceFiles(ROOT, dirs.length > 0 ? dirs : DEFAULT_DIRS).filter((f) => /\.(ts|mts)$/.test(f));
  const found = files.flatMap((f) => longFunctions(f, readFileSync(`${ROOT}/${f}`, "utf8"), max));
  found.sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file));
  if (json) {
    console.log(JSON.stringify(found, null, 2));
    return;
  }
  for (const f of found) console.log(`${String(f.lines).padStart(5)}  ${f.file}:${f.line}  ${f.name}`);
  console.log(`${found.length} functions over ${max} lines in ${files.length} files`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main(process.argv.slice(2));
