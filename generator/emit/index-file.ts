// generated/index.ts: re-exports every generated module (names are collision-free by construction)
// and the runtime's errors.
import type { EmitContext, EmittedFile } from "./context.ts";
import { headerStatement } from "./context.ts";
import { printStatements, type Statement } from "./print.ts";

export function emitIndex(ctx: EmitContext, modules: readonly string[]): EmittedFile {
  const statements: Statement[] = [
    headerStatement(ctx.headerLines),
    ...modules.map((m): Statement => ({ kind: "export", structure: { moduleSpecifier: `./${m.replace(/\.ts$/, ".js")}` } })),
    // The runtime's other error classes (client.ts exports the client's), so that callers catch what the client throws without reaching into runtime/.
    {
      kind: "export",
      structure: { moduleSpecifier: ctx.runtime("errors"), namedExports: ["JsonRpcError", "RpcTransportError", "WebhookVerificationError"] },
    },
  ];
  return { path: "index.ts", content: printStatements(statements) };
}
