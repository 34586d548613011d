// Crash run: `custody sandbox --data DIR` under a steady load of withdrawals and deposits, killed with
// SIGKILL at chosen moments and restarted on the same data, then left to settle. Counts what a custodian
// must never do: leave a withdrawal in flight, move funds twice, lose or duplicate an event.
// Used by test/reference-crash.test.ts (two kills) and scripts/crash.ts (`npm run crash`, random kills).
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  formatEther,
  type Hex,
  parseEther,
  http as viemHttp,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { CustodialWalletServiceClient } from "../generated/client.ts";
import { keypairFromSeed } from "../lib/solana/keys.ts";
import { SANDBOX_ETH_ASSET_ID, SANDBOX_SOL_ASSET_ID } from "../reference/domain/catalog.ts";

export interface CrashOptions {
  /** Milliseconds after the load starts at which to SIGKILL the sandbox (each followed by a restart). */
  killAtMs: number[];
  /** Load time after the last restart before the clients stop. */
  tailMs: number;
  /** Concurrent clients requesting, approving and polling withdrawals. */
  clients: number;
  /** Of those wallets, how many also run a loop of SOL withdrawals (through the embedded Solana runtime). Default 0. */
  solClients?: number;
  /** How long the settled state may take after the load stops. */
  settleMs: number;
  blockTimeSeconds?: number;
  log?: (line: string) => void;
}

export interface CrashFigures {
  kills: number;
  withdrawals: number;
  /** Of those, SOL withdrawals (through the embedded Solana runtime). */
  solWithdrawals: number;
  completed: number;
  failed: number;
  /** Approved withdrawals still approved/processing after the settle time. */
  stuck: number;
  /** Withdrawals whose recipient holds more than the amount (moved twice), or one idempotency key with two withdrawals. */
  doubleSpent: number;
  /** Completed withdrawals whose recipient holds nothing, or failed ones whose recipient holds the amount. */
  chainMismatch: number;
  /** Wallets whose API balance differs from the chain's. */
  balanceMismatch: number;
  deposits: number;
  /** Deposits mined on chain but missing from the API, or recorded twice. */
  depositsMissedOrDouble: number;
  events: number;
  /** Events the sandbox logged but the receiver never got. */
  eventsLost: number;
  /** Events received more than once (same event id). */
  redelivered: number;
  /** Events the receiver got that the sandbox has not logged. */
  eventsUnknown: number;
  /** Final state per withdrawal that is wrong in its event trail (no terminal event, two terminal events). */
  eventTrailErrors: number;
  details: string[];
}

interface SandboxInfo {
  base_url: string;
  rpc_url: string;
  solana_rpc_url?: string;
  api_key: string;
  api_secret: string;
  rpc_api_key: string;
  workspace_id: string;
  faucet_private_key: string;
}

interface Requested {
  key: string;
  ids: Set<string>;
  walletId: string;
  /** An EVM address, or a base58 Solana one when sol. */
  recipient: string;
  /** In the asset's smallest unit (wei, lamports). */
  amountWei: bigint;
  approved: boolean;
  sol?: boolean;
}

