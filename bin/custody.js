#!/usr/bin/env node
// Entry point. Installed, custody runs its compiled JavaScript (dist/, made by `npm run build`).
// In a clone, where the TypeScript sources sit beside it, it runs them through tsx instead, so a
// fresh clone works without a build and a stale dist/ is never picked up; CUSTODY_COMPILED=1 runs
// dist/ there too (the start-time benchmark does).
import { existsSync } from "node:fs";

const compiled = new URL("../dist/cli/main.js", import.meta.url);
const source = new URL("../cli/main.ts", import.meta.url);
const useSource = existsSync(source) && !(process.env.CUSTODY_COMPILED === "1" && existsSync(compiled));

let main;
if (useSource) {
  let register;
  try {
    ({ register } = await import("tsx/esm/api"));
  } catch {
    console.error("custody: running from the sources needs tsx (npm install), or build first: npm run build");
    process.exit(2);
  }
  register();
  ({ main } = await import(source.href));
} else if (existsSync(compiled)) {
  ({ main } = await import(compiled.href));
} else {
  console.error("custody: dist/ is missing; run npm run build");
  process.exit(2);
}
process.exitCode = await main(process.argv.slice(2));
