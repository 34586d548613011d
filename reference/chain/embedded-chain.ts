// The embedded EVM chain behind the sandbox: anvil (Foundry's local node) as a supervised child process
// on an ephemeral loopback port, like a real node next to a custodian.
//
// Why anvil (measured against Hardhat's EDR in docs/explanation/money-and-crash-safety.md): it is maintained, it keeps its
// chain in a state file and reloads it (blocks, receipts, balances) after a restart, it runs outside
// the custody process (a crash of one does not take the other's memory with it), and it supports
// Node 20. Calls go over HTTP (the same bounded client as --upstream), new blocks come from anvil's own
// WebSocket `newHeads` subscription.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generatePrivateKey, privateKeyToAddress } from "viem/accounts";
import WebSocket from "ws";
import { type AnvilRun, anvilBinary, runAnvil, stopAnvil } from "./anvil-process.ts";
import {
  type BlockListener,
  BlockListeners,
  type ChainBackend,
  ChainRpcError,
  type RpcCall,
  toNewBlock,
} from "./backend.ts";
import { UpstreamChain } from "./upstream-chain.ts";

export interface EmbeddedChainOptions {
  /** EIP-155 chain id (also used as the network id). Default 1337. */
  chainId?: number;
  /** Seconds between blocks; fractions allowed; 0 mines every transaction at once. Default 1. */
  blockTimeSeconds?: number;
  /** 0x-prefixed 32-byte hex key of the funded faucet account; generated when absent. */
  faucetPrivateKey?: string;
  /** Faucet balance in wei. Default 1,000,000 ether. */
  faucetBalanceWei?: bigint;
  /** Folder where the chain's state file is kept so it survives a restart; in memory when absent. */
  dbPath?: string;
  /** Told when the node exits on its own and is restarted (or cannot be). */
  onEvent?: (message: string) => void;
}

export interface Faucet {
  privateKey: `0x${string}`;
  address: `0x${string}`;
}

const DEFAULT_CHAIN_ID = 1337;
const DEFAULT_FAUCET_BALANCE_WEI = 1_000_000n * 10n ** 18n;
const STATE_FILE = "anvil-state.json";
/** The running node's (watchdog's) pid, so a restart after a crash waits for the old node to write its state. */
const PID_FILE = "anvil.pid";
/**
 * The genesis block's timestamp, fixed for the life of the state file: anvil builds a new genesis block on
 * every start, also when it loads a state, and its hash must stay the one the sandbox recorded (a new
 * timestamp would give a new hash, and the loaded chain could answer block 0 with either).
 */
const GENESIS_TIME_FILE = "genesis-timestamp";
/** Seconds between state writes while running (anvil also writes it when stopped). */
const STATE_INTERVAL_S = 5;

export class EmbeddedChain implements ChainBackend {
  readonly kind = "embedded" as const;
  readonly chainId: number;
  readonly blockTimeSeconds: number;
  readonly faucet: Faucet;
  /** The state file, when the chain is persisted. */
  readonly stateFile: string | undefined;
  readonly #bin: string;
  readonly #args: string[];
  readonly #listeners = new BlockListeners();
  readonly #onEvent: (message: string) => void;
  #run: AnvilRun;
  #rpc: UpstreamChain;
  #heads: WebSocket | undefined;
  #closed = false;
  /** Restarts done by the supervisor (for health and tests). */
  restarts = 0;

  private constructor(init: {
    bin: string;
    args: string[];
    run: AnvilRun;
    rpc: UpstreamChain;
    chainId: number;
    blockTimeSeconds: number;
    faucet: Faucet;
    stateFile?: string;
    onEvent?: (m: string) => void;
  }) {
    this.#bin = init.bin;
    this.#args = init.args;
    this.#run = init.run;
    this.#rpc = init.rpc;
    this.chainId = init.chainId;
    this.blockTimeSeconds = init.blockTimeSeconds;
    this.faucet = init.faucet;
    this.stateFile = init.stateFile;
    this.#onEvent = init.onEvent ?? (() => undefined);
    this.#supervise();
  }