/** One call to the sandbox's Solana JSON-RPC (same key as the node access). */
async function solanaRpc(i: SandboxInfo, method: string, params: unknown[]): Promise<unknown> {
  const res = await fetch(`${i.solana_rpc_url}/?api_key=${encodeURIComponent(i.rpc_api_key)}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: { message?: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

async function solBalance(i: SandboxInfo, address: string, commitment: "confirmed" | "finalized"): Promise<bigint> {
  return BigInt(((await solanaRpc(i, "getBalance", [address, { commitment }])) as { value: number }).value);
}

const ROOT = path.resolve(import.meta.dirname, "..");
const ETH = SANDBOX_ETH_ASSET_ID;

type Wallet = { id: string; address: Hex };
type SolWallet = Wallet & { sol: string };
type SandboxProcess = Awaited<ReturnType<typeof startSandboxProcess>>;
type FinalStates = Map<string, { status: string; error?: string }>;

/** One crash run's state: the sandbox (replaced at each kill), its wallets and what the load asked for. */
interface CrashRun {
  readonly opts: CrashOptions;
  readonly log: (line: string) => void;
  readonly dataDir: string;
  readonly receiver: Awaited<ReturnType<typeof startCountingReceiver>>;
  sandbox: SandboxProcess;
  /** The running sandbox's record; the loads read it at every call. */
  current: SandboxInfo;
  wallets: Wallet[];
  solWallets: SolWallet[];
  readonly deposits: Set<Hex>;
  readonly requested: Requested[];
  stop: boolean;
  readonly details: string[];
}

const WEBHOOK_EVENTS = [
  "deposit.pending",
  "deposit.confirmed",
  "withdrawal.pending",
  "withdrawal.executed",
  "withdrawal.confirmed",
  "withdrawal.failed",
] as const;

export async function runCrash(opts: CrashOptions): Promise<CrashFigures> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "custody-crash-"));
  const receiver = await startCountingReceiver();
  const sandbox = await startSandboxProcess(dataDir, opts.blockTimeSeconds ?? 0.5);
  const run: CrashRun = {
    opts,
    log: opts.log ?? (() => undefined),
    dataDir,
    receiver,
    sandbox,
    current: sandbox.info,
    wallets: [],
    solWallets: [],
    deposits: new Set(),
    requested: [],
    stop: false,
    details: [],
  };
  try {
    const setup = clientOf(run.current);
    const body = { url: receiver.url, event_types: [...WEBHOOK_EVENTS] };
    const webhook = await setup.createWebhook({ params: { workspace_id: run.current.workspace_id }, body });
    await createWallets(run);
    await fundWallets(run);
    await runLoad(run);
    const info = run.current;
    const client = clientOf(info);
    // ---- settle, then figures ----
    const approved = run.requested.filter((r) => r.ids.size > 0 && r.approved);
    const finalStates = await settle(run, approved, webhook.id as string);
    const withdrawals = await withdrawalFigures(run, approved, finalStates);
    const balanceMismatch = (await evmBalanceMismatches(run)) + (await solBalanceMismatches(run));
    const deposits = await depositFigures(run);
    const events = await eventFigures(run, client, webhook.id as string, approved, finalStates);
    return {
      kills: opts.killAtMs.length,
      withdrawals: approved.length,
      solWithdrawals: approved.filter((r) => r.sol).length,
      ...withdrawals,
      balanceMismatch,
      ...deposits,
      ...events,
      details: run.details.slice(0, 20),
    };
  } finally {
    run.sandbox.child.kill("SIGTERM");
    await run.sandbox.exited;
    await receiver.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function clientOf(i: SandboxInfo): CustodialWalletServiceClient {
  return new CustodialWalletServiceClient({ baseUrl: i.base_url, apiKey: i.api_key, apiSecret: i.api_secret });
}

function chainOf(i: SandboxInfo) {
  const transport = viemHttp(`${i.rpc_url}/rpc?api_key=${encodeURIComponent(i.rpc_api_key)}`, { retryCount: 0 });
  const chain = defineChain({
    id: 1337,
    name: "sandbox",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [] } },
  });
  return {
    public: createPublicClient({ chain, transport }),
    wallet: createWalletClient({ chain, transport, account: privateKeyToAccount(i.faucet_private_key as Hex) }),
  };
}

/** One wallet per client, created and with ETH attached; the first solClients of them also send SOL. */
async function createWallets(run: CrashRun): Promise<void> {
  const setup = clientOf(run.current);
  for (let i = 0; i < run.opts.clients; i++) {
    const created = await setup.createWallet({ body: { name: `crash-${i}` } });
    const id = created.wallet_id as string;
    await until(
      async () => (await setup.getWalletCreationStatus({ params: { wallet_id: id } })).status === "success",
      20_000,
    );
    const attached = await setup.attachAsset({ params: { wallet_id: id }, body: { asset_id: ETH } });
    run.wallets.push({ id, address: attached.address as Hex });
  }
  run.solWallets = run.wallets
    .slice(0, Math.min(run.opts.solClients ?? 0, run.wallets.length))
    .map((w) => ({ ...w, sol: "" }));
}

/** The first deposits (ETH, and SOL for the SOL loops), confirmed before the load starts. */
async function fundWallets(run: CrashRun): Promise<void> {
  const info = run.current;
  const setup = clientOf(info);
  for (const w of run.wallets)
    run.deposits.add(await chainOf(info).wallet.sendTransaction({ to: w.address, value: parseEther("100") }));
  await until(async () => {
    for (const w of run.wallets) {
      const b = await clientOf(info).getWalletAssetBalance({ params: { wallet_id: w.id, asset_id: ETH } });
      if (Number(b.available_balance) < 50) return false;
    }
    return true;
  }, 60_000);
  // SOL for the SOL loops: airdropped to each wallet's Solana address, confirmed (32 slots) before the load.
  for (const w of run.solWallets) {
    w.sol = (await setup.getDepositAddress({ params: { wallet_id: w.id }, query: { address_type: "sol" } })).address;
    await solanaRpc(info, "requestAirdrop", [w.sol, 20_000_000_000]);
  }
  await until(async () => {
    for (const w of run.solWallets)
      if (
        Number(
          (await clientOf(info).getWalletAssetBalance({ params: { wallet_id: w.id, asset_id: SANDBOX_SOL_ASSET_ID } }))
            .available_balance,
        ) < 10
      )
        return false;
    return true;
  }, 60_000);
  run.log(
    `setup done: ${run.wallets.length} wallets funded (${run.solWallets.length} with SOL too), data in ${run.dataDir}`,
  );
}

/** Withdrawals from every client, deposits from the faucet, kills at the given moments; then the loads stop. */
async function runLoad(run: CrashRun): Promise<void> {
  // A loop that throws stops the others and is rethrown below, once the sandbox can be stopped in
  // the finally block (unhandled, it would end the process and leave the sandbox and its chain running).
  let loopFailure: unknown;
  const loops = [
    ...run.wallets.map((_, n) => clientLoop(run, n)),
    ...run.solWallets.map((_, n) => clientLoop(run, n, true)),
    depositLoop(run),
  ].map((loop) =>
    loop.catch((error: unknown) => {
      loopFailure ??= error;
      run.stop = true;
    }),
  );
  const start = Date.now();
  for (const at of run.opts.killAtMs) {
    await new Promise((r) => setTimeout(r, Math.max(0, start + at - Date.now())));
    await killAndRestart(run, start);
  }
  await new Promise((r) => setTimeout(r, run.opts.tailMs));
  run.stop = true;
  await Promise.all(loops);
  if (loopFailure !== undefined) throw loopFailure;
  run.log(`load stopped at ${Date.now() - start} ms: ${run.requested.length} withdrawals requested; settling`);
}

async function killAndRestart(run: CrashRun, start: number): Promise<void> {
  const head = await chainOf(run.current)
    .public.getBlockNumber()
    .catch(() => "down");
  run.sandbox.child.kill("SIGKILL");
  await run.sandbox.exited;
  run.log(`SIGKILL at ${Date.now() - start} ms (${run.requested.length} requested so far, head ${head}); restarting`);
  run.sandbox = await startSandboxProcess(run.dataDir, run.opts.blockTimeSeconds ?? 0.5);
  run.log(`restarted at ${Date.now() - start} ms, head ${await chainOf(run.sandbox.info).public.getBlockNumber()}`);
  run.current = run.sandbox.info;
}

/** A new withdrawal request of client n's wallet: ETH, or SOL for a SOL loop. */
function newRequest(wallet: Wallet, sol: boolean): Requested {
  return sol
    ? {
        key: randomUUID(),
        ids: new Set(),
        walletId: wallet.id,
        recipient: keypairFromSeed(crypto.getRandomValues(new Uint8Array(32))).address,
        amountWei: 10_000_000n * BigInt(1 + Math.floor(Math.random() * 9)),
        approved: false,
        sol: true,
      }
    : {
        key: randomUUID(),
        ids: new Set(),
        walletId: wallet.id,
        recipient: privateKeyToAccount(generatePrivateKey()).address,
        amountWei: parseEther("0.001") * BigInt(1 + Math.floor(Math.random() * 9)),
        approved: false,
      };
}

/** Requests, approves and polls withdrawals of wallet n until the load stops or its funds are spent. */
async function clientLoop(run: CrashRun, n: number, sol = false): Promise<void> {
  const wallet = run.wallets[n]!;
  const going = () => !run.stop;
  while (!run.stop) {
    const r = newRequest(wallet, sol);
    run.requested.push(r);
    const asset = sol ? SANDBOX_SOL_ASSET_ID : ETH;
    const amount = sol ? (Number(r.amountWei) / 1e9).toString() : formatEther(r.amountWei);
    // Retried with the same Idempotency-Key while the sandbox is down: at most one withdrawal per key.
    let spent = false;
    await retry(going, async () => {
      try {
        const w = await clientOf(run.current).createWithdrawal({
          params: { wallet_id: wallet.id },
          headers: { "idempotency-key": r.key },
          body: { asset_id: asset, amount, recipient_address: r.recipient },
        });
        r.ids.add(w.withdrawal.id as string);
      } catch (error) {
        // The wallet's funds are spent (409, insufficient available balance): this client is done.
        if ((error as { status?: number }).status !== 409) throw error;
        spent = true;
      }
    });
    const id = [...r.ids][0];
    if (!id || spent) break;
    await retry(going, async () => {
      try {
        await clientOf(run.current).approveWithdrawal({ params: { withdrawal_id: id }, body: {} });
      } catch (error) {
        // Approved by an attempt whose answer was lost in a crash.
        if ((error as { status?: number }).status !== 409) throw error;
      }
      r.approved = true;
    });
    await retry(going, () => clientOf(run.current).getWithdrawal({ params: { withdrawal_id: id } }));
  }
}

/** Small deposits from the faucet to random wallets, while the load runs. */
async function depositLoop(run: CrashRun): Promise<void> {
  while (!run.stop) {
    await new Promise((r) => setTimeout(r, 400));
    const to = run.wallets[Math.floor(Math.random() * run.wallets.length)]!.address;
    try {
      run.deposits.add(await chainOf(run.current).wallet.sendTransaction({ to, value: parseEther("0.01") }));
    } catch {
      // Sandbox down: the next round tries again.
    }
  }
}

/** Waits (up to settleMs) for every approved withdrawal to be final and every delivery done; the final states. */
async function settle(run: CrashRun, approved: Requested[], webhookId: string): Promise<FinalStates> {
  const info = run.current;
  const client = clientOf(info);
  const finalStates: FinalStates = new Map();
  const settleDeadline = Date.now() + run.opts.settleMs;
  for (;;) {
    finalStates.clear();
    for (const w of run.wallets) {
      // Lists are paged (20 by default): the iterators read every page.
      for await (const x of client.listWalletWithdrawals.all({ params: { wallet_id: w.id } }))
        finalStates.set(x.id as string, { status: x.status as string, error: x.error });
    }
    const open = approved.filter(
      (r) => !["completed", "failed"].includes(finalStates.get([...r.ids][0]!)?.status ?? ""),
    );
    const deliveries = await everyItem(
      client.listWebhookDeliveries.all({
        params: { workspace_id: info.workspace_id },
        query: { webhook_id: webhookId },
      }),
    );
    const undelivered = deliveries.filter((d) => d.status !== "delivered");
    if ((open.length === 0 && undelivered.length === 0) || Date.now() > settleDeadline) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  return finalStates;
}

/** Final states against what each recipient holds on its chain: completed, failed, stuck, doubles, mismatches. */
async function withdrawalFigures(run: CrashRun, approved: Requested[], finalStates: FinalStates) {
  const info = run.current;
  const pub = chainOf(info).public;
  const { details } = run;
  const stuck = approved.filter(
    (r) => !["completed", "failed"].includes(finalStates.get([...r.ids][0]!)?.status ?? ""),
  );
  for (const r of stuck.slice(0, 5))
    details.push(`stuck: ${[...r.ids][0]} is ${finalStates.get([...r.ids][0]!)?.status}`);
  let doubleSpent = run.requested.filter((r) => r.ids.size > 1).length;
  let chainMismatch = 0;
  let completed = 0;
  let failed = 0;
  // What a recipient holds, on its chain (SOL at the confirmed commitment: completed means confirmed there).
  const heldBy = (r: Requested) =>
    r.sol ? solBalance(info, r.recipient, "confirmed") : pub.getBalance({ address: r.recipient as Hex });
  await inParallel(approved, 8, async (r) => {
    const state = finalStates.get([...r.ids][0]!);
    const held = await heldBy(r);
    if (state?.status === "completed") completed++;
    if (state?.status === "failed") failed++;
    const expected = state?.status === "completed" ? r.amountWei : 0n;
    if (held > expected && state?.status === "completed") {
      doubleSpent++;
      details.push(`double: ${[...r.ids][0]} recipient holds ${held}, amount ${r.amountWei}`);
    } else if (held !== expected && (state?.status === "completed" || state?.status === "failed")) {
      chainMismatch++;
      details.push(
        `mismatch: ${[...r.ids][0]} is ${state.status}${state.error ? ` (${state.error})` : ""}, recipient holds ${held}`,
      );
    }
  });
  // Requests never approved must not have moved anything either.
  await inParallel(
    run.requested.filter((r) => !r.approved),
    8,
    async (r) => {
      if ((await heldBy(r)) !== 0n && finalStates.get([...r.ids][0] ?? "")?.status !== "completed") doubleSpent++;
    },
  );
  return { completed, failed, stuck: stuck.length, doubleSpent, chainMismatch };
}

/** Wallets whose ETH balance in the API differs from the chain's. */
async function evmBalanceMismatches(run: CrashRun): Promise<number> {
  const pub = chainOf(run.current).public;
  const client = clientOf(run.current);
  let balanceMismatch = 0;
  for (const w of run.wallets) {
    const equal = await until(async () => {
      const head = await pub.getBlockNumber();
      const onChain = await pub.getBalance({ address: w.address, blockNumber: head - 2n });
      const api = await client.getWalletAssetBalance({ params: { wallet_id: w.id, asset_id: ETH } });
      return parseEther(api.total_balance as string) === onChain;
    }, 10_000).then(
      () => true,
      () => false,
    );
    if (!equal) {
      balanceMismatch++;
      run.details.push(`balance: wallet ${w.id} differs from the chain`);
    }
  }
  return balanceMismatch;
}

/** SOL: the API's confirmed balance is the chain's at the finalized commitment (32 confirmations). */
async function solBalanceMismatches(run: CrashRun): Promise<number> {
  const info = run.current;
  const client = clientOf(info);
  let balanceMismatch = 0;
  for (const w of run.solWallets) {
    const equal = await until(async () => {
      const api = await client.getWalletAssetBalance({ params: { wallet_id: w.id, asset_id: SANDBOX_SOL_ASSET_ID } });
      const [whole, fraction = ""] = String(api.total_balance).split(".");
      return (
        BigInt(whole!) * 1_000_000_000n + BigInt(fraction.padEnd(9, "0")) ===
        (await solBalance(info, w.sol, "finalized"))
      );
    }, 30_000).then(
      () => true,
      () => false,
    );
    if (!equal) {
      balanceMismatch++;
      run.details.push(`balance: wallet ${w.id}'s SOL differs from the chain`);
    }
  }
  return balanceMismatch;
}

