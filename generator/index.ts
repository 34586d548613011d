// generate(): spec → model → files in memory → (check | atomic write). Nothing touches the output
// directory until every file has rendered, so a failure anywhere leaves it as it was.
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { packageRoot } from "../lib/package-root.ts";
import { emitClient } from "./emit/client-file.ts";
import type { EmitContext, EmittedFile } from "./emit/context.ts";
import { emitIndex } from "./emit/index-file.ts";
import { emitMcp } from "./emit/mcp-file.ts";
import { emitOperations } from "./emit/operations-file.ts";
import { emitReadme } from "./emit/readme-file.ts";
import { emitRpc } from "./emit/rpc-file.ts";
import { emitSchemas } from "./emit/schemas-file.ts";
import { emitServer } from "./emit/server-file.ts";
import { headerLines } from "./emit/templates.ts";
import { emitTypes } from "./emit/types-file.ts";
import { emitWebhooks } from "./emit/webhooks-file.ts";
import { type ZodFlavour, zodDialect } from "./emit/zod-dialect.ts";
import { type LoadedSpec, loadSpec } from "./load/load-spec.ts";
import { formatLocation } from "./load/spec-error.ts";
import { buildModel } from "./model/build-model.ts";
import { loadRpcModel } from "./model/rpc.ts";
import type { SpecModel } from "./model/types.ts";
import { installLines, type OutputNeeds, outputNeeds } from "./output-needs.ts";
import { custodyManifest, custodyVersion, type PackageSpec, packageFiles } from "./package-files.ts";
import { isInside, type RuntimeSource, runtimeSpecifier, vendoredRuntime } from "./runtime-source.ts";
import { diffFiles, writeFilesIfChanged } from "./write/loose-files.ts";
import { diffOutput, type FileChange, writeOutput } from "./write/output.ts";

export { ZOD_FLAVOURS, type ZodFlavour } from "./emit/zod-dialect.ts";
export { SpecError } from "./load/spec-error.ts";
export { type PackageSpec, parsePackageSpec } from "./package-files.ts";
export type { RuntimeSource } from "./runtime-source.ts";
export type { FileChange } from "./write/output.ts";

export interface GenerateOptions {
  specPath: string;
  rpcSpecPath?: string;
  outDir: string;
  /** Write nothing; report what would change. */
  check?: boolean;
  /** Repair the common ways published documents are invalid (each repair is a warning). */
  lenient?: boolean;
  /** Where the output gets runtime/ from (default: "local" inside custody's own package, else "vendor"). */
  runtime?: RuntimeSource;
  /** Write a publishable package into outDir (sources under src/) instead of a bare folder. */
  package?: PackageSpec;
  /** How the schemas are written: classic zod (default) or zod/mini's functions, which bundlers drop when unused. */
  zod?: ZodFlavour;
  /** Also emit an MCP server (mcp-tools.ts, mcp.ts) and vendor runtime/mcp for it. */
  mcp?: boolean;
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
  /** What the output needs installed where it lives; undefined for custody's own generated/ (compiled with runtime/). */
  needs?: OutputNeeds;
}

const PROJECT_ROOT = packageRoot(import.meta.url);
const RUNTIME_DIR = resolve(PROJECT_ROOT, "runtime");

/** The spec path as headers show it: project-relative when inside the project, else its file name. */
export function displayPath(path: string): string {
  const abs = resolve(path);
  const rel = relative(PROJECT_ROOT, abs);
  if (rel !== "" && !rel.startsWith("..") && !isAbsolute(rel)) return rel.split(sep).join("/");
  return abs.split(sep).pop() as string;
}

/** "local" only for custody's own generated/ (compiled together with runtime/); elsewhere "vendor". */
export function defaultRuntimeSource(outDir: string): RuntimeSource {
  return isInside(outDir, PROJECT_ROOT) ? "local" : "vendor";
}

/** Where the TypeScript sources go: outDir itself, or outDir/src for a package. */
export function sourceDir(options: GenerateOptions): string {
  return options.package ? join(options.outDir, "src") : options.outDir;
}

function runtimeSourceOf(options: GenerateOptions): RuntimeSource {
  const source = options.runtime ?? defaultRuntimeSource(sourceDir(options));
  // A local runtime is a path into this custody; output living elsewhere must never point into it.
  if (source === "local" && !isInside(sourceDir(options), PROJECT_ROOT))
    throw new Error(`--runtime local is only for output inside custody's own folder (${PROJECT_ROOT})`);
  return source;
}

