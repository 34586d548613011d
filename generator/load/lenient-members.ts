// --lenient, last step: members the official OpenAPI schema does not allow where they stand (a
// top-level `source`, an `example` inside an `xml` object, ...) found by validating the document and
// left out, one warning each, until it validates or nothing more can be repaired. JSON Schema keywords
// a 3.0 Schema Object does not list (`const`, `patternProperties`, ...) stay in the document with their
// JSON Schema meaning (the validators express them); only the validation copy leaves them out.
import { toPointer, unescapeToken } from "./json-pointer.ts";
import type { SpecProblem } from "./spec-error.ts";
import { type AjvError, validateText, type WorkerVerdict } from "./validate.ts";

type Obj = Record<string, unknown>;

/** Keywords generator/model/resolve-schema.ts reads with their JSON Schema 2020-12 meaning. */
const JSON_SCHEMA_KEYWORDS = new Set([
  "const",
  "examples",
  "$schema",
  "$id",
  "$anchor",
  "$defs",
  "$comment",
  "patternProperties",
  "propertyNames",
  "if",
  "then",
  "else",
  "contains",
  "minContains",
  "maxContains",
  "prefixItems",
  "dependentRequired",
  "dependentSchemas",
  "contentMediaType",
  "contentEncoding",
]);

/** Errors that say "some other branch of a oneOf/anyOf did not fit either", which do not make a member unknown. */
function isBranchNoise(e: AjvError): boolean {
  return (
    e.keyword === "oneOf" ||
    e.keyword === "anyOf" ||
    e.keyword === "if" ||
    (e.keyword === "required" && e.params?.missingProperty === "$ref") ||
    e.keyword === "$ref"
  );
}

const MAX_ROUNDS = 5;

/**
 * Repairs `document` in place. Returns the repairs and the last verdict (of the validation copy).
 */
export async function repairUnknownMembers(
  document: Obj,
  path: string,
): Promise<{ repairs: SpecProblem[]; verdict: WorkerVerdict }> {
  const repairs: SpecProblem[] = [];
  const copy = structuredClone(document);
  let verdict = await validateText(JSON.stringify(copy), true, path);
  for (let round = 0; round < MAX_ROUNDS && !verdict.ok && verdict.details; round++) {
    const errors = verdict.details;
    const candidates = errors.filter(
      (e) => e.keyword === "additionalProperties" && typeof e.params?.additionalProperty === "string",
    );
    let repaired = 0;
    for (const e of candidates) {
      // Only where nothing but unknown members is wrong: a oneOf branch that did not match reports
      // members of the branch that did as "additional", and those must stay.
      const here = errors.filter((o) => o.instancePath === e.instancePath && !isBranchNoise(o));
      if (here.some((o) => o.keyword !== "additionalProperties")) continue;
      const member = e.params!.additionalProperty as string;
      const tokens = e.instancePath === "" ? [] : e.instancePath.slice(1).split("/").map(unescapeToken);
      const inCopy = lookup(copy, tokens);
      if (inCopy === undefined || !Object.hasOwn(inCopy, member)) continue;
      delete inCopy[member];
      const pointer = toPointer([...tokens, member]);
      if (JSON_SCHEMA_KEYWORDS.has(member)) {
        repairs.push({
          pointer,
          problem: `'${member}' is JSON Schema, not a member OpenAPI's schema allows here: kept with its JSON Schema meaning`,
        });
      } else {
        const inDocument = lookup(document, tokens);
        if (inDocument) delete inDocument[member];
        repairs.push({ pointer, problem: `'${member}' is not a member the OpenAPI schema allows here: left out` });
      }
      repaired++;
    }
    if (repaired === 0) break;
    verdict = await validateText(JSON.stringify(copy), true, path);
  }
  return { repairs, verdict };
}

function lookup(root: unknown, tokens: readonly string[]): Obj | undefined {
  let node = root;
  for (const t of tokens) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Obj)[t];
  }
  return node !== null && typeof node === "object" && !Array.isArray(node) ? (node as Obj) : undefined;
}
