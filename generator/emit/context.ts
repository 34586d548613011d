// What every file emitter gets: the model, the header text, and where runtime/ is from the output.
import type { SpecModel } from "../model/types.ts";
import { lineCommentText } from "../spec-text.ts";
import type { Statement } from "./print.ts";
import type { TypeContext } from "./ts-type.ts";
import { type ZodDialect, zodDialect } from "./zod-dialect.ts";
import type { ZodContext } from "./zod-schema.ts";

export interface EmitContext {
  model: SpecModel;
  /** Header lines (without comment markers). */
  headerLines: readonly string[];
  /** Header lines for rpc.ts, which comes from the OpenRPC document. */
  rpcHeaderLines?: readonly string[];
  /** Module specifier of a runtime module ("client-call", "server/index") as the output imports it. */
  runtime: (module: string) => string;
  /** The npm install lines of what the output needs (none for custody's own generated/). */
  install?: readonly string[];
  /** How the output spells its zod schemas (default: classic zod). */
  zod?: ZodDialect;
}

export interface EmittedFile {
  /** Relative to the output directory. */
  path: string;
  content: string;
}

export function typeContext(ctx: EmitContext): TypeContext {
  return { document: ctx.model.document, components: ctx.model.schemasByRef, resolver: ctx.model.resolver };
}

export function zodContext(ctx: EmitContext, coerce = false): ZodContext {
  const { document, schemasByRef: components, resolver, version } = ctx.model;
  return { document, components, resolver, coerce, version, dialect: dialectOf(ctx) };
}

/** The output's zod dialect (classic unless the context names one). */
export function dialectOf(ctx: EmitContext): ZodDialect {
  return ctx.zod ?? zodDialect();
}

export function headerStatement(lines: readonly string[]): Statement {
  return { kind: "text", text: lines.map((l) => `// ${lineCommentText(l)}`.trimEnd()).join("\n") };
}

export function importStatement(
  moduleSpecifier: string,
  named: string[],
  options: { typeOnly?: boolean; namespace?: string } = {},
): Statement {
  return {
    kind: "import",
    structure: {
      moduleSpecifier,
      isTypeOnly: options.typeOnly,
      namespaceImport: options.namespace,
      namedImports: options.namespace ? undefined : named,
    },
  };
}
