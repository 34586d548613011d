// The oracle for generator/imported-modules.ts: the module specifiers TypeScript's own parser finds in a
// file (import and export declarations, import-equals, import() calls and types), the TypeScript sources
// of a folder, and the files on which the lexer and the parser disagree.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { importedModules } from "../../generator/imported-modules.ts";

export function parserImports(path: string, source: string): string[] {
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: string[] = [];
  const literal = (node: ts.Node | undefined): void => {
    let inner = node;
    while (inner && (ts.isAsExpression(inner) || ts.isParenthesizedExpression(inner))) inner = inner.expression;
    if (inner && ts.isStringLiteralLike(inner)) out.push(inner.text);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) literal(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      literal(node.moduleReference.expression);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword)
      literal(node.arguments[0]);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) literal(node.argument.literal);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

/** Every .ts file under `dir` (declaration files left out), never looking into a nested node_modules/ or a dot folder. */
export function typescriptSources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== "node_modules" && !entry.name.startsWith("."))
      out.push(...typescriptSources(path));
    else if (entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) out.push(path);
  }
  return out.sort();
}

/** The files whose imports the lexer reads otherwise than TypeScript's parser. */
export function disagreements(files: readonly string[]): string[] {
  return files.filter((file) => {
    const source = readFileSync(file, "utf8");
    return JSON.stringify(importedModules(source)) !== JSON.stringify(parserImports(file, source));
  });
}
