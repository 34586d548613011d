// Writes to the first workspace's records with another workspace's key: each refused (4xx, not
// 401) and, at --level full, nothing changed as the workspace's own key sees it. At --level seed the
// seed's writes: operation 6 (requeue its delivery) and 7 (delete its webhook). At --level full every
// write whose path names the workspace's records. Bodies are valid requests, so only tenancy can
// stop them. Where a wrongly served request would remove or move something, it is aimed at a record
// made for the purpose when the run creates records: a webhook of the run, a pending withdrawal to a
// burn address, an API key; all marked and removed at the end.
import { randomInt, randomUUID } from "node:crypto";
import { Prng } from "../../fuzz/prng.ts";
import { inputSchema } from "../../fuzz/schema.ts";
import { validValue } from "../../fuzz/values.ts";
import { firstString } from "../../provision/util.ts";
import { registerWebhook } from "../../provision/webhook.ts";
import type { Credentials } from "../../run/config.ts";
import type { CallArgs, CheckContext, Suite } from "../../run/context.ts";
import { findOperation, isRead, type OperationInfo } from "../../run/operations.ts";
import type { HttpExchange } from "../../transport/probe.ts";
import type { Check } from "../check.ts";
import { readList } from "../list-reader.ts";
import { skip } from "../outcome.ts";
import { operationsInScope } from "../request-plans.ts";
import { addressable, type Records, recordsOf, requestFor } from "./records.ts";
import { fromExchange, refusalProblem, verdict, type WrongCell } from "./verdict.ts";

const BURN = "0x000000000000000000000000000000000000dEaD";

interface WriteCell {
  op: OperationInfo;
  args: CallArgs;
  /** After a refusal: what the workspace's own key sees changed, or undefined when nothing did. */
  changed?: () => Promise<string | undefined>;
  /** A wrongly served request created a record: remove it when the run ends. */
  created?: (ex: HttpExchange) => void;
}

export const writesRefused: Check = {
  id: "isolation.writes-refused",
  // At --level seed the writes are operations 6 and 7: they need the given delivery or webhook.
  skipsWithout: [["webhook", "delivery"]],
  statements: ["s1.mpc-wallets-in-workspace", "s1.webhooks-registered", "s5.access-api-key"],
  group: "isolation",
  title:
    "Another workspace's key changes none of this workspace's records: each write to them is refused (4xx, not 401) and changes nothing",
  severity: "MUST",
  seedRef:
    "§1 (wallets, withdrawals, webhooks and deliveries are a workspace's); §4 operations 6-7; §5 (the API key identifies who calls); OWASP API1:2023",
  level: "seed",
  requires: ["other-tenant", "workspace"],
  awaits: ["wallet", "asset", "webhook", "delivery", "deposit"],
  timeoutScale: 4,
  sends:
    "the writes to this workspace's records with the other workspace's key (seed level: operations 6 and 7; full level: every write, aimed at records made for the purpose), then reads with this workspace's key to see nothing changed",
  async run(ctx) {
    const other = await ctx.need("other-tenant");
    const records = await recordsOf(ctx);
    const undo: Array<() => Promise<unknown>> = [];
    try {
      const made = ctx.suite.supply === "create" ? await targets(ctx, undo) : {};
      const cells = writeCells({ ctx, r: { ...records, ...made.records }, made });
      if (cells.length === 0)
        skip(
          "no write to the workspace's records could be addressed: pass --webhook-id and --delivery-id (or --level full)",
          "--webhook-id and --delivery-id",
        );
      const wrong: WrongCell[] = [];
      for (const cell of cells) {
        const sent = await ctx.sendJudged(cell.op.operationId, cell.args, other.credentials);
        if (!sent) continue;
        const { ex } = sent;
        const problem = refusalProblem(ex);
        if (problem) {
          if (ex.response.status < 300) cell.created?.(ex);
          wrong.push(fromExchange(ex, `${cell.op.operationId} ${problem}`));
          continue;
        }
        const changed = await cell.changed?.();
        if (changed)
          wrong.push(
            fromExchange(ex, `${cell.op.operationId} was refused with HTTP ${ex.response.status}, yet ${changed}`),
          );
      }
      const tried = cells.filter((c) => !ctx.skippedCells.some((s) => s.cell === c.op.operationId));
      ctx.fact(
        "isolation",
        `${tried.length} writes tried with the other workspace's key: ${tried.map((c) => c.op.operationId).join(", ")}`,
      );
      if (tried.length === 0) skip(`no write could be judged: ${ctx.notJudged()}`);
      verdict("writes to this workspace's records with another workspace's key", wrong, tried.length);
    } finally {
      for (const step of undo.reverse()) await step().catch(() => undefined);
    }
  },
};

