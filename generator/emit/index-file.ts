// generated/index.ts: re-exports every generated module (names are collision-free by construction).
import type { EmitContext, EmittedFile } from "./context.ts";
import { headerStatement } from "./context.ts";
import { printStatements, type Statement } from "./print.ts";

export function emitIndex(ctx: EmitContext, modules: readonly string[]): EmittedFile {
  const statements: Statement[] = [
    headerStatement(ctx.headerLines),
    ...modules.map((m): Statement => ({ kind: "export", structure: { moduleSpecifier: `./${m}` } })),
  ];
  return { path: "index.ts", content: printStatements(statements) };
}
