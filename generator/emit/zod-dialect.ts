// The two ways generated code may spell a zod 4 schema: classic (`import * as z from "zod"`, methods:
// `z.string().regex(r).optional()`) and mini (`import * as z from "zod/mini"`, functions:
// `z.optional(z.string().check(z.regex(r)))`, which bundlers drop when unused). Both build the same
// zod/v4/core schemas, so they validate alike; the schema walk (zod-schema.ts) is written once and asks
// its dialect only how to spell a wrapper or a check.

export type ZodFlavour = "classic" | "mini";

export const ZOD_FLAVOURS: readonly ZodFlavour[] = ["classic", "mini"];

/** One check on a schema's value, by its zod/mini function name. */
export interface ZodCheck {
  kind: "refine" | "regex" | "gte" | "gt" | "lte" | "lt" | "minLength" | "maxLength";
  /** The call's arguments, as code. */
  args: string;
}

export interface ZodDialect {
  flavour: ZodFlavour;
  /** The module generated files import `z` from. */
  module: string;
  /** The type of a schema whose output is `type` (what a recursive const is declared as). */
  schemaType(type: string): string;
  optional(code: string): string;
  nullable(code: string): string;
  /** `value` is code (a JSON literal). */
  withDefault(code: string, value: string): string;
  pipe(from: string, to: string): string;
  /** Runs `fn` (a function's name) on the raw value, then `code` on what it returns. */
  preprocess(fn: string, code: string): string;
  catchall(objectCode: string, extra: string): string;
  checked(code: string, checks: readonly ZodCheck[]): string;
}

/** What a check is called as a method of a classic schema (numbers: min/max; arrays: min/max). */
const CLASSIC_METHODS: Record<ZodCheck["kind"], string> = {
  refine: "refine",
  regex: "regex",
  gte: "min",
  gt: "gt",
  lte: "max",
  lt: "lt",
  minLength: "min",
  maxLength: "max",
};

const CLASSIC: ZodDialect = {
  flavour: "classic",
  module: "zod",
  schemaType: (type) => `z.ZodType<${type}>`,
  optional: (code) => `${code}.optional()`,
  nullable: (code) => `${code}.nullable()`,
  withDefault: (code, value) => `${code}.default(${value})`,
  pipe: (from, to) => `${from}.pipe(${to})`,
  preprocess: (fn, code) => `z.preprocess(${fn}, ${code})`,
  catchall: (objectCode, extra) => `${objectCode}.catchall(${extra})`,
  checked: (code, checks) => code + checks.map((c) => `.${CLASSIC_METHODS[c.kind]}(${c.args})`).join(""),
};

const MINI: ZodDialect = {
  flavour: "mini",
  module: "zod/mini",
  schemaType: (type) => `z.ZodMiniType<${type}>`,
  optional: (code) => `z.optional(${code})`,
  nullable: (code) => `z.nullable(${code})`,
  withDefault: (code, value) => `z._default(${code}, ${value})`,
  pipe: (from, to) => `z.pipe(${from}, ${to})`,
  // zod/mini has no preprocess; classic's is this same pipe (zod/v4/classic/schemas.js).
  preprocess: (fn, code) => `z.pipe(z.transform(${fn}), ${code})`,
  catchall: (objectCode, extra) => `z.catchall(${objectCode}, ${extra})`,
  checked: (code, checks) => {
    if (checks.length === 0) return code;
    return `${code}.check(${checks.map((c) => `z.${c.kind}(${c.args})`).join(", ")})`;
  },
};

export function zodDialect(flavour: ZodFlavour = "classic"): ZodDialect {
  return flavour === "mini" ? MINI : CLASSIC;
}
