// Seed 4: a read by id answers the record of that id (and a list by wallet, that wallet's records).
// Only the fields that name the path's ids are compared, and only when present: the seed does not
// say which of `id`/`withdrawal_id` (or `id`/`webhook_id`) carries the id.

/** Why `record` is not the record asked for (a field naming another id), or undefined. */
export function identityProblem(
  record: unknown,
  expected: Record<string, string | readonly string[]>,
): string | undefined {
  if (!record || typeof record !== "object") return undefined;
  const r = record as Record<string, unknown>;
  for (const [wanted, fields] of Object.entries(expected)) {
    const names = typeof fields === "string" ? [fields] : fields;
    const present = names.filter((f) => typeof r[f] === "string");
    if (present.length > 0 && !present.some((f) => r[f] === wanted)) {
      return `${present.map((f) => `${f} is ${JSON.stringify(r[f])}`).join(", ")}, not the ${JSON.stringify(wanted)} asked for`;
    }
  }
  return undefined;
}
