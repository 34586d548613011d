// npm run crash [-- --seed N --kills K --clients C]: the sandbox under withdrawal and deposit load, killed
// with SIGKILL at random moments (from the printed seed, so a run can be replayed), then left to settle.
// Prints the figures; exits 1 if any withdrawal is stuck, moved twice, or an event was lost.
import { runCrash } from "./crash-run.ts";

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const n = Number(process.argv[i + 1]);
  if (!Number.isSafeInteger(n) || n < 0) {
    process.stderr.write(`--${name} must be a non-negative integer\n`);
    process.exit(2);
  }
  return n;
}

// mulberry32: a small seeded generator, enough to replay a kill schedule.
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const seed = flag("seed", Math.floor(Math.random() * 2 ** 31));
const kills = flag("kills", 5 + (seed % 4));
const clients = flag("clients", 3);
const next = random(seed);
const killAtMs: number[] = [];
let at = 0;
for (let i = 0; i < kills; i++) killAtMs.push((at += 3_000 + Math.floor(next() * 7_000)));
process.stdout.write(`crash run: seed ${seed} (replay: npm run crash -- --seed ${seed}), ${kills} kills at ${killAtMs.join(", ")} ms, ${clients} clients\n`);
const figures = await runCrash({ killAtMs, tailMs: 5_000, clients, settleMs: 60_000, log: (l) => process.stdout.write(`  ${l}\n`) });
const { details, ...counts } = figures;
process.stdout.write(`${JSON.stringify({ seed, ...counts })}\n`);
for (const d of details) process.stdout.write(`  ${d}\n`);
const bad = figures.stuck + figures.doubleSpent + figures.chainMismatch + figures.balanceMismatch + figures.depositsMissedOrDouble + figures.eventsLost + figures.eventsUnknown + figures.eventTrailErrors;
process.exit(bad === 0 ? 0 : 1);
