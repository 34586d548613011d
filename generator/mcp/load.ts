// The tool table of an OpenAPI document on disk, through the generator's loader and model (so the
// MCP server and the SDK read a document the same way, --lenient repairs included).

import type { ToolOperation } from "../../runtime/mcp/tool-table.ts";
import { displayPath } from "../index.ts";
import { loadSpec } from "../load/load-spec.ts";
import { buildModel } from "../model/build-model.ts";
import { toolTable } from "./tools-from-spec.ts";

export interface LoadedTools {
  title: string;
  apiVersion: string;
  table: ToolOperation[];
}

export async function loadToolTable(specPath: string, options: { lenient?: boolean } = {}): Promise<LoadedTools> {
  const loaded = await loadSpec(specPath, displayPath(specPath), options);
  const invalid = await loaded.validation;
  if (invalid) throw invalid;
  const model = buildModel(loaded);
  return { title: model.title, apiVersion: model.apiVersion, table: toolTable(model) };
}