  /** Starts the node and resolves once it answers requests, with the faucet funded. */
  static async start(options: EmbeddedChainOptions = {}): Promise<EmbeddedChain> {
    const chainId = options.chainId ?? DEFAULT_CHAIN_ID;
    const blockTimeSeconds = options.blockTimeSeconds ?? 1;
    if (!Number.isSafeInteger(chainId) || chainId <= 0)
      throw new Error(`chainId must be a positive integer, got ${chainId}`);
    if (!Number.isFinite(blockTimeSeconds) || blockTimeSeconds < 0) {
      throw new Error(`blockTimeSeconds must be a number >= 0, got ${blockTimeSeconds}`);
    }
    const faucet = faucetFrom(options.faucetPrivateKey);
    const bin = anvilBinary();
    let stateFile: string | undefined;
    if (options.dbPath) {
      mkdirSync(options.dbPath, { recursive: true, mode: 0o700 });
      stateFile = join(options.dbPath, STATE_FILE);
    }
    if (options.dbPath) await waitForPreviousNode(join(options.dbPath, PID_FILE));
    const fresh = !stateFile || !existsSync(stateFile);
    const genesisTime = options.dbPath ? genesisTimestamp(join(options.dbPath, GENESIS_TIME_FILE), fresh) : undefined;
    const args = [
      "--host",
      "127.0.0.1",
      "--chain-id",
      String(chainId),
      "--accounts",
      "0",
      ...(blockTimeSeconds > 0 ? ["--block-time", String(blockTimeSeconds)] : []),
      ...(genesisTime !== undefined ? ["--timestamp", String(genesisTime)] : []),
      // Historical states are kept in the file so balances at recent blocks still answer after a reload.
      ...(stateFile
        ? ["--state", stateFile, "--state-interval", String(STATE_INTERVAL_S), "--preserve-historical-states"]
        : []),
    ];
    const run = await runAnvil(bin, [...args, "--port", "0"]);
    let rpc: UpstreamChain | undefined;
    try {
      if (options.dbPath && run.child.pid !== undefined)
        writeFileSync(join(options.dbPath, PID_FILE), `${run.child.pid}\n`, { mode: 0o600 });
      rpc = await UpstreamChain.connect({ url: `http://127.0.0.1:${run.port}/` });
      if (fresh) {
        const balance = options.faucetBalanceWei ?? DEFAULT_FAUCET_BALANCE_WEI;
        await rpc.request({ method: "anvil_setBalance", params: [faucet.address, `0x${balance.toString(16)}`] });
      }
    } catch (error) {
      await rpc?.close();
      await stopAnvil(run);
      throw error;
    }
    // Restarts reuse the port, so URLs handed out stay valid.
    return new EmbeddedChain({
      bin,
      args: [...args, "--port", String(run.port)],
      run,
      rpc,
      chainId,
      blockTimeSeconds,
      faucet,
      stateFile,
      onEvent: options.onEvent,
    });
  }

  /** The node's own JSON-RPC URL (loopback). */
  get url(): string {
    return `http://127.0.0.1:${this.#run.port}`;
  }

  /** Process id of the running node (the watchdog's, on POSIX). */
  get pid(): number | undefined {
    return this.#run.child.pid;
  }

