// Follows one Markdown page to the letter (the markers of test/support/doc-blocks.ts): in a fresh project
// folder that has custody installed from its tarball, it runs the page's shell blocks in order with bash
// (exports and `cd` carry from one block to the next, as in one terminal), writes its file blocks, starts
// its background blocks and stops them at the end, and parses the JavaScript files the page wrote.
// It throws at the first step that does not do what the page says, naming the page and the line. The
// TypeScript files a page wrote and did not compile itself are type-checked by typeCheckPages, one tsc
// program for every page of the run (the compiler's libraries, @types/node and zod read once, not per page).
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join, relative } from "node:path";
import { TSC_NODE_FLAGS } from "../../generator/typecheck.ts";
import { childrenCpuMs } from "./children-cpu.ts";
import { type Block, blocksOf } from "./doc-blocks.ts";

const SHELLS = new Set(["sh", "bash", "shell", "console"]);
const STEP_TIMEOUT_MS = 240_000;

export interface FollowOptions {
  /** The page's name in messages (its path in the repository). */
  page: string;
  /** An empty folder: the page's project. */
  project: string;
  /** node_modules of a project where custody and the user's dev tools are installed (linked, not copied). */
  modules?: string;
  /** Extra environment (isolation only: where the sandbox writes its credentials file). */
  env?: Record<string, string>;
}

/** Background blocks still running, for stopAll when a test run ends early. */
const running = new Set<ChildProcess>();

/** Stops every background block still running (a test file's afterAll). */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map(stopGroup));
}

interface Page extends FollowOptions {
  state: string;
  background: ChildProcess[];
  written: string[];
  /** A block of the page ran tsc and exited 0. */
  ranTsc: boolean;
}

export interface Followed {
  /** What ran, one line per step. */
  log: string[];
  /** The TypeScript files the page wrote (absolute) that its own tsc did not compile: for typeCheckPages. */
  typescript: string[];
}

/** Runs the page; resolves with what ran, rejects at the first step that fails. */
export async function followPage(text: string, options: FollowOptions): Promise<Followed> {
  const page: Page = {
    ...options,
    state: join(options.project, ".doc-state"),
    background: [],
    written: [],
    ranTsc: false,
  };
  mkdirSync(page.state, { recursive: true });
  writeNpx(join(page.state, "bin"));
  writeFileSync(
    join(page.project, "package.json"),
    JSON.stringify({ name: "doc-project", private: true, type: "module" }),
  );
  if (options.modules) symlinkSync(options.modules, join(page.project, "node_modules"), "dir");
  writeFileSync(join(page.state, "cwd"), page.project);
  const log: string[] = [];
  let typescript: string[] = [];
  try {
    for (const block of blocksOf(text)) {
      const started = performance.now();
      const cpu = childrenCpuMs();
      const step = await followBlock(page, block);
      // A foreground step's processes are reaped when it ends: their CPU is the step's (Linux; 0 elsewhere).
      if (step) log.push(`${step} (${seconds(started)}, ${cpuSeconds(cpu)})`);
    }
    typescript = await checkWritten(page, log);
  } finally {
    // Not measured: a background step's processes are its shell's children, which the stop outlives.
    await Promise.all(page.background.map(stopGroup));
  }
  return { log, typescript };
}

