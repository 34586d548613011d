// Loads an OpenAPI 3.0/3.1 document: parse, check refs, bundle external files, validate. The result is
// the bundled but NOT dereferenced document, so $ref names survive into the model (named types).
// Validation against the official OpenAPI schema (the slowest step) runs in a worker thread while the caller builds the
// model and renders; callers must await `validation` before writing anything.
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { scanRefs } from "./check-refs.ts";
import { readDocument, type SpecDocument } from "./read-document.ts";
import { repairDocument } from "./lenient.ts";
import { SpecError, type SpecProblem } from "./spec-error.ts";
import { problemsOf, validateInWorker } from "./validate.ts";

export interface LoadedSpec {
  source: SpecDocument;
  /** Bundled (external refs inlined), not dereferenced. */
  document: Record<string, unknown>;
  version: "3.0" | "3.1";
  /** swagger-parser's verdict, still running when loadSpec returns: undefined when valid. */
  validation: Promise<SpecError | undefined>;
  /** What --lenient repaired, one entry per repair. */
  repairs: SpecProblem[];
}

export async function loadSpec(path: string, displayPath: string, options: { lenient?: boolean } = {}): Promise<LoadedSpec> {
  const source = await readDocument(path, displayPath);
  const version = openapiVersion(source.document, displayPath);
  const repairs = options.lenient ? repairDocument(source.document, version) : [];
  // Validation reads the text: after repairs, the repaired document's.
  const text = repairs.length > 0 ? JSON.stringify(source.document) : source.text;
  const isJson = repairs.length > 0 || source.isJson;
  const scan = scanRefs(source.document);
  if (scan.problems.length > 0) throw new SpecError(displayPath, scan.problems);
  if (!scan.hasExternalRefs) {
    return { source, document: source.document, version, repairs, validation: validateInWorker(text, isJson, path, displayPath) };
  }
  // Refs to other files: bundle them in (swagger-parser resolves relative to the spec), then validate
  // a copy here, since the worker only sees this one file. A missing file is named by its $ref first.
  const missing = scan.externalRefs.filter((r) => !/^[a-z][a-z0-9+.-]*:/i.test(r.ref) && !existsSync(resolve(dirname(path), r.ref.split("#")[0])));
  if (missing.length > 0) {
    throw new SpecError(displayPath, missing.map((r) => ({ pointer: r.pointer, problem: `$ref "${r.ref}" names a file that does not exist` })));
  }
  const { default: SwaggerParser } = await import("@apidevtools/swagger-parser");
  let document: Record<string, unknown>;
  try {
    document = (await SwaggerParser.bundle(path)) as unknown as Record<string, unknown>;
  } catch (error) {
    throw new SpecError(displayPath, problemsOf(error));
  }
  // The bundle is validated before anything is built from it: its pointers are the bundle's.
  const verdict = await validateInWorker(JSON.stringify(document), true, path, displayPath);
  if (verdict) throw verdict;
  return { source, document, version, repairs, validation: Promise.resolve(undefined) };
}

function openapiVersion(document: Record<string, unknown>, file: string): "3.0" | "3.1" {
  const declared = document.openapi;
  if (typeof declared === "string" && /^3\.0\.\d+/.test(declared)) return "3.0";
  if (typeof declared === "string" && /^3\.1\.\d+/.test(declared)) return "3.1";
  const what = typeof document.swagger === "string" ? `Swagger ${document.swagger}` : `openapi ${JSON.stringify(declared)}`;
  throw new SpecError(file, [{ pointer: "/openapi", problem: `${what} is not supported: use OpenAPI 3.0 or 3.1` }]);
}
