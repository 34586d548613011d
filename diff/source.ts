// Reads one side of a diff: a file, or `git:REF:path` read with `git show` (a self-contained document:
// relative $refs to other files are not followed from a git revision). OpenAPI goes through the
// generator's loader (parse, refs, bundle, swagger-parser validation), so errors read `file#/pointer: …`.
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { scanRefs } from "../generator/load/check-refs.ts";
import { loadSpec } from "../generator/load/load-spec.ts";
import { readDocument } from "../generator/load/read-document.ts";
import { SpecError } from "../generator/load/spec-error.ts";
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
  if (colon <= 0 || colon === rest.length - 1) throw new SpecError(arg, [{ pointer: "", problem: "expected git:REF:path, e.g. git:HEAD~1:spec/openapi.yaml" }]);
  return { ref: rest.slice(0, colon), path: rest.slice(colon + 1) };
}

/** The bytes of `path` at `ref`, from the repository around the working directory (or `cwd`). */
export function gitShow(source: GitSource, display: string, cwd?: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile("git", ["show", `${source.ref}:${source.path}`], { encoding: "buffer", maxBuffer: 1 << 30, cwd }, (error, stdout, stderr) => {
      if (!error) return resolve(stdout);
      const why = stderr.toString("utf8").trim().split("\n")[0] || error.message;
      reject(new SpecError(display, [{ pointer: "", problem: `cannot read it with git: ${why}` }]));
    });
  });
}

export async function loadSide(arg: string, kind: Kind): Promise<SpecDoc> {
  const git = parseGitSource(arg);
  if (!git) return loadFile(arg, arg, kind);
  const bytes = await gitShow(git, arg);
  const dir = await mkdtemp(join(tmpdir(), "custody-diff-"));
  try {
    const file = join(dir, basename(git.path) || "spec");
    await writeFile(file, bytes);
    return await loadFile(file, arg, kind);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function loadFile(path: string, display: string, kind: Kind): Promise<SpecDoc> {
  if (kind === "openrpc") {
    const source = await readDocument(path, display);
    const doc = source.document;
    if (typeof doc.openrpc !== "string" || !/^1\./.test(doc.openrpc)) throw new SpecError(display, [{ pointer: "/openrpc", problem: "not an OpenRPC 1.x document" }]);
    if (!Array.isArray(doc.methods)) throw new SpecError(display, [{ pointer: "/methods", problem: "must be an array of methods" }]);
    const problems = scanRefs(doc).problems;
    if (problems.length > 0) throw new SpecError(display, problems);
    return new SpecDoc(doc, display);
  }
  const loaded = await loadSpec(path, display);
  const invalid = await loaded.validation;
  if (invalid) throw invalid;
  return new SpecDoc(loaded.document, display);
}
