// One way to say where a value broke its schema, for every error message that reports a zod failure.
// Types only: the generated schemas are classic zod or zod/mini (`custody generate --zod`), and the
// runtime imports neither, so a bundle holds only the one the schemas import.
import type { z } from "zod";

/** What the runtime asks of a generated schema: safeParse, which classic and mini schemas both have. */
export interface ParsingSchema {
  safeParse(value: unknown): z.core.util.SafeParseResult<unknown>;
}

/** "<path.to.field>: <message>" of the first issue ("(root)" when the value itself is wrong). */
export function firstIssue(error: z.core.$ZodError): string {
  const issue = error.issues[0];
  const where = issue !== undefined && issue.path.length > 0 ? issue.path.map(String).join(".") : "(root)";
  return `${where}: ${issue?.message ?? "invalid"}`;
}
