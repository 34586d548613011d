// Section "certify-fuzz": wall time of `custody certify --sandbox --fuzz 100` beside the plain
// `custody certify --sandbox` in the same run (interleaved), and the fuzz requests per second of a
// `--only fuzz --fuzz 100` run, counted from its HAR file (every HTTP exchange of the run).
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { CERTIFY_BEFORE_REF, certifyBeforeAfter } from "./certify.ts";
import { measureNode } from "./child.ts";
import type { BenchContext, SectionResult } from "./context.ts";
import { entry, median, type ResultEntry } from "./stats.ts";

const CASES = "100";

interface Run {
  seconds: number;
  exitCode: number | null;
}

async function certify(ctx: BenchContext, args: string[]): Promise<Run> {
  const m = await measureNode({
    script: join(ctx.root, "bin/custody.js"),
    args: ["certify", "--sandbox", "--quiet", "--no-color", ...args],
    cwd: ctx.root,
    timeoutMs: 600_000,
  });
  if (m.exitCode !== 0 && m.exitCode !== 1 && m.exitCode !== 3)
    throw new Error(
      `certify ${args.join(" ")} did not complete: ${m.failure ?? `exit ${m.exitCode}`}: ${m.stderr.trim().slice(-300)}`,
    );
  return { seconds: m.wallSeconds, exitCode: m.exitCode };
}

export async function benchCertifyFuzz(ctx: BenchContext): Promise<SectionResult> {
  const dir = ctx.scratch("certify-fuzz");
  const runs = ctx.quick ? 1 : 3;
  const plain: number[] = [];
  const fuzz: number[] = [];
  const notes: string[] = [];
  for (let i = 0; i < runs; i++) {
    plain.push((await certify(ctx, [])).seconds);
    const f = await certify(ctx, ["--fuzz", CASES, "--seed", `bench${i}`]);
    fuzz.push(f.seconds);
    ctx.log(
      `certify --sandbox: ${plain[i].toFixed(1)} s; with --fuzz ${CASES}: ${f.seconds.toFixed(1)} s (exit ${f.exitCode})`,
    );
  }
  const har = join(dir, "fuzz.har");
  const only = await certify(ctx, ["--only", "fuzz", "--fuzz", CASES, "--seed", "bench", "--har", har]);
  const exchanges = (JSON.parse(readFileSync(har, "utf8")) as { log: { entries: unknown[] } }).log.entries.length;
  const compared = await certifyBeforeAfter(ctx, "fuzz", ["--fuzz", CASES, "--seed", "bench"]);
  notes.push(...compared.notes);
  const entries: ResultEntry[] = [
    entry(
      `certify --sandbox --fuzz ${CASES} (wall, incl. sandbox start)`,
      median(fuzz),
      "certify --sandbox (same run)",
      median(plain),
      "s",
      runs > 1 ? `median of ${runs}, interleaved` : "1 run",
    ),
    ...(compared.now.length > 0
      ? [
          entry(
            `certify --sandbox --fuzz ${CASES} --seed bench (wall)`,
            median(compared.now),
            `before (${CERTIFY_BEFORE_REF}, same run)`,
            compared.before.length > 0 ? median(compared.before) : null,
            "s",
            compared.now.length > 1 ? `median of ${compared.now.length}, interleaved` : "1 run",
          ),
          entry(
            `certify --sandbox --fuzz ${CASES} --seed bench (wall)`,
            median(compared.now),
            "goal: under 15 s",
            15,
            "s",
            `load average ${loadavg()
              .map((l) => l.toFixed(1))
              .join(" ")} at the end`,
          ),
        ]
      : []),
    entry(
      `certify --sandbox --only fuzz --fuzz ${CASES}: HTTP exchanges per second (wall, incl. sandbox start and fixtures)`,
      exchanges / only.seconds,
      "—",
      null,
      "req/s",
      `${exchanges} exchanges in ${only.seconds.toFixed(1)} s`,
    ),
  ];
  notes.push(
    `certify-fuzz: ${CASES} cases per operation; the fuzz-only run made ${exchanges} HTTP exchanges (HAR) in ${only.seconds.toFixed(1)} s.`,
  );
  return { entries, notes };
}