/** Records made for the writes to aim at, and what is known about them. */
interface Targets {
  records?: Records;
  /** The API key made to be aimed at, with its secret (to see that it still authenticates). */
  key?: { id: string; credentials: Credentials };
  /** A withdrawal of the funded wallet waiting for approval, when the deployment makes one, and its status then. */
  pendingWithdrawal?: { id: string; status: unknown };
  /** True when the wallet holds confirmed funds (a refusal of createWithdrawal is then about tenancy, not balance). */
  funded?: boolean;
}

/**
 * Records made for the writes to aim at, when the run creates records: a webhook of the run's and,
 * at --level full, an API key and a pending withdrawal. `undo` removes them when the check ends; the
 * run's clean-up and its marker are the net beneath.
 */
async function targets(ctx: CheckContext, undo: Array<() => Promise<unknown>>): Promise<Targets> {
  const records: Records = {};
  const workspaceId = await ctx.need("workspace");
  const webhook = await registerWebhook(ctx.suite, "isolation", ctx.signal);
  records.webhook_id = webhook.id;
  undo.push(() => ctx.call("deleteWebhook", { params: { workspace_id: workspaceId, webhook_id: webhook.id } }));
  if (ctx.level !== "full") return { records };
  const key = await createTargetKey(ctx, workspaceId);
  if (key) {
    records.key_id = key.id;
    undo.push(() => ctx.call("revokeApiKey", { params: { workspace_id: workspaceId, key_id: key.id } }));
  }
  const deposit = await ctx.settle("deposit");
  const funded = deposit.ok && deposit.value.reflected !== undefined;
  const pendingWithdrawal = funded ? await createPendingWithdrawal(ctx) : undefined;
  if (pendingWithdrawal) {
    records.withdrawal_id = pendingWithdrawal.id;
    undo.push(() =>
      ctx.call("rejectWithdrawal", {
        params: { withdrawal_id: pendingWithdrawal.id },
        body: { reason: "custody certify isolation" },
      }),
    );
  }
  return { records, funded, ...(key ? { key } : {}), ...(pendingWithdrawal ? { pendingWithdrawal } : {}) };
}

async function createTargetKey(
  ctx: CheckContext,
  workspaceId: string,
): Promise<{ id: string; credentials: Credentials } | undefined> {
  if (!findOperation(ctx.operations, "createApiKey")) return undefined;
  const ex = await ctx.call("createApiKey", {
    params: { workspace_id: workspaceId },
    body: { name: ctx.suite.marker.name("isolation-key"), role: "viewer", scopes: ["balances:read"] },
  });
  const data = dataOf(ex);
  const secret = firstString(data, "secret", "api_secret");
  const apiKey = firstString(data, "api_key", "key_id", "id");
  ctx.redactor.addSecret(secret);
  ctx.redactor.addKeyId(apiKey);
  const id = firstString(data, "id", "key_id") ?? apiKey;
  if (ex.response.status >= 300 || !id || !secret || !apiKey) return undefined;
  ctx.suite.removeAtEnd(`API key ${id} (isolation)`, "revokeApiKey", {
    params: { workspace_id: workspaceId, key_id: id },
  });
  return { id, credentials: { apiKey, apiSecret: secret } };
}

/** A withdrawal waiting for approval, to a burn address, from the funded wallet, and its status (none when the deployment approves by itself). */
async function createPendingWithdrawal(ctx: CheckContext): Promise<{ id: string; status: unknown } | undefined> {
  const asset = await ctx.settle("asset");
  if (!asset.ok) return undefined;
  const ex = await ctx.call("createWithdrawal", {
    params: { wallet_id: asset.value.walletId },
    body: {
      asset_id: asset.value.assetId,
      amount: "0.0001",
      recipient_address: BURN,
      notes: ctx.suite.marker.description("isolation target"),
    },
    headers: { "Idempotency-Key": `certify-${randomUUID()}` },
  });
  const data = dataOf(ex);
  const w = (data?.withdrawal ?? data) as Record<string, unknown> | undefined;
  const id = firstString(w, "id", "withdrawal_id");
  if (ex.response.status >= 300 || !id) return undefined;
  ctx.suite.removeAtEnd(`withdrawal ${id} (isolation, pending)`, "rejectWithdrawal", {
    params: { withdrawal_id: id },
    body: { reason: "custody certify" },
  });
  if (data?.auto_approved === true) return undefined;
  return {
    id,
    status:
      ((await ownData(ctx, "getWithdrawal", { params: { withdrawal_id: id } })) as Record<string, unknown> | undefined)
        ?.status ?? w?.status,
  };
}