/** Deposits: every mined one recorded exactly once. */
async function depositFigures(run: CrashRun): Promise<{ deposits: number; depositsMissedOrDouble: number }> {
  const info = run.current;
  const pub = chainOf(info).public;
  const txs = await everyItem(
    clientOf(info).listTransactions.all({
      params: { workspace_id: info.workspace_id },
      query: { direction: "deposit" },
    }),
  );
  let depositsMissedOrDouble = 0;
  let depositCount = 0;
  await inParallel([...run.deposits], 8, async (hash) => {
    const receipt = await pub.getTransactionReceipt({ hash }).catch(() => undefined);
    const recorded = txs.filter(
      (t) => t.direction === "deposit" && (t.tx_hash as string)?.toLowerCase() === hash.toLowerCase(),
    );
    if (receipt?.status === "success") {
      depositCount++;
      if (recorded.length !== 1) {
        depositsMissedOrDouble++;
        run.details.push(`deposit ${hash}: mined in block ${receipt.blockNumber}, recorded ${recorded.length} times`);
      }
    } else if (recorded.length > 0) {
      depositsMissedOrDouble++;
      run.details.push(`deposit ${hash}: never mined but recorded`);
    }
  });
  return { deposits: depositCount, depositsMissedOrDouble };
}

/** Events: every logged event received; redeliveries, unknown ones, and each final withdrawal's trail. */
async function eventFigures(
  run: CrashRun,
  client: CustodialWalletServiceClient,
  webhookId: string,
  approved: Requested[],
  finalStates: FinalStates,
) {
  const deliveries = await everyItem(
    client.listWebhookDeliveries.all({
      params: { workspace_id: run.current.workspace_id },
      query: { webhook_id: webhookId },
    }),
  );
  const logged = new Set(deliveries.map((d) => d.event_id as string));
  const received = new Map<string, number>();
  for (const e of run.receiver.received) received.set(e.id, (received.get(e.id) ?? 0) + 1);
  const eventsLost = [...logged].filter((id) => !received.has(id)).length;
  const eventsUnknown = [...received.keys()].filter((id) => !logged.has(id)).length;
  const redelivered = [...received.values()].reduce((n, c) => n + (c - 1), 0);
  const eventTrailErrors = trailErrors(run, approved, finalStates);
  return { events: logged.size, eventsLost, redelivered, eventsUnknown, eventTrailErrors };
}

