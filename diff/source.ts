// Reads one side of a diff: a file, or `git:REF:path` read with `git show` (a self-contained document:
// relative $refs to other files are not followed from a git revision). It uses the generator's loader:
// parse errors as `file:line:col`, dangling $refs as `file#/pointer`, other files' refs bundled by
// swagger-parser. Full validation against the OpenAPI schema runs only with `validate`, since a diff
// usually compares documents CI has already validated.
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { scanRefs } from "../generator/load/check-refs.ts";
import { fromSwagger2, loadSpec } from "../generator/load/load-spec.ts";
import { readDocument } from "../generator/load/read-document.ts";
import { SpecError } from "../generator/load/spec-error.ts";
import { isSwagger2 } from "../generator/load/swagger2.ts";
import { problemsOf } from "../generator/load/validate.ts";
import { SpecDoc } from "./document.ts";

export type Kind = "openapi" | "openrpc";

export interface GitSource {
  ref: string;
  path: string;
}

/** `git:REF:path` → its parts; undefined for a plain file path. */
export function parseGitSource(arg: string): GitSource | undefined {
  if (!arg.startsWith("git:")) return undefined;
  const rest = arg.slice(4);
  const colon = rest.indexOf(":");
  if (colon <= 0 || colon === rest.length - 1)
    throw new SpecError(arg, [{ pointer: "", problem: "expected git:REF:path, e.g. git:HEAD~1:spec/openapi.yaml" }]);
  return { ref: rest.slice(0, colon), path: rest.slice(colon + 1) };
}

/** The bytes of `path` at `ref`, from the repository around the working directory (or `cwd`). */
export function gitShow(source: GitSource, display: string, cwd?: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      ["show", `${source.ref}:${source.path}`],
      { encoding: "buffer", maxBuffer: 1 << 30, cwd },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const why = stderr.toString("utf8").trim().split("\n")[0] || error.message;
        reject(new SpecError(display, [{ pointer: "", problem: `cannot read it with git: ${why}` }]));
      },
    );
  });
}

export interface LoadOptions {
  /** Validate OpenAPI documents against the official OpenAPI schema. */
  validate?: boolean;
}

export async function loadSide(arg: string, kind: Kind, options: LoadOptions = {}): Promise<SpecDoc> {
  const git = parseGitSource(arg);
  if (!git) return loadFile(arg, arg, kind, options);
  const bytes = await gitShow(git, arg);
  const dir = await mkdtemp(join(tmpdir(), "custody-diff-"));
  try {
    const file = join(dir, basename(git.path) || "spec");
    await writeFile(file, bytes);
    return await loadFile(file, arg, kind, options);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function loadFile(path: string, display: string, kind: Kind, options: LoadOptions): Promise<SpecDoc> {
  if (kind === "openrpc") {
    const source = await readDocument(path, display);
    const doc = source.document;
    if (typeof doc.openrpc !== "string" || !/^1\./.test(doc.openrpc))
      throw new SpecError(display, [{ pointer: "/openrpc", problem: "not an OpenRPC 1.x document" }]);
    if (!Array.isArray(doc.methods))
      throw new SpecError(display, [{ pointer: "/methods", problem: "must be an array of methods" }]);
    const problems = scanRefs(doc).problems;
    if (problems.length > 0) throw new SpecError(display, problems);
    return new SpecDoc(doc, display);
  }
  if (options.validate) {
    const loaded = await loadSpec(path, display);
    const invalid = await loaded.validation;
    if (invalid) throw invalid;
    return new SpecDoc(loaded.document, display);
  }
  const read = await readDocument(path, display);
  // Swagger 2.0 is compared as the OpenAPI 3.0 it converts to (pointers are the converted document's).
  const source = isSwagger2(read.document) ? (await fromSwagger2(read, path, display)).source : read;
  checkOpenapiVersion(source.document, display);
  const scan = scanRefs(source.document);
  if (scan.problems.length > 0) throw new SpecError(display, scan.problems);
  if (!scan.hasExternalRefs) return new SpecDoc(source.document, display);
  const { default: SwaggerParser } = await import("@apidevtools/swagger-parser");
  try {
    return new SpecDoc((await SwaggerParser.bundle(path)) as unknown as Record<string, unknown>, display);
  } catch (error) {
    throw new SpecError(display, problemsOf(error));
  }
}

function checkOpenapiVersion(document: Record<string, unknown>, display: string): void {
  if (typeof document.openapi === "string" && /^3\.[01]\.\d+/.test(document.openapi)) return;
  const what =
    typeof document.swagger === "string"
      ? `Swagger ${document.swagger}`
      : `openapi ${JSON.stringify(document.openapi)}`;
  throw new SpecError(display, [
    { pointer: "/openapi", problem: `${what} is not supported: use Swagger 2.0, OpenAPI 3.0 or 3.1` },
  ]);
}