async function followBlock(page: Page, block: Block): Promise<string | undefined> {
  const marker = block.marker;
  const at = `${page.page}:${block.line}`;
  if (!marker || marker.kind === "not-run") return undefined;
  if (marker.kind === "file") {
    const file = join(page.project, marker.path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${block.code}\n`);
    page.written.push(marker.path);
    return `${at} wrote ${marker.path}`;
  }
  if (!SHELLS.has(block.lang))
    throw new Error(`${at}: a run marker on a ${block.lang || "plain"} block (only shell blocks run)`);
  const child = bash(page, block.code);
  if (marker.background) {
    page.background.push(child.process);
    running.add(child.process);
    child.process.once("exit", () => running.delete(child.process));
    await child.until(marker.until as string, at);
    return `${at} started (${marker.until})`;
  }
  const { code, output } = await child.done;
  if (code !== marker.exit)
    throw new Error(
      `${at}: exit ${code}, the page expects ${marker.exit}:\n${block.code}\n--- output\n${tail(output)}`,
    );
  if (marker.expect && !output.includes(marker.expect)) {
    throw new Error(`${at}: the output lacks "${marker.expect}":\n${block.code}\n--- output\n${tail(output)}`);
  }
  await stopGroup(child.process); // anything the block left running in the background
  if (code === 0 && /\btsc\b/.test(block.code)) page.ranTsc = true;
  return `${at} exit ${code}`;
}

/**
 * The pages' `npx NAME` for a bin the project installed runs what npx runs, node_modules/.bin/NAME (the
 * nearest first), without starting npm: npm's own start costs about 0.8 CPU-s a call, and the pages make
 * 33 such calls per run. Anything else (a flag, a package spec, a name not installed) goes to the real
 * npx. test/ship-pack.test.ts runs `npm exec custody` through npm itself.
 */
function writeNpx(dir: string): void {
  const real = realNpx();
  const script = [
    "#!/bin/sh",
    `case "$1" in ""|-*|*@*|*/*) exec '${real}' "$@";; esac`,
    'dir="$PWD"',
    "while :; do",
    '  if [ -x "$dir/node_modules/.bin/$1" ]; then bin="$dir/node_modules/.bin/$1"; shift; exec "$bin" "$@"; fi',
    '  [ "$dir" = / ] && break',
    '  dir=$(dirname "$dir")',
    "done",
    `exec '${real}' "$@"`,
  ].join("\n");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "npx"), `${script}\n`);
  chmodSync(join(dir, "npx"), 0o755);
}

/** The npx on PATH (npm's), for whatever the pages' npx does not run itself. */
function realNpx(): string {
  const dirs = (process.env.PATH ?? "").split(delimiter).filter(Boolean);
  const found = dirs.map((d) => join(d, "npx")).find((f) => existsSync(f));
  if (!found) throw new Error("no npx on PATH: the pages run npx");
  return found;
}

/** One block in bash, in the directory and with the exports the previous blocks left. */
function bash(page: Page, code: string) {
  const state = page.state;
  const script = [
    `cd "$(cat '${state}/cwd')"`,
    `[ -f '${state}/env' ] && . '${state}/env'`,
    `trap 'export -p > "${state}/env"; pwd > "${state}/cwd"' EXIT`,
    "set -eo pipefail",
    code,
  ].join("\n");
  // npm reads its cache first, as the ship test's install does (no audit or funding requests).
  const npm = { npm_config_prefer_offline: "true", npm_config_audit: "false", npm_config_fund: "false" };
  const path = `${join(state, "bin")}${delimiter}${process.env.PATH ?? ""}`;
  const env = { ...process.env, CUSTODY_COMPILED: undefined, ...npm, PATH: path, ...page.env };
  const child = spawn("bash", ["-c", script], {
    cwd: page.project,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const listeners: Array<() => void> = [];
  const onData = (chunk: Buffer) => {
    output += chunk.toString("utf8");
    for (const l of listeners) l();
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  const done = new Promise<{ code: number; output: string }>((resolve) => {
    const timer = setTimeout(() => stopGroup(child), STEP_TIMEOUT_MS);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : 1), output });
    });
  });
  const until = (text: string, at: string) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${at}: did not print "${text}" in time:\n${tail(output)}`)),
        STEP_TIMEOUT_MS,
      );
      const check = () => {
        if (!output.includes(text)) return;
        clearTimeout(timer);
        resolve();
      };
      listeners.push(check);
      check();
      void done.then(({ code }) => {
        clearTimeout(timer);
        reject(new Error(`${at}: exited (${code}) before printing "${text}":\n${tail(output)}`));
      });
    });
  return { process: child, done, until };
}

/**
 * The files the page wrote: JavaScript parsed by node; returns the TypeScript ones its own tsc run did
 * not compile (absolute paths), for typeCheckPages.
 */
async function checkWritten(page: Page, log: string[]): Promise<string[]> {
  const ts = page.written.filter((f) => /\.(ts|mts)$/.test(f));
  const js = page.written.filter((f) => /\.(js|mjs)$/.test(f));
  for (const file of js) {
    const { code, output } = await runQuiet(process.execPath, ["--check", file], page.project);
    if (code !== 0) throw new Error(`${page.page}: ${file} is not valid JavaScript:\n${tail(output)}`);
  }
  if (!ts.length) return [];
  if (compiledByPage(page, ts)) {
    log.push(`${page.page}: ${ts.join(", ")} compiled by the page's own tsc`);
    return [];
  }
  log.push(`${page.page}: ${ts.join(", ")} left for the type check of every page`);
  return ts.map((f) => join(page.project, f));
}