interface CellContext {
  ctx: CheckContext;
  /** The workspace's records, the targets made for this check in place of the shared ones. */
  r: Records;
  made: Targets;
}

/** The writes of the level that address the workspace's records, each with its valid request. */
function writeCells(c: CellContext): WriteCell[] {
  const cells: WriteCell[] = [];
  for (const op of operationsInScope(c.ctx)) {
    if (isRead(op) || !addressable(op, c.r)) continue;
    const special = SPECIAL[op.operationId]?.(c);
    if (special === null) continue;
    const args = requestFor(op, c.r, special?.body ?? genericBody(op, c.r));
    const headers = special?.headers ?? headersFor(op);
    if (headers) args.headers = headers;
    const cell: WriteCell = { op, args };
    if (special?.changed) cell.changed = special.changed;
    if (special?.created) cell.created = special.created;
    cells.push(cell);
  }
  return cells;
}

type Special = {
  body?: unknown;
  headers?: Record<string, string>;
  changed?: WriteCell["changed"];
  created?: WriteCell["created"];
};

/**
 * The writes whose request or aftermath the suite knows: a valid body (the one the run itself sends
 * elsewhere), what the workspace's own key checks afterwards, and the undo of a wrongly created
 * record. null leaves the operation out: its target is not the run's own to risk, or a refusal of
 * it would not be about tenancy (an empty wallet refuses any withdrawal).
 */
const SPECIAL: Record<string, (c: CellContext) => Special | null> = {
  attachAsset: ({ r }) => ({ body: { asset_id: r.asset_id } }),
  createWithdrawal: ({ ctx, r, made }) => {
    if (!made.funded) return null;
    // An amount nobody else sends, to find a withdrawal made despite a refusal.
    const amount = `0.0000${randomInt(1000, 9999)}`;
    return {
      body: { asset_id: r.asset_id, amount, recipient_address: BURN, notes: ctx.suite.marker.description("isolation") },
      headers: { "Idempotency-Key": `certify-${randomUUID()}` },
      changed: async () => {
        const list = await ownList(ctx, "listWalletWithdrawals", { params: { wallet_id: r.wallet_id! } });
        const exists =
          Array.isArray(list) && list.some((w) => Number((w as Record<string, unknown>).amount) === Number(amount));
        return exists ? `a withdrawal of ${amount} from wallet ${r.wallet_id} exists` : undefined;
      },
      created: (ex) => {
        const w = (dataOf(ex)?.withdrawal ?? dataOf(ex)) as Record<string, unknown> | undefined;
        const id = firstString(w, "id", "withdrawal_id");
        if (id)
          ctx.suite.removeAtEnd(`withdrawal ${id} (made with the other workspace's key)`, "rejectWithdrawal", {
            params: { withdrawal_id: id },
            body: { reason: "custody certify" },
          });
      },
    };
  },
  approveWithdrawal: ({ ctx, made }) =>
    made.pendingWithdrawal
      ? { body: { comment: "custody certify isolation" }, changed: statusKept(ctx, made.pendingWithdrawal) }
      : null,
  rejectWithdrawal: ({ ctx, made }) =>
    made.pendingWithdrawal
      ? { body: { reason: "custody certify isolation" }, changed: statusKept(ctx, made.pendingWithdrawal) }
      : null,
  createWebhook: ({ ctx, r }) => {
    const url = receiverUrl(ctx.suite, "isolationforeign");
    if (!url) return null;
    return {
      body: { url, event_types: ["wallet.created"], description: ctx.suite.marker.description("isolation") },
      changed: async () => {
        const list = await ownList(ctx, "listWebhooks", { params: { workspace_id: r.workspace_id! } });
        return Array.isArray(list) && list.some((w) => (w as Record<string, unknown>).url === url)
          ? `a webhook to ${url} is registered in the workspace`
          : undefined;
      },
      created: (ex) => {
        const id = firstString(dataOf(ex), "id", "webhook_id");
        if (id)
          ctx.suite.removeAtEnd(`webhook ${id} (made with the other workspace's key)`, "deleteWebhook", {
            params: { workspace_id: r.workspace_id, webhook_id: id },
          });
      },
    };
  },
  deleteWebhook: ({ ctx, r }) => ({
    changed: async () => {
      if (ctx.level !== "full") return undefined;
      const list = await ownList(ctx, "listWebhooks", { params: { workspace_id: r.workspace_id! } });
      return Array.isArray(list) &&
        !list.some((w) => firstString(w as Record<string, unknown>, "id", "webhook_id") === r.webhook_id)
        ? `webhook ${r.webhook_id} is gone`
        : undefined;
    },
  }),
  createApiKey: ({ ctx, r }) => {
    const name = ctx.suite.marker.name("isolation-foreign-key");
    return {
      body: { name, role: "viewer", scopes: ["balances:read"] },
      changed: async () => {
        const list = await ownList(ctx, "listApiKeys", { params: { workspace_id: r.workspace_id! } });
        return Array.isArray(list) && list.some((k) => (k as Record<string, unknown>).name === name)
          ? `an API key named ${name} exists in the workspace`
          : undefined;
      },
      created: (ex) => {
        const data = dataOf(ex);
        ctx.redactor.addSecret(firstString(data, "secret", "api_secret"));
        const id = firstString(data, "id", "key_id");
        if (id)
          ctx.suite.removeAtEnd(`API key ${id} (made with the other workspace's key)`, "revokeApiKey", {
            params: { workspace_id: r.workspace_id, key_id: id },
          });
      },
    };
  },
  revokeApiKey: ({ ctx, r, made }) => {
    const key = made.key;
    if (!key) return null;
    return {
      changed: async () => {
        if (!r.wallet_id) return undefined;
        const ex = await ctx.call("getWalletOverview", {
          params: { wallet_id: r.wallet_id },
          credentials: key.credentials,
        });
        return ex.response.status === 401 ? `API key ${r.key_id} no longer authenticates` : undefined;
      },
    };
  },
};

