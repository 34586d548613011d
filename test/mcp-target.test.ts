// custody mcp --target NAME: the target comes from the config file's `targets` (cli/target.ts), its
// secret from the variable the file names; the tools call that deployment. A name the file does not
// define, an unset variable and a key the deployment refuses each stop the command with one line
// naming the setting.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../cli/mcp.ts";
import { CustodialWalletServiceClient } from "../generated/client.ts";
import { type Sandbox, startSandbox } from "../reference/sandbox.ts";

const bin = resolve("bin/custody.js");
const dir = mkdtempSync(join(tmpdir(), "custody-mcp-target-"));
let sandbox: Sandbox;
let env: Record<string, string>;
const walletName = "mcp target test wallet";

beforeAll(async () => {
  sandbox = await startSandbox({});
  writeFileSync(
    join(dir, "custody.config.yaml"),
    [
      "targets:",
      "  staging:",
      `    base-url: ${sandbox.base_url}`,
      `    api-key: ${sandbox.api_key}`,
      "    api-secret: { env: STAGING_SECRET }",
      `    workspace-id: ${sandbox.workspace_id}`,
      "  stale:",
      `    base-url: ${sandbox.base_url}`,
      "    api-key: ak_no_such_key",
      "    api-secret: { env: STAGING_SECRET }",
      "",
    ].join("\n"),
  );
  // Only what the command needs: no CUSTODY_* variable, and no running sandbox's file to fall back on.
  env = {
    PATH: process.env.PATH ?? "",
    STAGING_SECRET: sandbox.api_secret,
    CUSTODY_SANDBOX_FILE: join(dir, "no-sandbox.json"),
  };
  // A record only this deployment has, so an answer that lists it came from here.
  const sdk = new CustodialWalletServiceClient({
    baseUrl: sandbox.base_url,
    apiKey: sandbox.api_key,
    apiSecret: sandbox.api_secret,
    logLevel: "off",
  });
  await sdk.createWallet({ body: { name: walletName, wallet_type: "mpc", wallet_purpose: "general" } });
});
afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("custody mcp --target", () => {
  it("serves the deployment the config file names, with the secret from its variable", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, "mcp", "--target", "staging"],
      cwd: dir,
      env,
      stderr: "pipe",
    });
    const client = new Client({ name: "target-test", version: "0" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("listWallets");
      const result = (await client.callTool({ name: "listWallets", arguments: {} })) as CallToolResult;
      expect(result.isError, JSON.stringify(result)).toBeFalsy();
      const wallets = (result.structuredContent as { data: { name: string }[] }).data;
      expect(wallets.map((w) => w.name)).toContain(walletName);
      expect(JSON.stringify(result)).not.toContain(sandbox.api_secret);
    } finally {
      await client.close();
    }
  });

  it("stops with one line naming the setting: an unknown target, an unset variable", async () => {
    const { STAGING_SECRET: _, ...unset } = env;
    const cases: Array<[string, Record<string, string>, string]> = [
      ["production", env, "custody.config.yaml defines no target 'production' (targets: staging, stale)"],
      [
        "staging",
        unset,
        "custody.config.yaml: targets.staging.api-secret: environment variable STAGING_SECRET is not set",
      ],
    ];
    // In-process: these stop before anything is served; cli/main.ts prints the message after
    // "custody mcp: " and exits 2.
    const stdout = console.log;
    try {
      for (const [name, environment, expected] of cases)
        await expect(run(["--target", name], { cwd: dir, env: environment }), name).rejects.toThrow(
          expect.objectContaining({ name: "ConfigError", message: expected }),
        );
    } finally {
      console.log = stdout; // run() points it at stderr first: on stdio, stdout is the protocol
    }
  });

  it("stops with one line naming the setting when the deployment refuses the key", async () => {
    // A process of its own: were it to serve anyway, it would end with the closed input and exit 0.
    const child = spawn(process.execPath, [bin, "mcp", "--target", "stale"], { cwd: dir, env, stdio: "pipe" });
    let err = "";
    child.stderr.on("data", (d) => (err += d));
    child.stdin.end();
    const [code] = (await once(child, "close")) as [number | null];
    expect(code, err).toBe(2);
    expect(err).toMatch(
      /^custody mcp: http:\/\/127\.0\.0\.1:\d+ refused the credentials \(HTTP 401: [^\n]+\): check api-key and api-secret of targets\.stale of custody\.config\.yaml\n$/,
    );
    expect(err).not.toContain(sandbox.api_secret);
  });
});
