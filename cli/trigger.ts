// `custody trigger <event>`: makes something happen on a running sandbox, as `stripe trigger` does in
// Stripe's test mode: a deposit (from the faucet), a confirmed deposit, a failed withdrawal, a new
// block, a new wallet. The wallet API is driven through web/console/adapter.js (the one file that
// knows operation ids and shapes); chain events go through the sandbox-only /_sandbox/ actions.

import type { ApiTarget } from "../lib/target.ts";
import * as api from "../web/console/adapter.js";
import { TRIGGER_COMMAND, TRIGGER_OPTIONS } from "./commands/trigger.ts";
import { parseFlags } from "./flags.ts";
import { helpText } from "./help.ts";
import { CallFailed, operationCaller, sandboxAction } from "./signed-call.ts";
import { callTarget } from "./target.ts";
import { UsageError } from "./usage-error.ts";

export const TRIGGER_USAGE = helpText(TRIGGER_COMMAND);

const EVENTS = ["deposit", "deposit.pending", "deposit.confirmed", "withdrawal.failed", "block", "wallet.created"];
const WAIT_MS = 60_000;

type Chain = "evm" | "sol";

interface TriggerArgs {
  event?: string;
  chain: Chain;
  wallet?: string;
  amount?: string;
  blocks?: number;
  help: boolean;
  /** The flags, for the target (cli/target.ts). */
  values: Record<string, unknown>;
}

export function parseTriggerArgs(argv: string[]): TriggerArgs {
  const { values, positionals } = parseFlags(argv, TRIGGER_OPTIONS, { positionals: true, usage: TRIGGER_USAGE });
  if (positionals.length > 1) throw new UsageError(`unexpected argument '${positionals[1]}'`);
  const chain = values.chain ?? "evm";
  if (chain !== "evm" && chain !== "sol") throw new UsageError(`--chain must be evm or sol, got '${chain}'`);
  const out: TriggerArgs = { help: values.help ?? false, chain, values };
  if (positionals[0] !== undefined) out.event = positionals[0];
  if (values.wallet !== undefined) out.wallet = values.wallet;
  if (values.amount !== undefined) {
    if (!/^[0-9]+(\.[0-9]+)?$/.test(values.amount) || Number(values.amount) <= 0)
      throw new UsageError(`--amount must be a positive decimal number such as 1.5, got '${values.amount}'`);
    out.amount = values.amount;
  }
  if (values.blocks !== undefined) {
    const n = Number(values.blocks);
    if (!/^[0-9]+$/.test(values.blocks) || n < 1 || n > 100)
      throw new UsageError("--blocks must be an integer from 1 to 100");
    out.blocks = n;
  }
  return out;
}

async function poll<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${WAIT_MS / 1000} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Sub-steps of the events, each printing one line. */
class Trigger {
  readonly call: api.Call;
  readonly ctx: api.Ctx;

  constructor(
    readonly creds: ApiTarget,
    readonly log: (line: string) => void,
    readonly chain: Chain = "evm",
  ) {
    this.call = operationCaller(creds);
    this.ctx = { workspace_id: creds.workspaceId ?? "" };
  }

  async mine(blocks: number): Promise<number> {
    const { block_number } = (await sandboxAction(this.creds, "mine", { blocks, chain: this.chain })) as {
      block_number: number;
    };
    const unit = this.chain === "sol" ? "slot" : "block";
    this.log(
      `${this.chain === "sol" ? "produced" : "mined"} ${blocks} ${unit}${blocks === 1 ? "" : "s"}; head is ${unit} ${block_number}`,
    );
    return block_number;
  }

  async createWallet(): Promise<string> {
    const { id } = await api.createWallet(this.call, this.ctx, `trigger ${new Date().toISOString()}`);
    this.log(`wallet ${id} requested`);
    await poll(`wallet ${id} to be ready`, async () =>
      (await api.creationStatus(this.call, this.ctx, id)) === "success" ? true : undefined,
    );
    this.log(`wallet ${id} is ready (wallet.created)`);
    if (!this.ctx.workspace_id) await this.learnWorkspace(id);
    return id;
  }

  /** The credentials' workspace, from a wallet's creation status (seed 2.6 gives its workspace_id). */
  private async learnWorkspace(walletId: string): Promise<void> {
    const status = (await this.call("getWalletCreationStatus", { params: { wallet_id: walletId } })) as {
      workspace_id?: unknown;
    };
    if (typeof status?.workspace_id === "string" && status.workspace_id !== "")
      this.ctx.workspace_id = status.workspace_id;
  }

  async wallet(given: string | undefined): Promise<string> {
    if (given !== undefined) return given;
    // Without --workspace-id the wallets cannot be listed: a new wallet's creation status names the workspace.
    if (!this.ctx.workspace_id) return this.createWallet();
    const ready = (await api.listWallets(this.call, this.ctx)).find((w) => w.status === "success");
    return ready?.id ?? this.createWallet();
  }

  async available(walletId: string, assetId: string): Promise<string> {
    return (await api.balances(this.call, this.ctx, walletId)).find((b) => b.asset_id === assetId)?.available ?? "0";
  }

