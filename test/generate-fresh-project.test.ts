// A user's first ten minutes with `custody generate`: in a fresh strict NodeNext project (strict and
// skipLibCheck, as `tsc --init` writes them), the install lines generate prints are all it takes for
// tsc to compile the output (no @types/ws: the vendored runtime types what it uses of ws itself) and
// for plain node to load it.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";
import { TSC_NODE_FLAGS } from "../generator/typecheck.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";

function run(cmd: string, args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd, timeout: 240_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

let project: string | undefined;
afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true });
});

it("compiles and loads with only the printed install lines", async () => {
  project = await mkdtemp(join(tmpdir(), "custody-fresh-"));
  await writeFile(join(project, "package.json"), JSON.stringify({ name: "fresh", private: true, type: "module" }));
  await writeFile(
    join(project, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        module: "NodeNext",
        moduleResolution: "NodeNext",
        target: "ES2022",
        strict: true,
        skipLibCheck: true,
        rootDir: "src",
        outDir: "dist",
        types: ["node"],
      },
      include: ["src"],
    }),
  );
  const generated = await run(
    process.execPath,
    [join(ROOT, "bin/custody.js"), "generate", "--out", "src/wallet"],
    project,
  );
  expect(generated.code, generated.stderr).toBe(0);
  const installs = generated.stdout
    .split("\n")
    .filter((line) => line.startsWith("  npm install "))
    .map((line) => line.trim().split(/\s+/).slice(1));
  expect(
    installs.map((args) =>
      args
        .slice(1)
        .filter((a) => !a.startsWith("-"))
        .map((a) => a.replace(/@[^@]+$/, "")),
    ),
  ).toEqual([
    ["@noble/ed25519", "@noble/hashes", "undici", "ws", "zod"],
    ["@types/node", "typescript"],
  ]);
  // The lines as printed; the npm cache first, as test/ship-pack.test.ts does.
  for (const args of installs) {
    const installed = await run(
      NPM,
      [...args, "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts"],
      project,
    );
    expect(installed.code, installed.stderr).toBe(0);
  }
  expect(existsSync(join(project, "node_modules/@types/ws"))).toBe(false);
  const built = await run(
    process.execPath,
    [...TSC_NODE_FLAGS, join(project, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"],
    project,
  );
  expect(built.code, built.stdout + built.stderr).toBe(0);
  const loaded = await run(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      'const m = await import("./dist/wallet/index.js"); console.log(typeof m.CustodialWalletServiceClient, typeof m.createRpcClient)',
    ],
    project,
  );
  expect(loaded.stdout.trim(), loaded.stderr).toBe("function function");
});
