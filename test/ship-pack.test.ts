// custody as a user gets it: pack the tarball, install it into an empty project (from the npm cache
// when it has the packages), generate an SDK package there, build it with plain tsc, call a running
// `custody sandbox` with it from plain node (and its MCP server's bin over stdio), then `custody mock`.
// (`custody certify --sandbox` from the same install is the README's step, run as written by
// test/docs-follow.test.ts.)
import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TSC_NODE_FLAGS } from "../generator/typecheck.ts";
import { packedInstall, run } from "./support/packed-install.ts";

const NPM = process.platform === "win32" ? "npm.cmd" : "npm";
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const own = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as { version: string };

/** Starts a long-running command and resolves with the first stdout line that matches. */
function startUntil(
  cmd: string,
  args: string[],
  cwd: string,
  ready: RegExp,
): Promise<{ child: ChildProcess; line: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...custodyEnv } });
    let out = "";
    const timer = setTimeout(() => reject(new Error(`${args.join(" ")} did not start:\n${out}`)), 90_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString("utf8");
      const line = out.split("\n").find((l) => ready.test(l));
      if (line !== undefined) {
        clearTimeout(timer);
        resolve({ child, line });
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(" ")} exited (${code}):\n${out}`));
    });
  });
}

function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
  });
}

let work: string;
let project: string;
let tarball: string;
let sandbox: ChildProcess | undefined;
/** The environment of every installed custody command: where the sandbox writes its credentials, for
 * the installed trigger and request to read (not the user's default file, which other tests may use). */
let custodyEnv: Record<string, string> = {};

beforeAll(async () => {
  // Packed and installed once per run, shared with the docs test (test/support/packed-install.ts).
  ({ work, project, tarball } = await packedInstall());
  custodyEnv = { CUSTODY_SANDBOX_FILE: join(work, "ship-sandbox.json") };
}, 600_000);

afterAll(async () => {
  await stop(sandbox);
});

describe("custody installed from its tarball", () => {
  it("holds what a user needs and nothing else", async () => {
    const listing = await run("tar", ["tzf", tarball], work);
    const files = listing.stdout.trim().split("\n");
    expect(files).toContain("package/dist/cli/main.js");
    expect(files).toContain("package/dist/runtime/index.d.ts");
    expect(files).toContain("package/spec/openapi.yaml");
    expect(files).toContain("package/runtime/http/client.ts");
    expect(
      files.filter((f) => /^package\/(test|bench|docs|examples|scripts)\//.test(f) || /\.test\.(ts|js)$/.test(f)),
    ).toEqual([]);
  });

  it("runs compiled code: --version and --help without tsx", async () => {
    const bin = join(project, "node_modules", ".bin", "custody");
    expect((await run(bin, ["--version"], project)).stdout.trim()).toBe(own.version);
    expect((await run(bin, ["--help"], project)).stdout).toContain("usage: custody <command>");
    // `npx custody` as the pages write it, through npm itself (the docs test runs the installed bin directly).
    const npx = await run(NPM, ["exec", "--offline", "--", "custody", "--version"], project, 60_000);
    expect(npx.stdout.trim(), npx.stderr).toBe(own.version);
    // tsx is a devDependency: a user's install does not have it
    await expect(readdir(join(project, "node_modules", "tsx"))).rejects.toThrow();
  });

  it("exports custody and custody/runtime, with declarations a NodeNext project type-checks against", async () => {
    const bin = join(project, "node_modules", ".bin", "custody");
    const loaded = await run(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        'const r = await import("custody/runtime"); const c = await import("custody"); const w = await import("custody/runtime/webhooks"); const j = await import("custody/runtime/rpc"); console.log(typeof r.createTransport, typeof c.CustodialWalletServiceClient, c.ApiError === r.ApiError, typeof w.verifyEvent, typeof j.createTypedRpcClient)',
      ],
      project,
    );
    expect(loaded.stdout.trim(), loaded.stderr).toBe("function function true function function");
    const gen = await run(bin, ["generate", "--runtime", "package", "--out", "client"], project);
    expect(gen.code, gen.stderr).toBe(0);
    await writeFile(
      join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          module: "NodeNext",
          moduleResolution: "NodeNext",
          target: "ES2022",
          strict: true,
          noEmit: true,
          types: ["node"],
        },
        include: ["client"],
      }),
    );
    // The project's own compiler over its tsconfig.json, without skipLibCheck: every diagnostic of the
    // client and of custody's declarations (an import a .d.ts cannot resolve is one), as tsc reports them.
    await writeFile(join(project, "check-types.mjs"), CHECK_TYPES);
    const checked = await run(process.execPath, [...TSC_NODE_FLAGS, "check-types.mjs"], project);
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);
    const declarations = Number(/\((\d+) of custody\)/.exec(checked.stdout)?.[1]);
    expect(declarations, checked.stdout).toBeGreaterThan(0);
    // …and the same script fails on a custody declaration that names a module that is not there.
    const probe = join(project, "types-probe");
    const probeFiles: Record<string, string> = {
      "package.json": '{"type":"module"}',
      "tsconfig.json": JSON.stringify({
        compilerOptions: {
          module: "NodeNext",
          target: "ES2022",
          lib: ["ES2022"],
          strict: true,
          noEmit: true,
          types: [],
        },
      }),
      "client/use.ts": 'import { x } from "custody";\nexport const y: number = x;\n',
      "node_modules/custody/package.json":
        '{"name":"custody","type":"module","exports":{".":{"types":"./index.d.ts"}}}',
      "node_modules/custody/index.d.ts": 'import type { Nope } from "./nope.js";\nexport declare const x: Nope;\n',
    };
    for (const [file, text] of Object.entries(probeFiles)) {
      await mkdir(dirname(join(probe, file)), { recursive: true });
      await writeFile(join(probe, file), text);
    }
    const refused = await run(process.execPath, [join(project, "check-types.mjs")], probe);
    expect(refused.code, refused.stdout + refused.stderr).toBe(1);
    expect(refused.stdout).toContain("node_modules/custody/index.d.ts(1,27): error TS2307");
  });

  it("generates an SDK package, builds it with plain tsc, and calls a running sandbox from plain node", async () => {
    const bin = join(project, "node_modules", ".bin", "custody");
    const gen = await run(bin, ["generate", "--mcp", "--package", "@acme/wallet-sdk@1.0.0", "--out", "sdk"], project);
    expect(gen.code, gen.stderr).toBe(0);
    const tsc = join(project, "node_modules", "typescript", "bin", "tsc");
    const built = await run(process.execPath, [...TSC_NODE_FLAGS, tsc, "-p", "sdk/tsconfig.json"], project);
    expect(built.code, built.stdout + built.stderr).toBe(0);
    // The wire tests shipped with the package pass on this fresh install (one per operation, node:test).
    const wire = await run(process.execPath, ["--test", "test/wire.test.js"], join(project, "sdk"));
    expect(wire.code, wire.stdout + wire.stderr).toBe(0);
    expect(wire.stdout).toMatch(/# fail 0/);
    // The client entry point pulls no server, webhook or JSON-RPC code, and no Node-only module.
    const reached = await importClosure(join(project, "sdk", "dist", "client.js"));
    expect(
      reached.files.filter((f) => /\/(server|webhooks|rpc|jsonrpc)(\/|\.js)|\/http\/(client|exchange)\.js$/.test(f)),
    ).toEqual([]);
    expect(reached.packages.filter((p) => p.startsWith("node:") || p === "undici" || p === "ws")).toEqual([]);
    expect(reached.dynamic).toEqual([]);
    // ./webhooks and ./rpc run on every runtime too: no Node module, no undici; ws only imported lazily (on Node).
    const webhooks = await importClosure(join(project, "sdk", "dist", "webhooks.js"));
    expect(webhooks.files.some((f) => f.endsWith("webhooks/signature.js"))).toBe(true);
    expect(
      [...webhooks.packages, ...webhooks.dynamic].filter((p) => p.startsWith("node:") || p === "undici" || p === "ws"),
    ).toEqual([]);
    const rpcEntry = await importClosure(join(project, "sdk", "dist", "rpc.js"));
    expect(rpcEntry.files.some((f) => f.endsWith("jsonrpc/socket.js"))).toBe(true);
    expect(rpcEntry.packages.filter((p) => p.startsWith("node:") || p === "undici" || p === "ws")).toEqual([]);
    expect(rpcEntry.dynamic).toEqual(["ws"]);
    for (const text of [
      await readFile(join(project, "sdk", "dist", "client.js"), "utf8"),
      await readFile(join(project, "sdk", "dist", "runtime", "http", "client.js"), "utf8"),
    ]) {
      expect(text).not.toContain(ROOT);
      expect(text).not.toMatch(/from "[^"]*\.ts"/);
    }

    const started = await startUntil(
      bin,
      ["sandbox", "--json", "--port", "0", "--rpc-port", "0"],
      project,
      /^\{.*"base_url"/,
    );
    sandbox = started.child;
    const sb = JSON.parse(started.line) as Record<string, string>;
    await writeFile(
      join(project, "call.mjs"),
      `import { CustodialWalletServiceClient, createRpcClient, ApiError, CustodyError } from "./sdk/dist/index.js";
const sb = JSON.parse(process.argv[2]);
const client = new CustodialWalletServiceClient({ baseUrl: sb.base_url, apiKey: sb.api_key, apiSecret: sb.api_secret });
const networks = await client.listNetworks();
const wrong = new CustodialWalletServiceClient({ baseUrl: sb.base_url, apiKey: sb.api_key, apiSecret: "not-the-secret", retry: false });
const denied = await wrong.listNetworks().then(() => undefined, (e) => e);
const rpc = createRpcClient({ url: sb.rpc_url + "/rpc", apiKey: sb.rpc_api_key });
const height = await rpc.eth_blockNumber();
await rpc.close();
console.log(JSON.stringify({ networks: networks.length, denied: denied instanceof ApiError && denied instanceof CustodyError ? denied.status : String(denied), height }));
`,
    );
    const called = await run(process.execPath, ["call.mjs", started.line], project);
    expect(called.code, called.stderr).toBe(0);
    const answer = JSON.parse(called.stdout.trim()) as { networks: number; denied: number; height: string };
    expect(answer.networks).toBeGreaterThan(0);
    expect(answer.denied).toBe(401);
    expect(answer.height).toMatch(/^0x[0-9a-f]+$/);

    // The package's MCP server: its bin from an install of the package, --help, then tools/list over stdio.
    const linked = await run(
      NPM,
      ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", "--no-save", "./sdk"],
      project,
    );
    expect(linked.code, linked.stderr).toBe(0);
    const help = await run(NPM, ["exec", "--offline", "--", "wallet-sdk-mcp", "--help"], project, 60_000);
    expect(help.stdout, help.stderr).toMatch(/^usage: wallet-sdk-mcp/);
    const transport = new StdioClientTransport({
      command: join(project, "node_modules", ".bin", "wallet-sdk-mcp"),
      env: {
        ...(process.env as Record<string, string>),
        CUSTODY_BASE_URL: sb.base_url,
        CUSTODY_API_KEY: sb.api_key,
        CUSTODY_API_SECRET: sb.api_secret,
        CUSTODY_WORKSPACE_ID: sb.workspace_id,
      },
      stderr: "pipe",
    });
    const mcp = new Client({ name: "ship-pack", version: "0" });
    await mcp.connect(transport);
    const { tools } = await mcp.listTools();
    expect(tools.length).toBeGreaterThan(10);
    expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
    const health = await mcp.callTool({ name: "getHealth", arguments: {} });
    expect(health.isError, JSON.stringify(health)).toBeFalsy();
    await mcp.close();

    // The installed trigger and request reach the same sandbox through its credentials file.
    const block = await run(bin, ["trigger", "block"], project, 60_000, custodyEnv);
    expect(block.code, block.stdout + block.stderr).toBe(0);
    const listed = await run(bin, ["request", "listNetworks"], project, 60_000, custodyEnv);
    expect(listed.code, listed.stdout + listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/listNetworks: HTTP 200/);

    // A taken port gets one clear line from `custody mock`, not Prism's help.
    const taken = new URL(sb.base_url).port;
    const busy = await run(bin, ["mock", "--port", taken], project, 60_000);
    expect(busy.code).toBe(2);
    expect(busy.stderr.trim()).toBe(
      `custody mock: port ${taken} on 127.0.0.1 is already in use; choose another with --port (0 picks a free one)`,
    );
    await stop(sandbox);
  });

  it("custody mock serves the spec with the Prism installed beside it", async () => {
    const bin = join(project, "node_modules", ".bin", "custody");
    const { child, line } = await startUntil(
      bin,
      ["mock", "--port", "0"],
      project,
      /Prism is listening on|serving .* at http/,
    );
    try {
      const url = /at (http:\/\/\S+)/.exec(line)?.[1] ?? "";
      // Prism may log "listening" a moment after our own line; retry briefly.
      let status = 0;
      for (let i = 0; i < 50 && status === 0; i++) {
        status = await fetch(`${url}/api/v1/networks`).then(
          (r) => r.status,
          () => 0,
        );
        if (status === 0) await new Promise((r) => setTimeout(r, 200));
      }
      expect(status).toBe(401); // no ACCESS headers: the spec's 401 example
    } finally {
      await stop(child);
    }
  });
});

/**
 * tsc -p tsconfig.json as a script of the project, asking for the diagnostics of the project's own files
 * and custody's declarations only: the other packages' declarations (@types/node, zod, undici-types)
 * are not custody's to prove, and checking them all cost twice as much as the rest.
 */
const CHECK_TYPES = `import ts from "typescript";
const fail = (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\\n")); };
const config = ts.getParsedCommandLineOfConfigFile("tsconfig.json", {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: fail });
if (config.options.skipLibCheck) throw new Error("tsconfig.json skips the declarations this checks");
const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
const ours = program.getSourceFiles().filter((f) => !f.fileName.includes("/node_modules/") || f.fileName.includes("/node_modules/custody/"));
const diagnostics = [
  ...config.errors, ...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics(),
  ...ours.flatMap((f) => [...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f)]),
];
const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => process.cwd(), getNewLine: () => "\\n" };
console.log(ts.formatDiagnostics(diagnostics, host));
const custody = ours.filter((f) => f.fileName.includes("/node_modules/custody/")).length;
console.log(\`checked: \${ours.length} files of client/ and node_modules/custody/ (\${custody} of custody)\`);
process.exitCode = diagnostics.length ? 1 : 0;
`;

/** Every file a module reaches through relative imports, and the bare specifiers it imports on the way (statically, or lazily with import()). */
async function importClosure(entry: string): Promise<{ files: string[]; packages: string[]; dynamic: string[] }> {
  const files = new Set<string>();
  const packages = new Set<string>();
  const dynamic = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (files.has(file)) continue;
    files.add(file);
    const text = await readFile(file, "utf8");
    for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s+"([^"]+)"/g)) {
      const spec = match[1];
      if (spec.startsWith(".")) queue.push(join(file, "..", spec));
      else packages.add(spec);
    }
    for (const match of text.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g)) {
      if (match[1].startsWith(".")) queue.push(join(file, "..", match[1]));
      else dynamic.add(match[1]);
    }
  }
  return { files: [...files], packages: [...packages], dynamic: [...dynamic] };
}
