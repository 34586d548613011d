// One walk over the raw document: every local $ref must resolve. swagger-parser reports a dangling
// ref by its target only; this names the place that refers to it, which is what the author must fix.
import { resolvePointer, toPointer } from "./json-pointer.ts";
import type { SpecProblem } from "./spec-error.ts";

export interface RefScan {
  problems: SpecProblem[];
  /** Refs to other files or URLs: the document must be bundled before use. */
  hasExternalRefs: boolean;
  /** Where each external ref is (pointer of its $ref) and what it names. */
  externalRefs: { pointer: string; ref: string }[];
}

/**
 * Values that are data, not spec: a "$ref" key inside them is not a reference (GitHub's GHEC
 * description has such keys inside example values, pointing to files it does not ship).
 */
function isData(key: string, value: unknown, path: readonly (string | number)[]): boolean {
  if (key === "example" || key === "default" || key === "const" || key === "enum") return true;
  if (key === "examples" && Array.isArray(value)) return true; // 3.1 schema examples
  return key === "value" && path[path.length - 2] === "examples"; // Example Object
}

export function scanRefs(document: unknown): RefScan {
  const problems: SpecProblem[] = [];
  const externalRefs: RefScan["externalRefs"] = [];
  const path: (string | number)[] = [];

  function walk(node: unknown): void {
    if (node === null || typeof node !== "object") return;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        path.push(i);
        walk(node[i]);
        path.pop();
      }
      return;
    }
    const record = node as Record<string, unknown>;
    const ref = record.$ref;
    if (typeof ref === "string") {
      if (!ref.startsWith("#")) externalRefs.push({ pointer: toPointer([...path, "$ref"]), ref });
      else if (resolvePointer(document, ref) === undefined) {
        problems.push({ pointer: toPointer([...path, "$ref"]), problem: `$ref "${ref}" points to nothing` });
      }
    }
    checkMapping(record.discriminator);
    for (const key of Object.keys(record)) {
      if (isData(key, record[key], path)) continue;
      path.push(key);
      walk(record[key]);
      path.pop();
    }
  }

  /** Discriminator mapping values are refs too (as strings), or bare component schema names. */
  function checkMapping(discriminator: unknown): void {
    const mapping = (discriminator as { mapping?: unknown } | null)?.mapping;
    if (mapping === null || typeof mapping !== "object" || Array.isArray(mapping)) return;
    for (const [value, target] of Object.entries(mapping)) {
      if (typeof target !== "string") continue;
      const local = target.startsWith("#")
        ? target
        : /^[^/#.]+$/.test(target)
          ? `#/components/schemas/${target}`
          : undefined;
      if (local !== undefined && resolvePointer(document, local) === undefined) {
        problems.push({
          pointer: toPointer([...path, "discriminator", "mapping", value]),
          problem: `mapping "${value}" points to ${JSON.stringify(target)}, which does not exist`,
        });
      }
    }
  }

  walk(document);
  return { problems, hasExternalRefs: externalRefs.length > 0, externalRefs };
}
