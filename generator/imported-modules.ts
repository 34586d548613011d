// The modules a TypeScript file really imports, read from its syntax tree (TypeScript's parser), so
// text in comments and strings (a spec's description saying `from "x"`) is never taken for an import.
// typescript is loaded on first use: only generation for output outside custody's own folder needs it.
import { createRequire } from "node:module";
import type * as TS from "typescript";

let loaded: typeof TS | undefined;
const cache = new Map<string, readonly string[]>();

function typescript(): typeof TS {
  try {
    loaded ??= createRequire(import.meta.url)("typescript") as typeof TS;
  } catch {
    throw new Error("reading the output's imports needs the typescript package: npm install typescript");
  }
  return loaded;
}

/**
 * Every module specifier of `import … from`, `export … from`, `import x = require()`, `import("x")`
 * (also `import("x" as string)`, a lazy import tsc does not resolve) and `import("x").T` in types.
 */
export function importedModules(path: string, source: string): readonly string[] {
  const hit = cache.get(source);
  if (hit) return hit;
  const ts = typescript();
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: string[] = [];
  const literal = (node: TS.Node | undefined): void => {
    let inner = node;
    while (inner && (ts.isAsExpression(inner) || ts.isParenthesizedExpression(inner))) inner = inner.expression;
    if (inner && ts.isStringLiteralLike(inner)) out.push(inner.text);
  };
  const visit = (node: TS.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) literal(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      literal(node.moduleReference.expression);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword)
      literal(node.arguments[0]);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) literal(node.argument.literal);
    ts.forEachChild(node, visit);
  };
  visit(file);
  cache.set(source, out);
  return out;
}
