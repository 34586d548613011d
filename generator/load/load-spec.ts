// Loads an OpenAPI 3.0/3.1 document (or Swagger 2.0, converted to 3.0 first: swagger2.ts): parse, check refs, bundle external files, validate. The result is
// the bundled but NOT dereferenced document, so $ref names survive into the model (named types).
// Validation against the official OpenAPI schema (the slowest step) runs in a worker thread while the caller builds the
// model and renders; callers must await `validation` before writing anything.
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { scanRefs } from "./check-refs.ts";
import { repairDocument } from "./lenient.ts";
import { repairUnknownMembers } from "./lenient-members.ts";
import { readDocument, type SpecDocument } from "./read-document.ts";
import { SpecError, type SpecProblem } from "./spec-error.ts";
import { convertSwagger2, isSwagger2 } from "./swagger2.ts";
import { problemsOf, validateInWorker, verdictError } from "./validate.ts";

export interface LoadedSpec {
  source: SpecDocument;
  /** Bundled (external refs inlined), not dereferenced. */
  document: Record<string, unknown>;
  version: "3.0" | "3.1";
  /** swagger-parser's verdict, still running when loadSpec returns: undefined when valid. */
  validation: Promise<SpecError | undefined>;
  /** What a Swagger 2.0 conversion lost, then what --lenient repaired: one entry each. */
  repairs: SpecProblem[];
}

export async function loadSpec(
  path: string,
  displayPath: string,
  options: { lenient?: boolean } = {},
): Promise<LoadedSpec> {
  const read = await readDocument(path, displayPath);
  const { source, losses } = isSwagger2(read.document)
    ? await fromSwagger2(read, path, displayPath)
    : { source: read, losses: [] };
  const version = openapiVersion(source.document, displayPath);
  const repairs = [...losses, ...(options.lenient ? repairDocument(source.document, version) : [])];
  // Validation reads the text: after a conversion or repairs, the document's as it now is.
  const changed = repairs.length > 0 || source !== read;
  const text = changed ? JSON.stringify(source.document) : source.text;
  const isJson = changed || source.isJson;
  const scan = scanRefs(source.document);
  if (scan.problems.length > 0) throw new SpecError(displayPath, scan.problems);
  if (!scan.hasExternalRefs) {
    if (options.lenient)
      return {
        source,
        document: source.document,
        version,
        ...(await repairMembers(source.document, repairs, path, displayPath)),
      };
    return {
      source,
      document: source.document,
      version,
      repairs,
      validation: validateInWorker(text, isJson, path, displayPath),
    };
  }
  // Refs to other files: bundle them in (swagger-parser resolves relative to the spec), then validate
  // a copy here, since the worker only sees this one file. A missing file is named by its $ref first.
  const missing = scan.externalRefs.filter(
    (r) => !/^[a-z][a-z0-9+.-]*:/i.test(r.ref) && !existsSync(resolve(dirname(path), r.ref.split("#")[0])),
  );
  if (missing.length > 0) {
    throw new SpecError(
      displayPath,
      missing.map((r) => ({ pointer: r.pointer, problem: `$ref "${r.ref}" names a file that does not exist` })),
    );
  }
  const { default: SwaggerParser } = await import("@apidevtools/swagger-parser");
  let document: Record<string, unknown>;
  try {
    document = (await SwaggerParser.bundle(path)) as unknown as Record<string, unknown>;
  } catch (error) {
    throw new SpecError(displayPath, problemsOf(error));
  }
  // The bundle is validated before anything is built from it: its pointers are the bundle's.
  if (options.lenient) {
    const repaired = await repairMembers(document, repairs, path, displayPath);
    const invalid = await repaired.validation;
    if (invalid) throw invalid;
    return { source, document, version, repairs: repaired.repairs, validation: Promise.resolve(undefined) };
  }
  const verdict = await validateInWorker(JSON.stringify(document), true, path, displayPath);
  if (verdict) throw verdict;
  return { source, document, version, repairs, validation: Promise.resolve(undefined) };
}

/** --lenient's last repairs (lenient-members.ts): validation runs first, here, instead of beside the model. */
async function repairMembers(
  document: Record<string, unknown>,
  earlier: SpecProblem[],
  path: string,
  displayPath: string,
): Promise<{ repairs: SpecProblem[]; validation: Promise<SpecError | undefined> }> {
  const { repairs, verdict } = await repairUnknownMembers(document, path);
  return { repairs: [...earlier, ...repairs], validation: Promise.resolve(verdictError(verdict, displayPath)) };
}

/**
 * A Swagger 2.0 document as OpenAPI 3.0 (swagger2.ts); refs to other files are bundled in first, as
 * the conversion reads one document. Its losses are reported beside --lenient's repairs.
 */
export async function fromSwagger2(
  read: SpecDocument,
  path: string,
  displayPath: string,
): Promise<{ source: SpecDocument; losses: SpecProblem[] }> {
  const scan = scanRefs(read.document);
  if (scan.problems.length > 0) throw new SpecError(displayPath, scan.problems);
  let document = read.document;
  if (scan.hasExternalRefs) {
    const { default: SwaggerParser } = await import("@apidevtools/swagger-parser");
    try {
      document = (await SwaggerParser.bundle(path)) as unknown as Record<string, unknown>;
    } catch (error) {
      throw new SpecError(displayPath, problemsOf(error));
    }
  }
  const converted = await convertSwagger2(document, displayPath);
  const losses = converted.losses.map((l) => ({ ...l, problem: `Swagger 2.0 conversion: ${l.problem}` }));
  return { source: { ...read, document: converted.document }, losses };
}

function openapiVersion(document: Record<string, unknown>, file: string): "3.0" | "3.1" {
  const declared = document.openapi;
  if (typeof declared === "string" && /^3\.0\.\d+/.test(declared)) return "3.0";
  if (typeof declared === "string" && /^3\.1\.\d+/.test(declared)) return "3.1";
  const what =
    typeof document.swagger === "string" ? `Swagger ${document.swagger}` : `openapi ${JSON.stringify(declared)}`;
  throw new SpecError(file, [
    { pointer: "/openapi", problem: `${what} is not supported: use Swagger 2.0, OpenAPI 3.0 or 3.1` },
  ]);
}