/** A page and the TypeScript files it wrote that are still to be type-checked. */
export interface PageTypeScript {
  page: string;
  project: string;
  files: string[];
}

/**
 * Type-checks the TypeScript files of several pages in one tsc program (strict NodeNext, as a user's
 * project; each file a module of its own, so two pages never share a scope) with the typescript and
 * @types/node installed in `modules`. Resolves with each page that does not compile and tsc's lines for it.
 */
export async function typeCheckPages(
  pages: readonly PageTypeScript[],
  modules: string,
  scratch: string,
): Promise<Record<string, string>> {
  const files = pages.flatMap((p) => p.files);
  if (!files.length) return {};
  const tsc = join(modules, "typescript", "bin", "tsc");
  if (!existsSync(tsc)) throw new Error(`TypeScript files to check but no typescript installed in ${modules}`);
  // Files outside a page's project (none today) find typescript's and node's types here.
  if (!existsSync(join(scratch, "node_modules"))) symlinkSync(modules, join(scratch, "node_modules"), "dir");
  const compilerOptions = {
    module: "NodeNext",
    moduleResolution: "NodeNext",
    target: "ES2022",
    // The pages' TypeScript runs on Node: its globals come from @types/node, not the DOM's library
    // (a third of what tsc would read).
    lib: ["ES2022"],
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: ["node"],
    moduleDetection: "force",
    pretty: false,
  };
  const config = join(scratch, "tsconfig.pages.json");
  writeFileSync(config, JSON.stringify({ compilerOptions, files }));
  const { code, output } = await runQuiet(process.execPath, [...TSC_NODE_FLAGS, tsc, "-p", config], scratch);
  if (code === 0) return {};
  const failures: Record<string, string> = {};
  let owner = "";
  for (const line of output.split("\n")) {
    // A diagnostic starts with its file's path (relative to scratch); the lines after it continue it.
    if (/^\S.*\(\d+,\d+\): /.test(line)) {
      const at = join(scratch, line.slice(0, line.indexOf("(")));
      owner = pages.find((p) => !relative(p.project, at).startsWith(".."))?.page ?? "(no page)";
    } else if (/^\S/.test(line)) owner = "(no page)";
    if (line.trim()) failures[owner] = `${failures[owner] ?? ""}${line}\n`;
  }
  if (!Object.keys(failures).length) failures["(no page)"] = `tsc exited ${code}:\n${tail(output)}`;
  return failures;
}

/** Whether the page's own tsc run already compiled every TypeScript file it wrote (its tsconfig.json includes them). */
function compiledByPage(page: Page, ts: readonly string[]): boolean {
  if (!page.ranTsc || !page.written.includes("tsconfig.json")) return false;
  const config = JSON.parse(readFileSync(join(page.project, "tsconfig.json"), "utf8")) as { include?: string[] };
  const folders = (config.include ?? []).filter((dir) => !/[*?]/.test(dir)).map((dir) => `${dir.replace(/\/$/, "")}/`);
  return ts.every((file) => folders.some((dir) => file.startsWith(dir)));
}

function runQuiet(cmd: string, args: string[], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c));
    child.stderr.on("data", (c: Buffer) => (output += c));
    child.once("exit", (code) => resolve({ code: code ?? 1, output }));
  });
}

/** Stops a block's whole process group (what it started in the background too): TERM, then KILL. */
function stopGroup(child: ChildProcess): Promise<void> {
  const kill = (signal: NodeJS.Signals) => {
    try {
      if (child.pid) process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  };
  if (child.exitCode !== null || child.signalCode !== null) {
    kill("SIGTERM");
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    kill("SIGTERM");
    setTimeout(() => kill("SIGKILL"), 5_000).unref();
  });
}

function seconds(since: number): string {
  return `${((performance.now() - since) / 1000).toFixed(1)} s`;
}

/** The CPU of the child processes reaped since `sinceMs` (childrenCpuMs). */
function cpuSeconds(sinceMs: number): string {
  return `${((childrenCpuMs() - sinceMs) / 1000).toFixed(1)} CPU-s`;
}

function tail(text: string): string {
  return text.length > 3000 ? `…${text.slice(-3000)}` : text;
}
