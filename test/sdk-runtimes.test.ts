// The built SDK (a --package output compiled with tsc) runs unchanged on Node, and on Bun and Deno
// when their binaries are found (BUN_BIN / DENO_BIN, else on PATH; `npm install bun deno` ships both).
// The server is this test's; each runtime runs test/fixtures/sdk-runtimes/call.mjs against it.
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { readFileSync } from "node:fs";
import { generate } from "../generator/index.ts";

const ROOT = join(import.meta.dirname, "..");
const DIR = join(ROOT, ".tmp-sdk-runtimes");
const spec = parse(readFileSync(join(ROOT, "spec", "openapi.yaml"), "utf8"));
const WALLET = spec.components.examples.WalletResponse.value;
const CREATED = spec.components.examples.WithdrawalCreatedResponse.value;

function findBinary(name: string, env: string): string | undefined {
  const given = process.env[env];
  if (given) return given;
  const found = spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

let server: Server;
let baseUrl: string;
let script: { status: number; body: unknown }[] = [];
const keys: string[] = [];

beforeAll(async () => {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  await generate({ specPath: join(ROOT, "spec", "openapi.yaml"), outDir: join(DIR, "sdk"), runtime: "vendor", package: { name: "runtime-sdk", version: "1.0.0" } });
  execFileSync(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", join(DIR, "sdk", "tsconfig.json")], { stdio: "pipe" });
  copyFileSync(join(ROOT, "test", "fixtures", "sdk-runtimes", "call.mjs"), join(DIR, "call.mjs"));
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (req.headers["idempotency-key"]) keys.push(String(req.headers["idempotency-key"]));
      const reply = script.shift() ?? { status: 500, body: { success: false, message: "script ran out", code: 500, data: null } };
      res.writeHead(reply.status, { "content-type": "application/json", "x-request-id": "rt-1" });
      res.end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(DIR, { recursive: true, force: true });
});

const runtimes: [string, string[] | undefined][] = [
  ["node", [process.execPath, "call.mjs"]],
  ["bun", ((bin) => (bin ? [bin, "run", "call.mjs"] : undefined))(findBinary("bun", "BUN_BIN"))],
  ["deno", ((bin) => (bin ? [bin, "run", "--allow-net=127.0.0.1", "--allow-read", "--allow-env", "--node-modules-dir=manual", "call.mjs"] : undefined))(findBinary("deno", "DENO_BIN"))],
];

describe("the built SDK on every runtime found", () => {
  for (const [name, command] of runtimes) {
    it.skipIf(command === undefined)(`${name}: signs, validates, raises typed errors, retries with one idempotency key`, async () => {
      keys.length = 0;
      script = [
        { status: 200, body: WALLET },
        { status: 404, body: { success: false, message: "not found", code: 404, data: null } },
        { status: 200, body: { ...WALLET, data: { ...WALLET.data, id: 7 } } },
        { status: 503, body: { success: false, message: "busy", code: 503, data: null } },
        { status: 201, body: CREATED },
      ];
      const [bin, ...args] = command as string[];
      const out = await new Promise<string>((resolve, reject) => {
        const child = execFile(bin, [...args, baseUrl], DIR);
        child.then(resolve, reject);
      });
      expect(JSON.parse(out.trim().split("\n").pop() as string)).toEqual({ name: WALLET.data.name, status: 200, requestId: "rt-1", notFound: true, invalid: true, attempts: 2 });
      expect(keys).toHaveLength(2);
      expect(keys[1]).toBe(keys[0]);
    }, 60_000);
  }
});

/** Runs a command without blocking the event loop (the server above answers it). */
async function execFile(bin: string, args: string[], cwd: string): Promise<string> {
  const { execFile: run } = await import("node:child_process");
  return new Promise((resolve, reject) => {
    run(bin, args, { cwd, env: { ...process.env, NO_COLOR: "1" }, timeout: 50_000 }, (error, stdout, stderr) => (error ? reject(new Error(`${bin} failed: ${stderr || error.message}`)) : resolve(stdout)));
  });
}