/** Final withdrawals whose events are wrong: not exactly one pending and one terminal event. */
function trailErrors(run: CrashRun, approved: Requested[], finalStates: FinalStates): number {
  let eventTrailErrors = 0;
  const byWithdrawal = new Map<string, Set<string>>();
  for (const e of run.receiver.received) {
    const wid = (e.data as { withdrawal_id?: string }).withdrawal_id;
    if (!wid || !e.type.startsWith("withdrawal.")) continue;
    const set = byWithdrawal.get(`${wid}:${e.type}`) ?? new Set();
    set.add(e.id);
    byWithdrawal.set(`${wid}:${e.type}`, set);
  }
  for (const r of approved) {
    const id = [...r.ids][0]!;
    const status = finalStates.get(id)?.status;
    const terminal =
      status === "completed" ? "withdrawal.confirmed" : status === "failed" ? "withdrawal.failed" : undefined;
    if (!terminal) continue;
    const ok =
      byWithdrawal.get(`${id}:${terminal}`)?.size === 1 &&
      byWithdrawal.get(`${id}:withdrawal.pending`)?.size === 1 &&
      (byWithdrawal.get(`${id}:withdrawal.confirmed`)?.size ?? 0) +
        (byWithdrawal.get(`${id}:withdrawal.failed`)?.size ?? 0) ===
        1;
    if (!ok) {
      eventTrailErrors++;
      run.details.push(`events: ${id} (${status}) has an incomplete or doubled event trail`);
    }
  }
  return eventTrailErrors;
}

