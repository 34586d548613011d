// What every check family gets: both documents, the memoised schema comparison and the sink.
import type { SpecDoc } from "./document.ts";
import type { SchemaDiff } from "./schema-diff.ts";
import type { Sink } from "./sink.ts";

export interface DiffContext {
  old: SpecDoc;
  next: SpecDoc;
  schemas: SchemaDiff;
  sink: Sink;
}
