// `custody sandbox` banner and credentials file, then `custody request` and `custody trigger` round
// trips against that running sandbox: signed calls by operationId and by METHOD PATH, the curl line
// (run with curl when it is installed), and every trigger event seen in the API and at a webhook receiver.
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { main } from "../cli/main.ts";
import { run as request } from "../cli/request.ts";
import type { SandboxFile } from "../cli/sandbox-file.ts";
import { run as trigger } from "../cli/trigger.ts";
import { type Receiver, startReceiver, waitFor } from "./reference-helpers.ts";

const BIN = path.resolve(import.meta.dirname, "../bin/custody.js");
const dir = mkdtempSync(path.join(os.tmpdir(), "custody-frontend-cli-"));
const FILE = path.join(dir, "run", "sandbox.json");

let child: ChildProcessWithoutNullStreams;
let banner = "";
let sandbox: SandboxFile;
let receiver: Receiver;

/** Runs a CLI entry in-process and returns its exit status and what it printed. */
async function capture(fn: () => Promise<number>): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, "log").mockImplementation((...a: unknown[]) => void out.push(a.join(" ")));
  const error = vi.spyOn(console, "error").mockImplementation((...a: unknown[]) => void err.push(a.join(" ")));
  try {
    return { code: await fn(), out: out.join("\n"), err: err.join("\n") };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

beforeAll(async () => {
  process.env.CUSTODY_SANDBOX_FILE = FILE;
  for (const name of ["CUSTODY_BASE_URL", "CUSTODY_API_KEY", "CUSTODY_API_SECRET", "CUSTODY_WORKSPACE_ID"])
    delete process.env[name];
  child = spawn(process.execPath, [BIN, "sandbox", "--block-time", "0", "--port", "0", "--rpc-port", "0"], {
    env: { ...process.env, CUSTODY_SANDBOX_FILE: FILE },
    stdio: ["pipe", "pipe", "pipe"],
  });
  child.stdout.on("data", (c: Buffer) => (banner += c.toString()));
  await waitFor("the sandbox banner", () => banner.includes("Press Ctrl+C"));
  sandbox = JSON.parse(readFileSync(FILE, "utf8")) as SandboxFile;
  receiver = await startReceiver();
});

afterAll(async () => {
  await receiver?.close();
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await exited;
    // The sandbox removes its credentials file when it stops.
    expect(existsSync(FILE)).toBe(false);
  }
  rmSync(dir, { recursive: true, force: true });
});

describe("custody sandbox banner and file", () => {
  it("prints URLs without /api/v1, the docs and console, and a custody request example", () => {
    expect(banner).toMatch(/wallet API\s+http:\/\/127\.0\.0\.1:\d+\s/);
    expect(banner).not.toMatch(/:\d+\/api\/v1/);
    expect(banner).toContain(`${sandbox.base_url}/console/`);
    expect(banner).toContain(`${sandbox.base_url}/docs/`);
    expect(banner).toContain("custody request listWallets");
    expect(banner).toContain(FILE);
  });

  it("writes the credentials file for this user only", () => {
    expect(statSync(FILE).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(FILE)).mode & 0o777).toBe(0o700);
    expect(sandbox.pid).toBe(child.pid);
    expect(sandbox.base_url).not.toMatch(/api\/v1/);
  });
});

describe("custody request", () => {
  it("calls an operation by id with the sandbox's credentials and prints status and pretty JSON", async () => {
    const r = await capture(() => request(["listNetworks"]));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^listNetworks: HTTP 200 OK/);
    const body = JSON.parse(r.out.slice(r.out.indexOf("\n") + 1));
    expect(body.success).toBe(true);
    expect(r.out).toContain('\n  "success": true'); // indented
  });

  it("calls METHOD PATH, with a base URL ending in /api/v1 accepted", async () => {
    const r = await capture(() => request(["GET", "/api/v1/networks", "--base-url", `${sandbox.base_url}/api/v1/`]));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^listNetworks: HTTP 200/);
  });

  it("fills workspace_id from the credentials and sends a --body", async () => {
    const r = await capture(() => request(["createWallet", "--body", JSON.stringify({ name: "from request" })]));
    expect(r.code).toBe(0);
    const list = await capture(() => request(["listWallets"]));
    expect(list.out).toContain('"name": "from request"');
    const keys = await capture(() => request(["listApiKeys"]));
    expect(keys.code).toBe(0);
  });

  it("exits 1 and prints the error envelope for a refused call", async () => {
    const r = await capture(() => request(["createWallet", "--body", '{"nam":1}']));
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/HTTP 400/);
    expect(r.out).toMatch(/"message": "body.name/);
  });

  it("names what is wrong in one line", async () => {
    expect((await capture(() => main(["request", "nope"]))).err).toMatch(/unknown operation 'nope'/);
    expect((await capture(() => main(["request", "getWallet"]))).err).toMatch(/needs --param wallet_id=…/);
    expect((await capture(() => main(["request", "listWallets", "--body", "{"]))).err).toMatch(/--body is not JSON/);
    expect(
      (
        await capture(() =>
          main(["request", "listWallets", "--api-key", "k", "--api-secret", "s", "--base-url", "ftp://x"]),
        )
      ).err,
    ).toMatch(/must be http/);
  });

  it("--curl prints a signed curl line that the API accepts", async () => {
    const r = await capture(() => request(["listNetworks", "--curl"]));
    expect(r.out).toMatch(
      /^curl -sS -X GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/networks -H 'ACCESS-API-KEY: key_\w+' -H 'ACCESS-TIMESTAMP: \d+' -H 'ACCESS-SIGN: [A-Za-z0-9+/=]+'$/,
    );
    if (!existsSync("/usr/bin/curl")) return; // the line's shape is checked above; sending it needs curl
    const answer = execFileSync("sh", ["-c", r.out], { encoding: "utf8" });
    expect(JSON.parse(answer).success).toBe(true);
  });
});