async function startSandboxProcess(
  dataDir: string,
  blockTimeSeconds: number,
): Promise<{ child: ChildProcess; info: SandboxInfo; exited: Promise<void> }> {
  const child = spawn(
    process.execPath,
    [
      path.join(ROOT, "bin/custody.js"),
      "sandbox",
      "--json",
      "--port",
      "0",
      "--rpc-port",
      "0",
      "--data",
      dataDir,
      "--block-time",
      String(blockTimeSeconds),
      "--seed",
      "crash-run",
    ],
    {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, CUSTODY_SANDBOX_SEED: "" },
    },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let stderr = "";
  child.stderr!.on("data", (c: Buffer) => {
    stderr = (stderr + c.toString("utf8")).slice(-4000);
  });
  const info = await new Promise<SandboxInfo>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`sandbox did not start: ${stderr}`)), 60_000);
    child.stdout!.on("data", (c: Buffer) => {
      out += c.toString("utf8");
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) {
        clearTimeout(timer);
        resolve(JSON.parse(line) as SandboxInfo);
      }
    });
    void exited.then(() => reject(new Error(`sandbox exited before it was ready: ${stderr}`)));
  });
  return { child, info, exited };
}

interface CountedEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

async function startCountingReceiver(): Promise<{ url: string; received: CountedEvent[]; close(): Promise<void> }> {
  const received: CountedEvent[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      try {
        // The default envelope {webhook_id, resource_id, url, payload, event} with the event id in a header;
        // the standard-webhooks profile's {id, type, data} is read too.
        const e = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
        const header = req.headers["x-webhook-event-id"] ?? req.headers["webhook-id"];
        const id = typeof header === "string" ? header : (e.id as string);
        received.push({
          id,
          type: (e.event ?? e.type) as string,
          data: (e.payload ?? e.data) as Record<string, unknown>,
        });
      } catch {
        // Not an event: ignored, counted nowhere.
      }
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Repeats `call` until it succeeds or `go()` turns false; transport failures are expected while the sandbox is down. */
async function retry<T>(go: () => boolean, call: () => Promise<T>): Promise<T | undefined> {
  for (;;) {
    try {
      return await call();
    } catch (error) {
      const status = (error as { status?: number }).status;
      if (status !== undefined && status < 500 && status !== 401) throw error;
      if (!go()) return undefined;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

async function until(probe: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      if (await probe()) return;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out${last instanceof Error ? `: ${last.message}` : ""}`);
}

async function inParallel<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: limit }, async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) await work(next);
    }),
  );
}

/** Every item an iterator yields. */
async function everyItem<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
