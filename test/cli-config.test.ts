// custody.config.{yaml,json}: two certify targets chosen by --target, two SDKs by --sdk, mock and
// sandbox sections; flags over the file over the environment; every problem one line naming the file
// and the key path (an unknown key, an inline secret, an unset variable, bad YAML).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { run as certify } from "../cli/certify.ts";
import { findConfigFile, loadConfig } from "../cli/config-file.ts";
import { run as generate } from "../cli/generate.ts";
import { parseMockArgs } from "../cli/mock.ts";
import { parseSandboxArgs } from "../cli/sandbox.ts";
import { type FakeTarget, startFakeTarget } from "./support/fake-target.ts";

const dir = mkdtempSync(join(tmpdir(), "custody-config-"));
let good: FakeTarget;
let broken: FakeTarget;

beforeAll(async () => {
  [good, broken] = await Promise.all([startFakeTarget(), startFakeTarget({ faults: ["rpc-no-auth"] })]);
});
afterAll(async () => {
  await Promise.all([good?.close(), broken?.close()]);
  rmSync(dir, { recursive: true, force: true });
});

/** A folder holding one config file with this text. */
function project(name: string, file: string, text: string): string {
  const folder = join(dir, name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, file), text);
  return folder;
}

function targetYaml(name: string, t: FakeTarget, secretVar: string, extra = ""): string {
  return [
    `  ${name}:`,
    `    base-url: ${t.baseUrl}`,
    `    rpc-url: ${t.rpcUrl}`,
    `    api-key: ${t.owner.apiKey}`,
    `    api-secret: { env: ${secretVar} }`,
    `    rpc-api-key: { env: ${secretVar}_RPC }`,
    `    only: rpc`,
    extra,
  ].join("\n");
}

async function runCertify(argv: string[], env: NodeJS.ProcessEnv, cwd?: string) {
  let out = "";
  let err = "";
  const code = await certify(argv, {
    env,
    cwd,
    operations: good.operations,
    stdout: (s) => (out += s),
    stderr: (s) => (err += s),
  });
  return { code, out, err };
}

describe("certify --target", () => {
  let folder: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(() => {
    folder = project(
      "targets",
      "custody.config.yaml",
      [
        "targets:",
        targetYaml("good", good, "GOOD_SECRET", "    level: gold"),
        targetYaml("broken", broken, "BROKEN_SECRET"),
        "certify:",
        "  timeout-ms: 5000",
        "",
      ].join("\n"),
    );
    env = {
      GOOD_SECRET: good.owner.apiSecret,
      GOOD_SECRET_RPC: good.rpcApiKey,
      BROKEN_SECRET: broken.owner.apiSecret,
      BROKEN_SECRET_RPC: broken.rpcApiKey,
    };
  });

  it("certifies the target it names, with its secrets from the variables the file names", async () => {
    // The file's `level: gold` is wrong, and the flag wins over it.
    const ok = await runCertify(["--target", "good", "--level", "seed", "--no-color"], env, folder);
    expect(ok.err).toBe("");
    expect(ok.code).toBe(3); // every rpc check passed; --only rpc is never a certification
    expect(ok.out).toMatch(/NOT CERTIFIED \(incomplete\): rpc: \d+ MUST checks passed/);
    const bad = await runCertify(["--target", "broken", "--level", "seed", "--no-color"], env, folder);
    expect(bad.code).toBe(1);
    expect(bad.out).toContain("rpc.unauthorized");
    // Without the flag, the file's own value is used, and named.
    const gold = await runCertify(["--target", "good"], env, folder);
    expect(gold.code).toBe(2);
    expect(gold.err).toContain('--level must be seed or full, not "gold"');
    for (const secret of [good.owner.apiSecret, good.rpcApiKey]) expect(ok.out + ok.err).not.toContain(secret);
  });

  it("puts the file over the environment, and flags over both", async () => {
    const noisy = { ...env, CUSTODY_BASE_URL: "http://127.0.0.1:9/", CUSTODY_API_SECRET: "wrong" };
    const run = await runCertify(["--target", "good", "--level", "seed"], noisy, folder);
    expect(run.code).toBe(3);
  });

  it("names an unknown target, a missing variable, and the targets when none is chosen", async () => {
    const unknown = await runCertify(["--target", "prod"], env, folder);
    expect(unknown.code).toBe(2);
    expect(unknown.err.trim()).toBe(
      "custody certify: custody.config.yaml defines no target 'prod' (targets: good, broken)",
    );
    const unset = await runCertify(["--target", "good"], { GOOD_SECRET_RPC: "x" }, folder);
    expect(unset.err.trim()).toBe(
      "custody certify: custody.config.yaml: targets.good.api-secret: environment variable GOOD_SECRET is not set",
    );
    const none = await runCertify([], {}, folder);
    expect(none.err).toContain("; or use --sandbox; or --target NAME (custody.config.yaml defines good, broken)");
  });
});