export async function renderFiles(options: GenerateOptions): Promise<{ model: SpecModel; files: EmittedFile[] }> {
  return render(options, runtimeSourceOf(options));
}

async function render(
  options: GenerateOptions,
  runtime: RuntimeSource,
): Promise<{ model: SpecModel; files: EmittedFile[] }> {
  const loaded = await loadSpec(options.specPath, displayPath(options.specPath), { lenient: options.lenient });
  let rendered: { model: SpecModel; files: EmittedFile[] };
  try {
    rendered = await renderModel(loaded, options, runtime);
  } catch (error) {
    // A spec that fails validation usually breaks the model too; the validation message is the useful one.
    const invalid = await loaded.validation;
    throw invalid ?? error;
  }
  const invalid = await loaded.validation;
  if (invalid) throw invalid;
  return rendered;
}

async function renderModel(
  loaded: LoadedSpec,
  options: GenerateOptions,
  runtime: RuntimeSource,
): Promise<{ model: SpecModel; files: EmittedFile[] }> {
  const rpcSource =
    options.rpcSpecPath === undefined
      ? undefined
      : await loadRpcModel(options.rpcSpecPath, displayPath(options.rpcSpecPath));
  const model = buildModel(loaded, { rpc: rpcSource });
  const ctx: EmitContext = {
    model,
    headerLines: headerLines([{ path: model.displayPath, sha256: model.sha256 }]),
    rpcHeaderLines: model.rpc ? headerLines([{ path: model.rpc.displayPath, sha256: model.rpc.sha256 }]) : undefined,
    runtime: runtimeSpecifier(runtime, sourceDir(options), RUNTIME_DIR),
    zod: zodDialect(options.zod),
  };
  const files: EmittedFile[] = [
    emitTypes(ctx),
    emitSchemas(ctx),
    emitOperations(ctx),
    emitClient(ctx),
    emitServer(ctx),
  ];
  const webhooks = emitWebhooks(ctx);
  if (webhooks) files.push(webhooks);
  const rpc = emitRpc(ctx);
  if (rpc) files.push(rpc);
  files.push(
    emitIndex(
      ctx,
      files.map((f) => f.path),
    ),
  );
  if (options.mcp) files.push(...emitMcp(ctx, options.package?.name));
  // runtime/mcp needs @modelcontextprotocol/sdk: vendored only for output that has an MCP server.
  if (runtime === "vendor")
    files.push(
      ...(await vendoredRuntime(
        RUNTIME_DIR,
        custodyVersion(),
        (path) => options.mcp === true || !path.startsWith("mcp/"),
      )),
    );
  // The README says what to install, so it is written once every file that imports something is.
  const install = runtime === "local" ? undefined : installLines(outputNeeds(files, custodyManifest()));
  files.push(emitReadme({ ...ctx, install }));
  return { model, files };
}

export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  const started = performance.now();
  const runtime = runtimeSourceOf(options);
  const { model, files } = await render(options, runtime);
  const srcDir = sourceDir(options);
  const srcChanges = await diffOutput(srcDir, files);
  const anyChange = srcChanges.some((c) => c.changed);
  const changes = options.package ? srcChanges.map((c) => ({ ...c, path: `src/${c.path}` })) : srcChanges;
  if (!options.check && anyChange) await writeOutput(srcDir, files);
  let written = options.check || !anyChange ? 0 : files.length;
  if (options.package) {
    // package.json, tsconfig.json and README.md sit beside src/ (and node_modules/, dist/), so they
    // are written one by one instead of replacing the folder.
    const top = packageFiles(options.package, model, files, runtime, custodyManifest());
    const topChanges = await diffFiles(options.outDir, top);
    changes.push(...topChanges);
    if (!options.check) written += await writeFilesIfChanged(options.outDir, top, topChanges);
  }
  return {
    files: changes,
    durationMs: performance.now() - started,
    written,
    operations: model.operations.length,
    schemas: model.schemas.length,
    warnings: [...model.repairs, ...model.warnings].map(
      (w) => `${formatLocation(model.displayPath, w.pointer)}: ${w.problem}`,
    ),
    ...(runtime === "local" ? {} : { needs: outputNeeds(files, custodyManifest()) }),
  };
}
