// The long fuzzing run of the generated server with the reference handlers (the CI file,
// test/hardening-fuzz-server.test.ts, runs a few thousand of the same cases):
//
//   node --import tsx scripts/fuzz.ts --runs 100000 [--seed N] [--concurrency 4]
//
// --runs is the total number of requests, shared evenly by the operations of generated/operations.ts
// (stray requests that match no operation get two shares). Operations are fuzzed `--concurrency` at a
// time against one sandbox. Exit 0 when every answer passed, 1 with the reproducing request and the
// fast-check seed otherwise.
import { parseArgs } from "node:util";
import fc from "fast-check";
import {
  FuzzTally,
  fuzzOnce,
  operationList,
  requestArb,
  startFuzzSandbox,
  strayRequestArb,
} from "../test/hardening-fuzz-kit.ts";

const USAGE = "usage: node --import tsx scripts/fuzz.ts [--runs N] [--seed N] [--concurrency N]";

function options() {
  const { values } = parseArgs({
    options: {
      runs: { type: "string" },
      seed: { type: "string" },
      concurrency: { type: "string" },
      help: { type: "boolean" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const int = (v: string | undefined, fallback: number, name: string) => {
    const n = v === undefined ? fallback : Number(v);
    if (!Number.isInteger(n) || n < 1) {
      console.error(`--${name} must be a positive integer\n${USAGE}`);
      process.exit(2);
    }
    return n;
  };
  return {
    runs: int(values.runs, 100_000, "runs"),
    seed: values.seed === undefined ? Date.now() % 2 ** 31 : int(values.seed, 0, "seed"),
    concurrency: int(values.concurrency, 4, "concurrency"),
  };
}

async function main(): Promise<number> {
  const { runs, seed, concurrency } = options();
  const fuzz = await startFuzzSandbox();
  const tally = new FuzzTally();
  const started = Date.now();
  const share = Math.ceil(runs / (operationList.length + 2));
  const jobs: { name: string; run: () => Promise<void> }[] = [
    ...operationList.map((op, i) => ({
      name: op.operationId,
      run: () =>
        fc.assert(
          fc.asyncProperty(requestArb(op, fuzz.target), (p) => fuzzOnce(p, fuzz.target, tally)),
          { numRuns: share, seed: seed + i },
        ),
    })),
    {
      name: "(stray)",
      run: () =>
        fc.assert(
          fc.asyncProperty(strayRequestArb(fuzz.target), (p) => fuzzOnce(p, fuzz.target, tally)),
          { numRuns: share * 2, seed: seed + operationList.length },
        ),
    },
  ];
  console.log(
    `fuzzing ${jobs.length} targets, ${share} runs each (${share * 2} stray), seed ${seed}, ${concurrency} at a time`,
  );
  const progress = setInterval(
    () => console.log(`  ${tally.requests} requests, ${Math.round((Date.now() - started) / 1000)} s`),
    10_000,
  );
  const failures: string[] = [];
  const timings: string[] = [];
  const queue = [...jobs];
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let job = queue.shift(); job !== undefined; job = queue.shift()) {
          const jobStarted = Date.now();
          try {
            await job.run();
          } catch (error) {
            failures.push(`${job.name}: ${error instanceof Error ? error.message : String(error)}`);
          }
          timings.push(`${job.name} ${((Date.now() - jobStarted) / 1000).toFixed(1)} s`);
        }
      }),
    );
  } finally {
    clearInterval(progress);
    await fuzz.close();
  }
  // Errors while answering a request name it; background work (the chain watcher) is only shown.
  const requestErrors = fuzz.internalErrors.filter((m) => m.includes("(request "));
  const background = fuzz.internalErrors.filter((m) => !m.includes("(request "));
  if (background.length > 0) console.warn(`background errors logged by the sandbox:\n  ${background.join("\n  ")}`);
  if (requestErrors.length > 0)
    failures.push(`the sandbox logged internal errors while answering:\n  ${requestErrors.join("\n  ")}`);
  const seconds = (Date.now() - started) / 1000;
  console.log(`${tally.summary()}\n${seconds.toFixed(1)} s, ${Math.round(tally.requests / seconds)} requests/s`);
  console.log(`per target (wall clock, ${concurrency} at a time): ${timings.join(", ")}`);
  for (const f of failures) console.error(`FAILED ${f}`);
  return failures.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`fuzz: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
