// The import graph of the hand-written TypeScript sources, read from the text alone (no module is loaded):
// static imports and re-exports, type-only ones included, and dynamic import("…") with a literal path.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, posix, relative } from "node:path";
import ts from "typescript";

export interface ImportEdge {
  from: string;
  /** Repository-relative path for an import of ours; the bare specifier for a package or node: module. */
  to: string;
  local: boolean;
  typeOnly: boolean;
  dynamic: boolean;
  line: number;
}

/** Folders that hold no source of ours: installed packages, build output, and test inputs kept byte-exact. */
const SKIP = new Set(["node_modules", "dist", "test/fixtures"]);

/** Repository-relative paths (forward slashes) of the .ts/.mts/.mjs/.js files under `dirs`. */
export function sourceFiles(root: string, dirs: readonly string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const rel = posix.join(dir, entry.name);
      if (SKIP.has(entry.name) || SKIP.has(rel) || entry.name.startsWith(".")) continue;
      if (entry.isDirectory()) walk(rel);
      else if (/\.(ts|mts|mjs|js)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(rel);
    }
  };
  for (const dir of dirs) walk(dir);
  return out.sort();
}

/** Every import of one file. Relative specifiers are resolved to repository-relative paths. */
export function importsOf(root: string, file: string, text = readFileSync(join(root, file), "utf8")): ImportEdge[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const edges: ImportEdge[] = [];
  const add = (specifier: string, node: ts.Node, typeOnly: boolean, dynamic: boolean): void => {
    const local = specifier.startsWith(".");
    const to = local ? resolveLocal(root, file, specifier) : specifier;
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    edges.push({ from: file, to, local, typeOnly, dynamic, line });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, node, importIsTypeOnly(node), false);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, node, node.isTypeOnly, false);
    } else if (isDynamicImport(node)) {
      add((node.arguments[0] as ts.StringLiteralLike).text, node, false, true);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const literal = node.argument.literal;
      if (ts.isStringLiteral(literal)) add(literal.text, node, true, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

/** The repository-relative file a relative specifier names; `x.js` means `x.ts` when only the latter exists. */
function resolveLocal(root: string, file: string, specifier: string): string {
  const target = relative(root, join(root, dirname(file), specifier))
    .split("\\")
    .join("/");
  const ts = target.replace(/\.js$/, ".ts");
  return target !== ts && !existsSync(join(root, target)) && existsSync(join(root, ts)) ? ts : target;
}

function importIsTypeOnly(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // import "x" runs the module
  if (clause.isTypeOnly) return true;
  const bindings = clause.namedBindings;
  if (clause.name || !bindings || !ts.isNamedImports(bindings)) return false;
  return bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
}

function isDynamicImport(node: ts.Node): node is ts.CallExpression {
  return (
    ts.isCallExpression(node) &&
    node.expression.kind === ts.SyntaxKind.ImportKeyword &&
    node.arguments.length > 0 &&
    ts.isStringLiteralLike(node.arguments[0])
  );
}

/**
 * The import cycles: every strongly connected group of files (Tarjan), each as its sorted file list. A
 * group, not one path, so that a second cycle through files already in a known group still changes it.
 */
export function importCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) if (e.local) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const to of next.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    for (let top = stack.pop()!; ; top = stack.pop()!) {
      onStack.delete(top);
      group.push(top);
      if (top === file) break;
    }
    const selfLoop = (next.get(file) ?? []).includes(file);
    if (group.length > 1 || selfLoop) groups.push(group.sort());
  };
  for (const file of [...next.keys()].sort()) if (!index.has(file)) visit(file);
  return groups.sort((a, b) => a[0].localeCompare(b[0]));
}
