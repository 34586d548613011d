// `custody sandbox`: one JSON line once both servers listen, reproducible credentials from a seed,
// a clean stop on SIGTERM, and exit 2 with a clear message on bad flags.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { type AddressInfo, createServer } from "node:net";
import path from "node:path";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { parseSandboxArgs, portIsFree, SDK_LOCAL_PORT } from "../cli/sandbox.ts";
import { UsageError } from "../cli/usage-error.ts";
import { signRequest } from "../runtime/http/hmac.ts";

const BIN = path.resolve(import.meta.dirname, "../bin/custody.js");

function startCli(args: string[], env: Record<string, string> = {}): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [BIN, "sandbox", ...args], {
    env: { ...process.env, ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
}

function firstLine(child: ChildProcessWithoutNullStreams): Promise<string> {
  return new Promise((resolve, reject) => {
    const rl = createInterface({ input: child.stdout });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    rl.once("line", (line) => {
      rl.close();
      resolve(line);
    });
    child.once("exit", (code) => reject(new Error(`exited ${code} before printing: ${stderr}`)));
  });
}

function exitCode(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once("exit", (code) => resolve(code));
  });
}

const KEYS = [
  "base_url",
  "rpc_url",
  "ws_url",
  "solana_rpc_url",
  "solana_ws_url",
  "workspace_id",
  "api_key",
  "api_secret",
  "viewer_api_key",
  "viewer_api_secret",
  "scoped_api_key",
  "scoped_api_secret",
  "rpc_api_key",
  "faucet_private_key",
  "other_workspace_id",
  "other_api_key",
  "other_api_secret",
];

describe("custody sandbox --json", () => {
  it("prints one JSON line with working URLs and credentials, and stops cleanly on SIGTERM", async () => {
    // --port 0: tests never take the fixed default port 8150 (others run tests on this machine too).
    const child = startCli(["--json", "--port", "0", "--block-time", "0.5"], { CUSTODY_SANDBOX_SEED: "cli-test" });
    try {
      const line = await firstLine(child);
      const info = JSON.parse(line) as Record<string, string>;
      expect(Object.keys(info)).toEqual(KEYS);
      expect(info.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(info.ws_url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/ws$/);
      // The Solana RPC takes the same key; its WebSocket is on the next port (where web3.js looks).
      expect(Number(new URL(info.solana_ws_url).port)).toBe(Number(new URL(info.solana_rpc_url).port) + 1);
      const slot = await fetch(`${info.solana_rpc_url}/?api_key=${info.rpc_api_key}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"jsonrpc":"2.0","id":1,"method":"getSlot"}',
      });
      expect(typeof ((await slot.json()) as { result: unknown }).result).toBe("number");
      expect(info.faucet_private_key).toMatch(/^0x[0-9a-f]{64}$/);

      // The wallet API answers a request signed with the printed credentials.
      const reqPath = "/api/v1/health";
      const headers = signRequest({ apiKey: info.api_key, apiSecret: info.api_secret, method: "GET", path: reqPath });
      const health = await fetch(info.base_url + reqPath, { headers });
      expect(health.status).toBe(200);
      expect(((await health.json()) as { data: { status: string } }).data.status).toBe("ok");

      // The node access answers with the printed rpc key.
      const rpc = await fetch(`${info.rpc_url}/rpc?api_key=${info.rpc_api_key}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }),
      });
      expect(((await rpc.json()) as { result: string }).result).toMatch(/^0x/);

      // Same seed, same credentials (reproducible runs).
      const again = startCli(["--json", "--port", "0"], { CUSTODY_SANDBOX_SEED: "cli-test" });
      try {
        const info2 = JSON.parse(await firstLine(again)) as Record<string, string>;
        for (const k of [
          "workspace_id",
          "api_key",
          "api_secret",
          "viewer_api_key",
          "scoped_api_secret",
          "rpc_api_key",
          "faucet_private_key",
        ]) {
          expect(info2[k]).toBe(info[k]);
        }
      } finally {
        again.kill("SIGTERM");
        await exitCode(again);
      }

      child.kill("SIGTERM");
      expect(await exitCode(child)).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });

  it("exits 2 with a message for an unknown flag", async () => {
    const child = startCli(["--bogus"]);
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    expect(await exitCode(child)).toBe(2);
    expect(stderr).toContain("unknown option '--bogus'");
    expect(stderr).not.toMatch(/\bat .*\.ts:\d+/); // no stack trace
  });
});

describe("default port", () => {
  it("is 8150, where the real service's SDK looks with environment 'local', and is probed before use", async () => {
    expect(SDK_LOCAL_PORT).toBe(8150);
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
    const port = (busy.address() as AddressInfo).port;
    try {
      expect(await portIsFree(port, "127.0.0.1")).toBe(false);
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
    expect(await portIsFree(port, "127.0.0.1")).toBe(true);
  });
});

describe("parseSandboxArgs", () => {
  it("reads every flag", () => {
    const { options, json } = parseSandboxArgs([
      "--port",
      "8080",
      "--rpc-port=8545",
      "--host",
      "0.0.0.0",
      "--json",
      "--upstream",
      "http://node:8545",
      "--data",
      "/tmp/x",
      "--block-time",
      "0.25",
    ]);
    expect(json).toBe(true);
    expect(options).toMatchObject({
      port: 8080,
      rpcPort: 8545,
      host: "0.0.0.0",
      upstreamUrl: "http://node:8545",
      dataDir: "/tmp/x",
      blockTimeSeconds: 0.25,
    });
    expect(parseSandboxArgs(["--webhook-schedule", "production"]).options.webhookSchedule).toBe("production");
  });

  it.each([
    [["--port", "70000"]],
    [["--port"]],
    [["--block-time", "-1"]],
    [["--upstream", "ftp://x"]],
    [["--json=1"]],
    [["--port", "8000", "--rpc-port", "8000"]],
    [["--webhook-schedule", "fast"]],
  ])("refuses %j", (argv) => {
    expect(() => parseSandboxArgs(argv)).toThrow(UsageError);
  });
});