describe("custody trigger", () => {
  let walletId: string;

  beforeAll(async () => {
    const events = [
      "wallet.created",
      "deposit.pending",
      "deposit.confirmed",
      "withdrawal.executed",
      "withdrawal.failed",
    ];
    const r = await capture(() =>
      request(["createWebhook", "--body", JSON.stringify({ url: receiver.url, event_types: events })]),
    );
    expect(r.code).toBe(0);
  });

  const seen = (type: string) => receiver.received.filter((w) => w.event.event === type);

  it("wallet.created creates a wallet and waits until it is ready", async () => {
    const r = await capture(() => trigger(["wallet.created"]));
    expect(r.code).toBe(0);
    walletId = /wallet ([0-9a-f-]{36}) is ready/.exec(r.out)![1];
    await waitFor("wallet.created at the receiver", () =>
      seen("wallet.created").some((w) => w.event.payload.wallet_id === walletId || w.event.payload.id === walletId),
    );
  });

  it("deposit sends from the faucet and deposit.pending is delivered", async () => {
    const r = await capture(() => trigger(["deposit", "--wallet", walletId, "--amount", "0.75"]));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/sent 0\.75 \w+ from the faucet/);
    await waitFor("deposit.pending at the receiver", () =>
      seen("deposit.pending").some((w) => w.event.payload.amount === "0.75"),
    );
  });

  it("deposit.confirmed raises the available balance", async () => {
    const r = await capture(() => trigger(["deposit.confirmed", "--wallet", walletId, "--amount", "2"]));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/deposit confirmed: available balance [0-9.]+ → [0-9.]+/);
    await waitFor("deposit.confirmed at the receiver", () =>
      seen("deposit.confirmed").some((w) => w.event.payload.amount === "2"),
    );
  });

  it("deposit.confirmed --chain sol sends SOL from the Solana faucet and raises the SOL balance", async () => {
    const r = await capture(() =>
      trigger(["deposit.confirmed", "--chain", "sol", "--wallet", walletId, "--amount", "1.5"]),
    );
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/sent 1\.5 SOL from the faucet to [1-9A-HJ-NP-Za-km-z]{32,44} /);
    expect(r.out).toMatch(/deposit confirmed: available balance 0 → 1\.5 SOL/);
    await waitFor("the SOL deposit.confirmed at the receiver", () =>
      seen("deposit.confirmed").some((w) => w.event.payload.amount === "1.5"),
    );
  });

  it("withdrawal.failed makes a withdrawal fail on chain", async () => {
    const r = await capture(() => trigger(["withdrawal.failed", "--wallet", walletId]));
    expect(r.code).toBe(0);
    const id = /withdrawal ([0-9a-f-]{36}) failed/.exec(r.out)![1];
    await waitFor("withdrawal.failed at the receiver", () =>
      seen("withdrawal.failed").some((w) => JSON.stringify(w.event.payload).includes(id)),
    );
    const got = await capture(() => request(["getWithdrawal", "--param", `withdrawal_id=${id}`]));
    expect(got.out).toContain('"status": "failed"');
  });

  it("deposit.confirmed with only --base-url, --api-key and --api-secret finds the credentials' workspace itself", async () => {
    const file = process.env.CUSTODY_SANDBOX_FILE;
    process.env.CUSTODY_SANDBOX_FILE = `${FILE}.absent`; // no sandbox file: the flags are all it has
    try {
      const flags = ["--base-url", sandbox.base_url, "--api-key", sandbox.api_key, "--api-secret", sandbox.api_secret];
      const r = await capture(() => trigger(["deposit.confirmed", ...flags, "--amount", "0.5"]));
      expect(r.err).not.toContain("listWallets");
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/deposit confirmed: available balance 0 → 0.5/);
    } finally {
      process.env.CUSTODY_SANDBOX_FILE = file;
    }
  });

  it("block mines blocks", async () => {
    const r = await capture(() => trigger(["block", "--blocks", "2"]));
    expect(r.out).toMatch(/mined 2 blocks; head is block \d+/);
  });

  it("refuses unknown events and bad amounts in one line", async () => {
    expect((await capture(() => main(["trigger", "deposit.nope"]))).err).toMatch(
      /unknown event 'deposit.nope'; events: deposit/,
    );
    expect((await capture(() => main(["trigger", "deposit", "--amount", "-1"]))).err).toMatch(
      /--amount must be a positive decimal/,
    );
    expect((await capture(() => main(["trigger", "deposit", "--chain", "btc"]))).err).toMatch(
      /--chain must be evm or sol, got 'btc'/,
    );
    expect((await capture(() => main(["trigger", "withdrawal.failed", "--chain", "sol"]))).err).toMatch(
      /withdrawal.failed is evm only/,
    );
  });
});

describe("without a running sandbox", () => {
  it("says how to get credentials", async () => {
    const saved = process.env.CUSTODY_SANDBOX_FILE;
    process.env.CUSTODY_SANDBOX_FILE = path.join(dir, "none.json");
    try {
      const r = await capture(() => main(["request", "listWallets"]));
      expect(r.code).toBe(2);
      expect(r.err).toMatch(
        /missing --base-url \(or CUSTODY_BASE_URL\), .*; or start `custody sandbox` \(it writes .*none\.json\)/,
      );
    } finally {
      process.env.CUSTODY_SANDBOX_FILE = saved;
    }
  });
});
