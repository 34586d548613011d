// Worker thread: validates a spec with swagger-parser while the main thread builds the model and
// renders files (validation is the slowest step; swagger-parser dereferences in place, so it needs
// its own parse anyway). Plain JavaScript so it runs without a TS loader.
import { parentPort, workerData } from "node:worker_threads";
import SwaggerParser from "@apidevtools/swagger-parser";

const { path, text, isJson } = workerData;
try {
  // Parsing the text main read (not re-reading the file) keeps both threads on the same bytes;
  // YAML goes through swagger-parser's own parser, as on the main thread.
  const document = isJson ? JSON.parse(text) : await yamlValue(text);
  // The main thread found no external refs outside data (examples): nothing to fetch from elsewhere.
  await SwaggerParser.validate(path, document, {
    resolve: { external: false },
    dereference: { circular: "ignore" },
    validate: { schema: true, spec: true },
  });
  parentPort.postMessage({ ok: true });
} catch (error) {
  const details = Array.isArray(error?.details)
    ? error.details.map(({ instancePath, keyword, message, params }) => ({ instancePath, keyword, message, params }))
    : undefined;
  parentPort.postMessage({ ok: false, message: String(error?.message ?? error), details });
}

async function yamlValue(source) {
  const { createRequire } = await import("node:module");
  const fromHere = createRequire(import.meta.url);
  try {
    const fromRefParser = createRequire(createRequire(fromHere.resolve("@apidevtools/swagger-parser")).resolve("@apidevtools/json-schema-ref-parser"));
    return fromRefParser("js-yaml").load(source);
  } catch {
    const { parse } = await import("yaml");
    return parse(source);
  }
}
