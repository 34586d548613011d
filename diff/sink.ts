// Collects changes, once per (where, check, pointers): a shared schema reached twice by the same
// operation is one change there, and one change at every other operation it reaches.
import { CHECKS, type Subject, schemaCheckId, schemaCheckLevel } from "./catalog.ts";
import type { Finding } from "./schema-diff.ts";
import type { Change, Level } from "./types.ts";

export class Sink {
  readonly changes: Change[] = [];
  private readonly keys = new Set<string>();

  /** `detail` tells changes at the same place apart (two enum values); the property path does not. */
  add(change: Change, detail = change.message): void {
    const key = `${change.where}\0${change.id}\0${change.oldPointer ?? ""}\0${change.newPointer ?? ""}\0${detail}`;
    if (this.keys.has(key)) return;
    this.keys.add(key);
    this.changes.push(change);
  }

  /** A fixed check from the catalog. */
  check(
    id: string,
    where: string,
    oldPointer: string | undefined,
    newPointer: string | undefined,
    message: string,
  ): void {
    const entry = CHECKS[id];
    if (!entry) throw new Error(`unknown check id '${id}'`);
    this.add({ id, level: entry.level, where, oldPointer, newPointer, message });
  }

  /** Schema findings under `context` ("response 200 application/json"), ids and levels by subject. */
  schema(where: string, subject: Subject, context: string, findings: readonly Finding[]): void {
    for (const f of findings) {
      const nested = f.path.length > 0;
      const level: Level = schemaCheckLevel(subject, f.suffix);
      const what = nested ? `${context} property \`${f.path.join("/")}\`` : context;
      this.add(
        {
          id: schemaCheckId(subject, nested, f.suffix),
          level,
          where,
          oldPointer: f.oldPtr,
          newPointer: f.newPtr,
          message: `${what}: ${f.detail}`,
        },
        f.detail,
      );
    }
  }
}