/** The withdrawal still has the status it had before the other key tried to approve or reject it. */
function statusKept(ctx: CheckContext, withdrawal: { id: string; status: unknown }): WriteCell["changed"] {
  return async () => {
    const data = (await ownData(ctx, "getWithdrawal", { params: { withdrawal_id: withdrawal.id } })) as
      | Record<string, unknown>
      | undefined;
    const status = data?.status;
    return status !== undefined && status !== withdrawal.status
      ? `withdrawal ${withdrawal.id} went from ${String(withdrawal.status)} to ${String(status)}`
      : undefined;
  };
}

/** A valid body from the operation's schema, with ids the workspace holds where its fields name them. */
function genericBody(op: OperationInfo, records: Records): unknown {
  const schema = inputSchema(op, "body");
  if (!schema) return undefined;
  const body = validValue(schema, new Prng("isolation", op.operationId));
  if (!body || typeof body !== "object" || Array.isArray(body)) return body;
  const out = { ...(body as Record<string, unknown>) };
  for (const name of Object.keys(out)) {
    const known = records[name as keyof Records];
    if (known !== undefined) out[name] = known;
  }
  return out;
}

function headersFor(op: OperationInfo): Record<string, string> | undefined {
  const schema = inputSchema(op, "headers");
  if (!schema) return undefined;
  const value = validValue(schema, new Prng("isolation", `${op.operationId}/headers`));
  if (!value || typeof value !== "object") return undefined;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]),
  );
}

function receiverUrl(suite: Suite, channel: string): string | undefined {
  return suite.fixtures.peek("receiver")?.url(channel);
}

/** The data of the workspace's own read, or undefined when it did not succeed. */
/** The whole list as this workspace's own key reads it (page by page when it pages), or undefined when it cannot be read. */
async function ownList(ctx: CheckContext, operationId: string, args: CallArgs): Promise<unknown[] | undefined> {
  if (!findOperation(ctx.operations, operationId)) return undefined;
  try {
    return (await readList(ctx, operationId, args)).items;
  } catch {
    return undefined;
  }
}

async function ownData(ctx: CheckContext, operationId: string, args: CallArgs): Promise<unknown> {
  if (!findOperation(ctx.operations, operationId)) return undefined;
  const ex = await ctx.call(operationId, args);
  return ex.response.status >= 200 && ex.response.status < 300 ? dataOf(ex) : undefined;
}

function dataOf(ex: HttpExchange): Record<string, unknown> | undefined {
  try {
    const data = (JSON.parse(ex.response.text) as { data?: unknown }).data;
    return data && typeof data === "object" ? (data as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