describe("one-line errors naming the file and the key path", () => {
  const cases: Array<[string, string, string]> = [
    [
      "unknown key",
      "sandbox:\n  prot: 8150\n",
      "custody.config.yaml: sandbox.prot: unknown key (did you mean 'port'?); sandbox takes port, rpc-port, solana-rpc-port, no-solana, host, json, upstream, data, block-time, seed, webhook-profile, webhook-schedule, cors-origin",
    ],
    [
      "unknown key in a target",
      "targets:\n  staging:\n    bse-url: https://x.test\n",
      "custody.config.yaml: targets.staging.bse-url: unknown key (did you mean 'base-url'?)",
    ],
    [
      "unknown section",
      "target:\n  a: {}\n",
      "custody.config.yaml: target: unknown key (did you mean 'targets'?) (sections: sdks, targets, generate, certify, mock, sandbox, mcp)",
    ],
    [
      "inline secret",
      "targets:\n  staging:\n    api-secret: s3cr3t\n",
      "custody.config.yaml: targets.staging.api-secret: a secret is never written in the config file; name its environment variable instead: api-secret: { env: CUSTODY_API_SECRET }",
    ],
    [
      "flag that is no key",
      "certify:\n  target: staging\n",
      "custody.config.yaml: certify.target: is not a config key (give it on the command line)",
    ],
    [
      "wrong type",
      "mock:\n  cors-origin: { a: 1 }\n",
      "custody.config.yaml: mock.cors-origin: expected a string or a list of strings (O)",
    ],
    ["boolean", "certify:\n  sandbox: yes please\n", "custody.config.yaml: certify.sandbox: expected true or false"],
    ["bad YAML", "mock:\n  port: [4010\n", "custody.config.yaml:3:1: not YAML:"],
    [
      "bad name",
      "sdks:\n  'my sdk': {}\n",
      "custody.config.yaml: sdks.my sdk: a name is letters, digits, '.', '_' or '-'",
    ],
  ];
  it.each(cases)("%s", (name, text, message) => {
    const folder = project(`bad-${name.replace(/\W+/g, "-")}`, "custody.config.yaml", text);
    let error: Error | undefined;
    try {
      loadConfig(findConfigFile(undefined, folder) as string, folder);
    } catch (e) {
      error = e as Error;
    }
    expect(error?.message).toContain(message);
    expect(error?.message).not.toContain("\n");
  });

  it("refuses two config files side by side, and a --config that does not exist", () => {
    const folder = project("two", "custody.config.yaml", "mock: {}\n");
    writeFileSync(join(folder, "custody.config.json"), "{}");
    expect(() => findConfigFile(undefined, folder)).toThrow(
      "custody.config.yaml and custody.config.json both exist: keep one",
    );
    expect(() => findConfigFile("nope.yaml", folder)).toThrow("--config: nope.yaml does not exist");
  });

  it("refuses an inline secret in a JSON file too, through the command", async () => {
    const folder = project(
      "json-secret",
      "custody.config.json",
      JSON.stringify({ targets: { a: { "faucet-private-key": "0xabc" } } }),
    );
    const run = await runCertify(["--target", "a"], {}, folder);
    expect(run.code).toBe(2);
    expect(run.err.trim()).toBe(
      "custody certify: custody.config.json: targets.a.faucet-private-key: a secret is never written in the config file; name its environment variable instead: faucet-private-key: { env: CUSTODY_FAUCET_PRIVATE_KEY }",
    );
  });
});

describe("generate, mock and sandbox read their sections", () => {
  it("generates each SDK of the file, or the one --sdk names; paths start at the file's folder", async () => {
    const folder = project(
      "sdks",
      "custody.config.yaml",
      "generate:\n  no-rpc: true\nsdks:\n  app:\n    out: src/wallet\n  public:\n    package: '@acme/wallet@1.2.3'\n    out: packages/wallet\n",
    );
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      expect(await generate(["--sdk", "public"], { cwd: folder })).toBe(0);
      expect(existsSync(join(folder, "packages/wallet/package.json"))).toBe(true);
      expect(existsSync(join(folder, "src/wallet"))).toBe(false);
      expect(JSON.parse(readFileSync(join(folder, "packages/wallet/package.json"), "utf8"))).toMatchObject({
        name: "@acme/wallet",
        version: "1.2.3",
      });
      expect(await generate([], { cwd: folder })).toBe(0);
      expect(existsSync(join(folder, "src/wallet/client.ts"))).toBe(true);
      expect(existsSync(join(folder, "src/wallet/rpc.ts"))).toBe(false); // generate.no-rpc applies to every SDK
      const lines = log.mock.calls.map((c) => String(c[0]));
      expect(lines.filter((l) => /^custody generate \[(app|public)\]: \d+ operations/.test(l))).toHaveLength(3);
      // --check over every SDK: up to date.
      expect(await generate(["--check"], { cwd: folder })).toBe(0);
    } finally {
      log.mockRestore();
    }
    await expect(generate(["--sdk", "nope"], { cwd: folder })).rejects.toThrow(
      "custody.config.yaml defines no SDK 'nope' (sdks: app, public)",
    );
    await expect(generate(["--out", "x"], { cwd: folder })).rejects.toThrow(
      "--out with 2 SDKs of custody.config.yaml: pick one with --sdk NAME",
    );
  });

  it("mock and sandbox take their settings from the file; flags win", () => {
    const folder = project(
      "serve",
      "custody.config.yaml",
      "mock:\n  port: 4555\n  cors-origin: [http://localhost:5173]\nsandbox:\n  port: 8155\n  data: state\n  cors-origin: http://localhost:3000\n",
    );
    expect(parseMockArgs([], { cwd: folder })).toMatchObject({ port: 4555, corsOrigins: ["http://localhost:5173"] });
    expect(parseMockArgs(["--port", "0"], { cwd: folder }).port).toBe(0);
    const sandbox = parseSandboxArgs([], { cwd: folder }).options;
    expect(sandbox).toMatchObject({
      port: 8155,
      dataDir: join(folder, "state"),
      corsOrigins: ["http://localhost:3000"],
    });
    expect(parseSandboxArgs(["--data", "elsewhere"], { cwd: folder }).options.dataDir).toBe("elsewhere");
  });
});