  /** Faucet → the wallet's deposit address, then one block so that the deposit is detected. */
  async deposit(walletId: string, amount: string): Promise<{ assetId: string; symbol: string }> {
    const asset = await api.nativeAsset(this.call, this.chain);
    const address = await api.depositAddress(this.call, this.ctx, walletId, asset.id);
    const sent = (await sandboxAction(this.creds, "faucet", { address, amount, chain: this.chain })) as {
      tx_hash: string;
    };
    this.log(`sent ${amount} ${asset.symbol} from the faucet to ${address} (wallet ${walletId}), tx ${sent.tx_hash}`);
    await this.mine(1);
    return { assetId: asset.id, symbol: asset.symbol };
  }

  async confirmedDeposit(walletId: string, amount: string): Promise<{ assetId: string; symbol: string }> {
    const asset = await api.nativeAsset(this.call, this.chain);
    const before = await this.available(walletId, asset.id).catch(() => "0");
    const deposited = await this.deposit(walletId, amount);
    const after = await poll("the deposit to be confirmed", async () => {
      // Solana confirms after 32 slots: produce them in a few steps rather than one per poll.
      await sandboxAction(this.creds, "mine", { blocks: this.chain === "sol" ? 8 : 1, chain: this.chain });
      const now = await this.available(walletId, asset.id);
      return Number(now) > Number(before) ? now : undefined;
    });
    this.log(`deposit confirmed: available balance ${before} → ${after} ${asset.symbol}`);
    return deposited;
  }

  async failedWithdrawal(walletId: string, amount: string): Promise<void> {
    const fund = (Number(amount) + 0.1).toFixed(6).replace(/\.?0+$/, "");
    const { assetId, symbol } = await this.confirmedDeposit(walletId, fund);
    const { address } = (await sandboxAction(this.creds, "reverting-address", {})) as { address: string };
    const w = await api.requestWithdrawal(this.call, this.ctx, walletId, {
      assetId,
      amount,
      to: address,
      note: "custody trigger withdrawal.failed",
    });
    this.log(
      `withdrawal ${w.id} of ${amount} ${symbol} to ${address} (a contract that reverts every transfer), status ${w.status}`,
    );
    if (w.status === "pending" || w.status === "pending_approval") {
      const approved = await api.approveWithdrawal(this.call, this.ctx, w.id);
      this.log(`withdrawal ${w.id} approved, status ${approved.status}`);
    }
    const failed = await poll(`withdrawal ${w.id} to fail`, async () => {
      await sandboxAction(this.creds, "mine", { blocks: 1 });
      const now = await api.getWithdrawal(this.call, this.ctx, w.id);
      if (now.status === "completed") throw new Error(`withdrawal ${w.id} completed instead of failing`);
      return now.status === "failed" ? now : undefined;
    });
    this.log(`withdrawal ${w.id} failed (withdrawal.failed)${failed.error ? `: ${failed.error}` : ""}`);
  }

  async webhookNote(): Promise<void> {
    const hooks = await api.listWebhooks(this.call, this.ctx).catch(() => undefined);
    if (hooks !== undefined && hooks.length === 0) {
      this.log("no webhook endpoint is registered, so no event is delivered; register one with");
      this.log(
        `  custody request createWebhook --body '{"url":"http://127.0.0.1:4000/hooks","event_types":["deposit.pending","deposit.confirmed","withdrawal.failed","wallet.created"]}'`,
      );
    }
  }
}

export async function trigger(
  event: string,
  args: Omit<TriggerArgs, "event" | "help" | "values" | "chain"> & { chain?: Chain },
  creds: ApiTarget,
  log: (line: string) => void,
): Promise<void> {
  const t = new Trigger(creds, log, args.chain);
  switch (event) {
    case "block":
      await t.mine(args.blocks ?? 1);
      return;
    case "wallet.created":
      await t.createWallet();
      break;
    case "deposit":
    case "deposit.pending":
      await t.deposit(await t.wallet(args.wallet), args.amount ?? "1");
      break;
    case "deposit.confirmed":
      await t.confirmedDeposit(await t.wallet(args.wallet), args.amount ?? "1");
      break;
    case "withdrawal.failed":
      await t.failedWithdrawal(await t.wallet(args.wallet), args.amount ?? "0.01");
      break;
  }
  await t.webhookNote();
}

export async function run(argv: string[]): Promise<number> {
  const args = parseTriggerArgs(argv);
  if (args.help) {
    console.log(TRIGGER_USAGE);
    return 0;
  }
  if (args.event === undefined) throw new UsageError(`name an event\n\n${TRIGGER_USAGE}`);
  if (!EVENTS.includes(args.event)) throw new UsageError(`unknown event '${args.event}'; events: ${EVENTS.join(", ")}`);
  if (args.chain === "sol" && args.event === "withdrawal.failed")
    throw new UsageError("withdrawal.failed is evm only: a SOL transfer to a valid address does not fail on chain");
  const creds = callTarget(args.values as Record<string, string | undefined>, TRIGGER_OPTIONS, process.env);
  try {
    await trigger(args.event, args, creds, (line) => console.log(line));
  } catch (error) {
    if (error instanceof CallFailed && error.status === 404 && /sandbox/.test(error.message)) {
      throw new Error(
        `${creds.baseUrl} has no sandbox actions: custody trigger works against \`custody sandbox\` only`,
      );
    }
    throw error;
  }
  return 0;
}