  async request(call: RpcCall): Promise<unknown> {
    if (this.#closed) throw new ChainRpcError(-32000, "the embedded chain is closed");
    return this.#rpc.request(call);
  }

  onBlock(listener: BlockListener): () => void {
    const remove = this.#listeners.add(listener);
    this.#subscribeHeads();
    return remove;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#listeners.clear();
    this.#heads?.terminate();
    await this.#rpc.close();
    await stopAnvil(this.#run);
    if (this.stateFile) rmSync(join(this.stateFile, "..", PID_FILE), { force: true });
  }

  // One WebSocket newHeads subscription feeds every listener; reopened after a restart of the node.
  #subscribeHeads(): void {
    if (this.#heads || this.#closed) return;
    const socket = new WebSocket(`ws://127.0.0.1:${this.#run.port}`);
    this.#heads = socket;
    let subscription: string | undefined;
    socket.on("open", () =>
      socket.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_subscribe", params: ["newHeads"] })),
    );
    socket.on("message", (data) => {
      let message: { id?: number; result?: unknown; params?: { subscription?: unknown; result?: unknown } };
      try {
        message = JSON.parse(String(data));
      } catch {
        return;
      }
      if (message.id === 1 && typeof message.result === "string") subscription = message.result;
      else if (message.params && message.params.subscription === subscription) {
        const block = toNewBlock(message.params.result);
        if (block) this.#listeners.emit(block);
      }
    });
    socket.on("error", () => undefined);
    socket.on("close", () => {
      if (this.#heads === socket) this.#heads = undefined;
      // The node went away: the supervisor restarts it and calls #subscribeHeads again.
    });
  }

  // A node that exits while the sandbox runs is started again on its state file (same port).
  #supervise(): void {
    void this.#run.exited.then(async (how) => {
      if (this.#closed) return;
      this.#onEvent(
        `the chain node exited (${how}); restarting it${this.stateFile ? " on its saved state" : " (in memory: the chain starts over)"}`,
      );
      for (let attempt = 1; !this.#closed; attempt++) {
        try {
          this.#run = await runAnvil(this.#bin, this.#args);
          this.restarts++;
          if (this.#closed) {
            await stopAnvil(this.#run);
            return;
          }
          this.#heads?.terminate();
          this.#heads = undefined;
          if (this.#listeners.size > 0) this.#subscribeHeads();
          this.#supervise();
          return;
        } catch (error) {
          this.#onEvent(`the chain node could not be restarted (attempt ${attempt}): ${(error as Error).message}`);
          await new Promise((r) => setTimeout(r, Math.min(10_000, 500 * attempt)));
        }
      }
    });
  }
}

function genesisTimestamp(file: string, fresh: boolean): number {
  if (!fresh) {
    try {
      const t = Number.parseInt(readFileSync(file, "utf8"), 10);
      if (Number.isSafeInteger(t) && t > 0) return t;
    } catch {
      // A state file from before this file existed: start its genesis time now, once.
    }
  }
  const t = Math.floor(Date.now() / 1000);
  writeFileSync(file, `${t}\n`, { mode: 0o600 });
  return t;
}

/**
 * After a crash the old node is still stopping (its watchdog notices the parent's end at once, then anvil
 * writes its state): wait for it, so the new node loads the final state and not an older one.
 */
async function waitForPreviousNode(pidFile: string, timeoutMs = 15_000): Promise<void> {
  let pid: number;
  try {
    pid = Number.parseInt(readFileSync(pidFile, "utf8"), 10);
  } catch {
    return;
  }
  if (!Number.isSafeInteger(pid) || pid <= 1) return;
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const deadline = Date.now() + timeoutMs;
  while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (alive())
    throw new Error(`the chain node of a previous run (pid ${pid}, see ${pidFile}) is still running: stop it first`);
}

/** Starts an embedded chain (see EmbeddedChain). */
export function startEmbeddedChain(options: EmbeddedChainOptions = {}): Promise<EmbeddedChain> {
  return EmbeddedChain.start(options);
}

function faucetFrom(privateKey: string | undefined): Faucet {
  const key = privateKey ?? generatePrivateKey();
  if (!/^0x[0-9a-fA-F]{64}$/.test(key)) throw new Error("faucetPrivateKey must be 0x followed by 64 hex digits");
  try {
    const normalized = key.toLowerCase() as `0x${string}`;
    return { privateKey: normalized, address: privateKeyToAddress(normalized) };
  } catch {
    throw new Error("faucetPrivateKey is not a valid secp256k1 private key");
  }
}
