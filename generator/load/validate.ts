// Validation against the official OpenAPI 3.0 and 3.1 JSON schemas, in a worker thread
// (validate-worker.mjs); ajv's errors become `file#/pointer: problem`.
import { Worker } from "node:worker_threads";
import { SpecError, type SpecProblem } from "./spec-error.ts";

const WORKER_URL = new URL("./validate-worker.mjs", import.meta.url);

/** What the worker answers: valid, or ajv's errors (details) or the reason it could not validate. */
export interface WorkerVerdict {
  ok: boolean;
  message?: string;
  details?: AjvError[];
}

export interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params?: Record<string, unknown>;
}

/** The one worker of this process (compiling the official schemas once), with the requests it owes. */
let shared: { worker: Worker; pending: Map<number, (verdict: WorkerVerdict) => void>; next: number } | undefined;

function validationWorker(): NonNullable<typeof shared> {
  if (shared !== undefined) return shared;
  const worker = new Worker(WORKER_URL);
  const state = { worker, pending: new Map<number, (verdict: WorkerVerdict) => void>(), next: 0 };
  const settle = (id: number, verdict: WorkerVerdict) => {
    state.pending.get(id)?.(verdict);
    state.pending.delete(id);
    // Idle, the worker must not keep the process alive.
    if (state.pending.size === 0) worker.unref();
  };
  const failAll = (message: string) => {
    if (shared === state) shared = undefined;
    for (const id of [...state.pending.keys()]) settle(id, { ok: false, message });
  };
  worker.on("message", ({ id, verdict }: { id: number; verdict: WorkerVerdict }) => settle(id, verdict));
  worker.once("error", (error) => failAll(error.message));
  worker.once("exit", (code) => failAll(`validation worker exited with code ${code}`));
  shared = state;
  return state;
}

/** Validates a document's text in the worker thread (validate-worker.mjs). */
export function validateText(text: string, isJson: boolean, filePath: string): Promise<WorkerVerdict> {
  const state = validationWorker();
  const id = state.next++;
  return new Promise((resolve) => {
    state.pending.set(id, resolve);
    state.worker.ref();
    state.worker.postMessage({ id, path: filePath, text, isJson });
  });
}

/** The verdict as the SpecError to throw, or undefined when valid. */
export function verdictError(verdict: WorkerVerdict, displayPath: string): SpecError | undefined {
  if (verdict.ok) return undefined;
  return new SpecError(
    displayPath,
    problemsOf(Object.assign(new Error(verdict.message ?? "validation failed"), { details: verdict.details })),
  );
}

/**
 * Validates the file's text in a worker thread. Resolves to the SpecError (or
 * undefined when valid) instead of rejecting, so it can run unobserved while the caller works.
 */
export function validateInWorker(
  text: string,
  isJson: boolean,
  filePath: string,
  displayPath: string,
): Promise<SpecError | undefined> {
  return validateText(text, isJson, filePath).then((verdict) => verdictError(verdict, displayPath));
}

export function problemsOf(error: unknown): SpecProblem[] {
  const details = (error as { details?: unknown }).details;
  if (Array.isArray(details) && details.length > 0) return ajvProblems(details as AjvError[]);
  const message = error instanceof Error ? error.message : String(error);
  const missing = /Missing \$ref pointer "([^"]*)"/.exec(message);
  if (missing) return [{ pointer: "", problem: `$ref "${missing[1]}" points to nothing` }];
  return [{ pointer: "", problem: message.split("\n")[0] }];
}

/** Keeps the most specific errors: those whose location holds no deeper error (oneOf noise sits above). */
function ajvProblems(errors: AjvError[]): SpecProblem[] {
  const paths = errors.map((e) => e.instancePath);
  const leaves = errors.filter((e) => !paths.some((p) => p !== e.instancePath && p.startsWith(`${e.instancePath}/`)));
  const seen = new Set<string>();
  const problems: SpecProblem[] = [];
  for (const e of leaves) {
    const problem = describe(e);
    const key = `${e.instancePath}\0${problem}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push({ pointer: e.instancePath, problem });
  }
  return problems;
}

function describe(e: AjvError): string {
  const base = e.message ?? e.keyword;
  const params = e.params ?? {};
  if (e.keyword === "additionalProperties" && typeof params.additionalProperty === "string") {
    return `${base}: '${params.additionalProperty}'`;
  }
  if (e.keyword === "enum" && Array.isArray(params.allowedValues)) return `${base}: ${params.allowedValues.join(", ")}`;
  return base;
}
