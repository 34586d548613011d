// generate(): spec → model → files in memory → (check | atomic write). Nothing touches the output
// directory until every file has rendered, so a failure anywhere leaves it as it was.
import { isAbsolute, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { loadSpec, type LoadedSpec } from "./load/load-spec.ts";
import { buildModel } from "./model/build-model.ts";
import { loadRpcModel } from "./model/rpc.ts";
import type { SpecModel } from "./model/types.ts";
import { emitClient } from "./emit/client-file.ts";
import type { EmitContext, EmittedFile } from "./emit/context.ts";
import { emitIndex } from "./emit/index-file.ts";
import { emitOperations } from "./emit/operations-file.ts";
import { emitReadme } from "./emit/readme-file.ts";
import { emitRpc } from "./emit/rpc-file.ts";
import { emitSchemas } from "./emit/schemas-file.ts";
import { emitServer } from "./emit/server-file.ts";
import { headerLines } from "./emit/templates.ts";
import { emitTypes } from "./emit/types-file.ts";
import { emitWebhooks } from "./emit/webhooks-file.ts";
import { diffOutput, writeOutput, type FileChange } from "./write/output.ts";

import { formatLocation } from "./load/spec-error.ts";

export { SpecError } from "./load/spec-error.ts";
export type { FileChange } from "./write/output.ts";

export interface GenerateOptions {
  specPath: string;
  rpcSpecPath?: string;
  outDir: string;
  /** Write nothing; report what would change. */
  check?: boolean;
  /** Repair the common ways published documents are invalid (each repair is a warning). */
  lenient?: boolean;
}

export interface GenerateResult {
  /** Every file that is or would be in the output, plus removed ones. */
  files: FileChange[];
  durationMs: number;
  /** Files written (0 in check mode or when nothing changed). */
  written: number;
  operations: number;
  schemas: number;
  /** `file#/pointer: message`: --lenient repairs, then keywords the validators do not express. */
  warnings: string[];
}

const PROJECT_ROOT = fileURLToPath(new URL("../", import.meta.url));
const RUNTIME_DIR = resolve(PROJECT_ROOT, "runtime");

/** The spec path as headers show it: project-relative when inside the project, else its file name. */
export function displayPath(path: string): string {
  const abs = resolve(path);
  const rel = relative(PROJECT_ROOT, abs);
  if (rel !== "" && !rel.startsWith("..") && !isAbsolute(rel)) return rel.split(sep).join("/");
  return abs.split(sep).pop() as string;
}

/** How the output directory imports runtime/ ("../runtime" for generated/). */
export function runtimeImportFrom(outDir: string): string {
  const rel = relative(resolve(outDir), RUNTIME_DIR).split(sep).join("/");
  return rel.startsWith(".") ? rel : `./${rel}`;
}

export async function renderFiles(options: GenerateOptions): Promise<{ model: SpecModel; files: EmittedFile[] }> {
  const loaded = await loadSpec(options.specPath, displayPath(options.specPath), { lenient: options.lenient });
  let rendered: { model: SpecModel; files: EmittedFile[] };
  try {
    rendered = await renderModel(loaded, options);
  } catch (error) {
    // A spec that fails validation usually breaks the model too; the validation message is the useful one.
    const invalid = await loaded.validation;
    throw invalid ?? error;
  }
  const invalid = await loaded.validation;
  if (invalid) throw invalid;
  return rendered;
}

async function renderModel(loaded: LoadedSpec, options: GenerateOptions): Promise<{ model: SpecModel; files: EmittedFile[] }> {
  const rpcSource = options.rpcSpecPath === undefined ? undefined : await loadRpcModel(options.rpcSpecPath, displayPath(options.rpcSpecPath));
  const model = buildModel(loaded, { rpc: rpcSource });
  const ctx: EmitContext = {
    model,
    headerLines: headerLines([{ path: model.displayPath, sha256: model.sha256 }]),
    rpcHeaderLines: model.rpc ? headerLines([{ path: model.rpc.displayPath, sha256: model.rpc.sha256 }]) : undefined,
    runtimeImport: runtimeImportFrom(options.outDir),
  };
  const files: EmittedFile[] = [emitTypes(ctx), emitSchemas(ctx), emitOperations(ctx), emitClient(ctx), emitServer(ctx)];
  const webhooks = emitWebhooks(ctx);
  if (webhooks) files.push(webhooks);
  const rpc = emitRpc(ctx);
  if (rpc) files.push(rpc);
  files.push(emitIndex(ctx, files.map((f) => f.path)));
  files.push(emitReadme(ctx));
  return { model, files };
}

export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  const started = performance.now();
  const { model, files } = await renderFiles(options);
  const changes = await diffOutput(options.outDir, files);
  const anyChange = changes.some((c) => c.changed);
  if (!options.check && anyChange) await writeOutput(options.outDir, files);
  return {
    files: changes,
    durationMs: performance.now() - started,
    written: options.check || !anyChange ? 0 : files.length,
    operations: model.operations.length,
    schemas: model.schemas.length,
    warnings: [...model.repairs, ...model.warnings].map((w) => `${formatLocation(model.displayPath, w.pointer)}: ${w.problem}`),
  };
}
