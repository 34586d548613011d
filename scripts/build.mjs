// `npm run build`: tsc compiles custody to dist/ (JavaScript + declarations, relative ".ts" imports
// rewritten to ".js"), then the two things tsc leaves alone are fixed up: declaration files keep
// ".ts" specifiers (rewritten here, so consumers need no allowImportingTsExtensions) and the
// workers written as .mjs (spec validation and its precompiled validators, certify's sandbox) and the console's adapter (plain JS the
// browser loads, which `custody trigger` imports too) are copied beside the modules that import them.
// CUSTODY_BUILD_NO_CHECK=1 emits without type checking (tsc --noCheck: the same JavaScript, and
// declarations that differ only in the order of inferred members), for the test suite's pack
// (test/support/packed-install.ts), where `npm run typecheck` does the checking; a plain build checks.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const dist = join(root, "dist");
rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const noCheck = process.env.CUSTODY_BUILD_NO_CHECK === "1" ? ["--noCheck"] : [];
execFileSync(process.execPath, [tsc, "-p", join(root, "tsconfig.build.json"), ...noCheck], { stdio: "inherit" });

const SPECIFIER = /((?:from|import)\s*\(?\s*")(\.{1,2}\/[^"]+)\.ts(")/g;
for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith(".d.ts")) continue;
  const file = join(entry.parentPath, entry.name);
  const text = readFileSync(file, "utf8");
  const fixed = text.replace(SPECIFIER, "$1$2.js$3");
  if (fixed !== text) writeFileSync(file, fixed);
}
copyFileSync(join(root, "generator/load/validate-worker.mjs"), join(dist, "generator/load/validate-worker.mjs"));
// The OpenAPI schemas' validators, compiled ahead of time (scripts/openapi-validators.ts), that the worker loads.
mkdirSync(join(dist, "generator/load/openapi-validators"), { recursive: true });
for (const file of readdirSync(join(root, "generator/load/openapi-validators")))
  copyFileSync(
    join(root, "generator/load/openapi-validators", file),
    join(dist, "generator/load/openapi-validators", file),
  );
copyFileSync(join(root, "cli/sandbox-worker.mjs"), join(dist, "cli/sandbox-worker.mjs"));
mkdirSync(join(dist, "web/console"), { recursive: true });
for (const file of ["adapter.js", "adapter.d.ts"])
  copyFileSync(join(root, "web/console", file), join(dist, "web/console", file));
console.log("custody build: dist/ written");
