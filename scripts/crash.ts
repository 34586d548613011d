// npm run crash [-- --seed N --kills K --clients C --sol-clients S]: the sandbox under withdrawal and deposit load
// (ETH from every client, SOL from S of them, default 1), killed
// with SIGKILL at random moments (from the printed seed, so a run can be replayed), then left to settle.
// Prints the figures; exits 1 if any withdrawal is stuck, moved twice, or an event was lost.

import { mulberry32 } from "../conformance/fuzz/prng.ts";
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

const seed = flag("seed", Math.floor(Math.random() * 2 ** 31));
const kills = flag("kills", 5 + (seed % 4));
const clients = flag("clients", 3);
const solClients = flag("sol-clients", 1);
const next = mulberry32(seed);
const killAtMs: number[] = [];
let at = 0;
for (let i = 0; i < kills; i++) killAtMs.push((at += 3_000 + Math.floor(next() * 7_000)));
process.stdout.write(
  `crash run: seed ${seed} (replay: npm run crash -- --seed ${seed}), ${kills} kills at ${killAtMs.join(", ")} ms, ${clients} clients\n`,
);
const figures = await runCrash({
  killAtMs,
  tailMs: 5_000,
  clients,
  solClients,
  settleMs: 60_000,
  log: (l) => process.stdout.write(`  ${l}\n`),
});
const { details, ...counts } = figures;
process.stdout.write(`${JSON.stringify({ seed, ...counts })}\n`);
for (const d of details) process.stdout.write(`  ${d}\n`);
const bad =
  figures.stuck +
  figures.doubleSpent +
  figures.chainMismatch +
  figures.balanceMismatch +
  figures.depositsMissedOrDouble +
  figures.eventsLost +
  figures.eventsUnknown +
  figures.eventTrailErrors;
process.exit(bad === 0 ? 0 : 1);
