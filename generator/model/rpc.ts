// The OpenRPC document (node access): methods with by-position params and a result, and the
// component schemas they use (named with an "Rpc" prefix so they never meet the wallet API's names).

import { scanRefs } from "../load/check-refs.ts";
import { resolvePointer } from "../load/json-pointer.ts";
import { readDocument } from "../load/read-document.ts";
import { SpecError, type SpecProblem } from "../load/spec-error.ts";
import { buildComponentSchemas } from "./build-model.ts";
import { isIdentifier, type NameRegistry, toPascalCase } from "./names.ts";
import { SchemaResolver } from "./resolve-schema.ts";
import { isPlainZodObject } from "./schema-shape.ts";
import type { RpcMethodModel, RpcModel, Schema } from "./types.ts";

type Obj = Record<string, unknown>;

/** Reads and checks the OpenRPC file now; names are handed out later, when the model is built. */
export async function loadRpcModel(path: string, displayPath: string): Promise<(names: NameRegistry) => RpcModel> {
  const source = await readDocument(path, displayPath);
  const document = source.document;
  const problems: SpecProblem[] = [];
  if (typeof document.openrpc !== "string" || !/^1\./.test(document.openrpc)) {
    problems.push({ pointer: "/openrpc", problem: "not an OpenRPC 1.x document" });
  }
  if (!Array.isArray(document.methods)) problems.push({ pointer: "/methods", problem: "must be an array of methods" });
  problems.push(...scanRefs(document).problems);
  const methods = Array.isArray(document.methods) ? (document.methods as unknown[]) : [];
  methods.forEach((m, i) => {
    const method = m as Obj;
    if (!method || typeof method.name !== "string")
      problems.push({ pointer: `/methods/${i}/name`, problem: "a method needs a name" });
    else if (!Array.isArray(method.params))
      problems.push({ pointer: `/methods/${i}/params`, problem: "must be an array" });
  });
  if (problems.length > 0) throw new SpecError(displayPath, problems);

  return (names) => {
    const schemas = buildComponentSchemas(document, names, "Rpc");
    const resolver = new SchemaResolver(document, "3.1", new Map(schemas.map((s) => [s.ref, s])));
    for (const named of schemas) named.zodObject = isPlainZodObject(named.schema, resolver);
    const info = (document.info ?? {}) as Obj;
    return {
      displayPath,
      sha256: source.sha256,
      title: typeof info.title === "string" ? info.title : "JSON-RPC",
      document,
      schemas,
      resolver,
      methods: methods.map((m) => methodModel(m as Obj, names, document)),
    };
  };
}

/** A content descriptor, following `$ref` (components/contentDescriptors) to the descriptor itself. */
function descriptor(document: Obj, value: unknown): Obj {
  let current = value as Obj | undefined;
  for (let hops = 0; current && typeof current.$ref === "string" && hops < 16; hops++)
    current = resolvePointer(document, current.$ref) as Obj | undefined;
  return current ?? {};
}

function methodModel(method: Obj, names: NameRegistry, document: Obj): RpcMethodModel {
  const name = method.name as string;
  const typeBase = names.claim(toPascalCase(name), ["Params", "Result", "ParamsSchema", "ResultSchema"]);
  const params = (method.params as unknown[])
    .map((entry) => descriptor(document, entry))
    .map((p) => ({
      name: String(p.name),
      required: p.required === true,
      schema: (p.schema as Schema | undefined) ?? {},
      description: typeof p.description === "string" ? p.description : undefined,
    }));
  const result = method.result === undefined ? undefined : descriptor(document, method.result);
  return {
    name,
    clientName: isIdentifier(name) ? name : toPascalCase(name).replace(/^./, (c) => c.toLowerCase()),
    summary: typeof method.summary === "string" ? method.summary : undefined,
    params,
    result: result
      ? { name: String(result.name ?? "result"), schema: (result.schema as Schema | undefined) ?? {} }
      : undefined,
    typeBase,
    names: {
      params: `${typeBase}Params`,
      result: `${typeBase}Result`,
      paramsSchema: `${typeBase}ParamsSchema`,
      resultSchema: `${typeBase}ResultSchema`,
    },
  };
}
