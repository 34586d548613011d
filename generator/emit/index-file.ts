// generated/index.ts: re-exports every generated module (names are collision-free by construction:
// see model/custody-names.ts)
// and the runtime's errors.
import { INDEX_REEXPORTS } from "../model/custody-names.ts";
import type { EmitContext, EmittedFile } from "./context.ts";
import { headerStatement } from "./context.ts";
import { printStatements, type Statement } from "./print.ts";

export function emitIndex(ctx: EmitContext, modules: readonly string[]): EmittedFile {
  const statements: Statement[] = [
    headerStatement(ctx.headerLines),
    ...modules.map(
      (m): Statement => ({ kind: "export", structure: { moduleSpecifier: `./${m.replace(/\.ts$/, ".js")}` } }),
    ),
    // The runtime's other error classes (client.ts exports the client's), so that callers catch what the client throws without reaching into runtime/.
    ...INDEX_REEXPORTS.map(
      (r): Statement => ({
        kind: "export",
        structure: {
          moduleSpecifier: ctx.runtime(r.module),
          namedExports: [...r.names],
          isTypeOnly: r.typeOnly || undefined,
        },
      }),
    ),
  ];
  return { path: "index.ts", content: printStatements(statements) };
}
