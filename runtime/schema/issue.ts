// One way to say where a value broke its schema, for every error message that reports a zod failure.
import type { z } from "zod";

/** "<path.to.field>: <message>" of the first issue ("(root)" when the value itself is wrong). */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  const where = issue !== undefined && issue.path.length > 0 ? issue.path.map(String).join(".") : "(root)";
  return `${where}: ${issue?.message ?? "invalid"}`;
}
