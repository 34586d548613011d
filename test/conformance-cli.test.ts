// `custody certify` as a command: flags and environment variables, exit codes 0/1/2, reports
// written where asked, and secrets kept out of the output.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CertifyIo, run } from "../cli/certify.ts";
import { type FakeTarget, startFakeTarget } from "./support/fake-target.ts";

let t: FakeTarget;
const dir = mkdtempSync(join(tmpdir(), "custody-cli-"));
beforeAll(async () => {
  t = await startFakeTarget();
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

async function certify(
  argv: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const io: CertifyIo = { env, operations: t.operations, stdout: (s) => (out += s), stderr: (s) => (err += s) };
  const code = await run(argv, io);
  return { code, out, err };
}

const targetFlags = () => [
  "--base-url",
  t.baseUrl,
  "--rpc-url",
  t.rpcUrl,
  "--api-key",
  t.owner.apiKey,
  `--api-secret=${t.owner.apiSecret}`,
  "--rpc-api-key",
  t.rpcApiKey,
];

describe("custody certify", () => {
  it("prints its usage with --help and exits 0", async () => {
    const { code, out } = await certify(["--help"]);
    expect(code).toBe(0);
    expect(out).toContain("--base-url");
    expect(out).toContain("CUSTODY_API_SECRET");
  });

  it("exits 2 naming every missing flag at once, with two lines of help", async () => {
    const { code, err } = await certify(["--base-url", t.baseUrl]);
    expect(code).toBe(2);
    expect(err).toContain(
      "missing --rpc-url (or CUSTODY_RPC_URL), --api-key (or CUSTODY_API_KEY), --api-secret (or CUSTODY_API_SECRET), --rpc-api-key (or CUSTODY_RPC_API_KEY)",
    );
    expect(err.trim().split("\n")).toHaveLength(3);
  });

  it.each([
    [["--level", "gold"], "--level must be seed or full"],
    [["--only", "auth,bogus"], "--only: unknown group bogus"],
    [["--timeout-ms", "0"], "--timeout-ms must be a positive integer"],
    [["--ws-url", "http://x"], "--ws-url must be ws:// or wss://"],
    [["--viewer-api-key", "k"], "--viewer-api-key and --viewer-api-secret go together"],
    [["--frobnicate"], "unknown option '--frobnicate'"],
    [["--max-body-mib", "0"], "--max-body-mib (CUSTODY_MAX_BODY_MIB) must be a positive integer"],
  ])("exits 2 on bad usage: %j", async (extra, message) => {
    const { code, err } = await certify([...targetFlags(), ...extra]);
    expect(code).toBe(2);
    expect(err).toContain(message);
  });

  it("names CUSTODY_MAX_BODY_MIB when its value is not a positive integer", async () => {
    const { code, err } = await certify(targetFlags(), { CUSTODY_MAX_BODY_MIB: "lots" });
    expect(code).toBe(2);
    expect(err).toContain('--max-body-mib (CUSTODY_MAX_BODY_MIB) must be a positive integer, not "lots"');
  });

  it("reads the environment, writes the reports asked for and says where; --only is never a certification (exit 3)", async () => {
    const files = { json: join(dir, "env.json"), junit: join(dir, "out/env.xml"), html: join(dir, "env.html") };
    const { code, out } = await certify(
      ["--only", "rpc,auth", "--json", files.json, "--junit", files.junit, "--html", files.html, "--no-color"],
      {
        CUSTODY_BASE_URL: t.baseUrl,
        CUSTODY_RPC_URL: t.rpcUrl,
        CUSTODY_API_KEY: t.owner.apiKey,
        CUSTODY_API_SECRET: t.owner.apiSecret,
        CUSTODY_RPC_API_KEY: t.rpcApiKey,
        CUSTODY_WORKSPACE_ID: t.workspaceId,
      },
    );
    expect(code).toBe(3);
    expect(out).toMatch(/NOT CERTIFIED \(incomplete\): rpc,auth: \d+ MUST checks passed; \d+ not run/);
    expect(out).toContain("were not selected (--only rpc,auth)");
    for (const file of Object.values(files)) expect(existsSync(file), file).toBe(true);
    expect(out).toContain(`JSON report written to ${files.json}`);
    expect(out).toContain(`JUnit report written to ${files.junit}`);
    expect(out).toContain(`HTML report written to ${files.html}`);
    const json = JSON.parse(readFileSync(files.json, "utf8")) as { summary: { groups: Array<{ group: string }> } };
    expect(json.summary.groups.map((g) => g.group)).toEqual(["auth", "rpc"]);
    const everything =
      out +
      Object.values(files)
        .map((f) => readFileSync(f, "utf8"))
        .join("");
    for (const secret of [t.owner.apiSecret, t.rpcApiKey, t.owner.apiKey]) expect(everything).not.toContain(secret);
  });

  it("exits 1 when a MUST check fails", async () => {
    const broken = await startFakeTarget({ faults: ["rpc-no-auth"] });
    try {
      let out = "";
      const code = await run(
        [
          "--base-url",
          broken.baseUrl,
          "--rpc-url",
          broken.rpcUrl,
          "--api-key",
          broken.owner.apiKey,
          `--api-secret=${broken.owner.apiSecret}`,
          "--rpc-api-key",
          broken.rpcApiKey,
          "--only",
          "rpc",
        ],
        { env: {}, operations: broken.operations, stdout: (s) => (out += s), stderr: (s) => (out += s) },
      );
      expect(code).toBe(1);
      expect(out).toContain("NOT CERTIFIED: 1 MUST check failed: rpc.unauthorized");
    } finally {
      await broken.close();
    }
  });

  it("exits 0 when only a SHOULD check fails and every MUST check of the level ran", async () => {
    const should = await startFakeTarget({ faults: ["rpc-text-content-type"] });
    try {
      let out = "";
      const code = await run(
        [
          "--base-url",
          should.baseUrl,
          "--rpc-url",
          should.rpcUrl,
          "--api-key",
          should.owner.apiKey,
          `--api-secret=${should.owner.apiSecret}`,
          "--rpc-api-key",
          should.rpcApiKey,
          "--workspace-id",
          should.workspaceId,
          "--other-api-key",
          should.other.apiKey,
          `--other-api-secret=${should.other.apiSecret}`,
          "--other-workspace-id",
          should.otherWorkspaceId,
          "--level",
          "seed",
          "--create-fixtures",
          "--no-color",
        ],
        { env: {}, operations: should.operations, stdout: (s) => (out += s), stderr: (s) => (out += s) },
      );
      expect(out).toMatch(/CERTIFIED at level seed: all \d+ MUST checks ran and passed \(1 SHOULD failed\)/);
      expect(code).toBe(0);
    } finally {
      await should.close();
    }
  });

  it("stops on SIGINT: the run cleans up, writes its reports and exits 130", async () => {
    const file = join(dir, "interrupted.json");
    const child = spawn(
      process.execPath,
      [new URL("../bin/custody.js", import.meta.url).pathname, "certify", "--sandbox", "--json", file, "--no-color"],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    // Once a few checks have finished, the run is well under way.
    while (!/\[\s*5\//.test(out) && child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
    child.kill("SIGINT");
    const code = await new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)));
    expect(err).toMatch(/SIGINT received: stopping the checks, removing what the run created, writing the reports/);
    expect(code).toBe(130);
    const report = JSON.parse(readFileSync(file, "utf8")) as {
      summary: { interrupted: string; certified: boolean; cleanup: { left: unknown[] } };
      checks: Array<{ status: string; skip_kind?: string }>;
    };
    expect(report.summary.interrupted).toBe("SIGINT");
    expect(report.summary.certified).toBe(false);
    expect(report.summary.cleanup.left).toEqual([]);
    expect(report.checks.some((c) => c.skip_kind === "interrupted")).toBe(true);
    expect(out).toMatch(/interrupted: SIGINT/);
  });
});
