// Swagger 2.0 input: converted to OpenAPI 3.0 by swagger2openapi (what ReadMe's oas-normalize and the
// SAP Cloud SDK's generator use; complete for 2.0's body/formData parameters, collectionFormat, file
// uploads, consumes/produces, securityDefinitions, x-nullable, discriminators, host/basePath/schemes),
// then the rest of the pipeline is unchanged. It is an optional peer dependency, loaded only when a 2.0
// document arrives: its 41 packages (about 5 MB) are paid for only by those who need it.
// What 3.x cannot say, or what the conversion changes, is reported: one warning per loss, pointing
// into the 2.0 document.
import { toPointer } from "./json-pointer.ts";
import { SpecError, type SpecProblem } from "./spec-error.ts";

export function isSwagger2(document: Record<string, unknown>): boolean {
  return typeof document.swagger === "string" && /^2\.0(\.\d+)?$/.test(document.swagger);
}

export const SWAGGER2_MISSING =
  "Swagger 2.0 needs the converter swagger2openapi, an optional dependency custody loads only for 2.0 documents: npm install swagger2openapi";

interface Converter {
  convertObj(document: unknown, options: Record<string, unknown>): Promise<{ openapi: Record<string, unknown> }>;
}

/** The converter module (`specifier` only differs in tests, to see the message when it is missing). */
export async function loadConverter(file: string, specifier = "swagger2openapi"): Promise<Converter> {
  try {
    // A specifier in a variable: no type declarations needed, and bundlers leave the optional import alone.
    const module = (await import(specifier)) as { default?: Converter } & Converter;
    return module.default ?? module;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND")
      throw new SpecError(file, [{ pointer: "/swagger", problem: SWAGGER2_MISSING }]);
    throw error;
  }
}

/** The 2.0 document as OpenAPI 3.0.x, and what the conversion lost. `document` is not changed. */
export async function convertSwagger2(
  document: Record<string, unknown>,
  file: string,
): Promise<{ document: Record<string, unknown>; losses: SpecProblem[] }> {
  const losses = conversionLosses(document);
  const converter = await loadConverter(file);
  let converted: Record<string, unknown>;
  try {
    // patch: repair what 2.0 documents commonly get wrong instead of refusing; no fetching of
    // anything (external refs are bundled from files before this, see load-spec.ts).
    const result = await converter.convertObj(structuredClone(document), {
      patch: true,
      warnOnly: true,
      resolve: false,
      resolveInternal: false,
      direct: false,
    });
    converted = result.openapi;
  } catch (error) {
    const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new SpecError(file, [{ pointer: "", problem: `Swagger 2.0 conversion failed: ${message}` }]);
  }
  losses.push(...renamedDefinitions(document, converted));
  return { document: converted, losses };
}

const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch"];

/** What 3.x has no place for, found in the 2.0 document itself. */
export function conversionLosses(document: Record<string, unknown>): SpecProblem[] {
  const losses: SpecProblem[] = [];
  const visitParameters = (list: unknown, path: string[]) => {
    if (!Array.isArray(list)) return;
    list.forEach((raw, i) => {
      if (raw === null || typeof raw !== "object") return;
      const p = raw as Record<string, unknown>;
      const at = [...path, String(i)];
      if (p.collectionFormat === "tsv")
        losses.push({
          pointer: toPointer([...at, "collectionFormat"]),
          problem: "collectionFormat tsv has no OpenAPI 3 style: read as comma-separated (style form, explode false)",
        });
      if (p.in === "formData" && p.allowEmptyValue === true)
        losses.push({
          pointer: toPointer([...at, "allowEmptyValue"]),
          problem: "allowEmptyValue on a form field has no OpenAPI 3 equivalent in a request body: left out",
        });
      if (
        p.in === "formData" &&
        p.type === "array" &&
        typeof p.collectionFormat === "string" &&
        p.collectionFormat !== "multi" &&
        p.collectionFormat !== "csv"
      ) {
        losses.push({
          pointer: toPointer([...at, "collectionFormat"]),
          problem: `collectionFormat ${p.collectionFormat} on a form field: the request body's encoding carries it, which custody's client and validators do not read (they send repeated fields)`,
        });
      }
    });
  };
  visitParameters(
    (document as { parameters?: unknown }).parameters === undefined
      ? undefined
      : Object.values(document.parameters as object),
    ["parameters"],
  );
  for (const [path, item] of Object.entries((document.paths ?? {}) as Record<string, Record<string, unknown>>)) {
    if (item === null || typeof item !== "object") continue;
    visitParameters(item.parameters, ["paths", path, "parameters"]);
    for (const method of HTTP_METHODS) {
      const op = item[method] as Record<string, unknown> | undefined;
      if (op === null || typeof op !== "object") continue;
      visitParameters(op.parameters, ["paths", path, method, "parameters"]);
    }
  }
  return losses;
}

/** Definitions whose names OpenAPI 3 does not allow as component keys (^[a-zA-Z0-9._-]+$) are renamed by the converter. */
function renamedDefinitions(document: Record<string, unknown>, converted: Record<string, unknown>): SpecProblem[] {
  const before = Object.keys((document.definitions ?? {}) as object);
  const after = new Set(
    Object.keys((((converted.components ?? {}) as Record<string, unknown>).schemas ?? {}) as object),
  );
  return before
    .filter((name) => !after.has(name))
    .map((name) => ({
      pointer: toPointer(["definitions", name]),
      problem: `the name ${JSON.stringify(name)} is not a valid OpenAPI 3 component name: renamed by the conversion`,
    }));
}
