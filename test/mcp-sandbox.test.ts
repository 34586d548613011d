// custody mcp against one reference sandbox, through the official SDK's Client: which tools each mode
// lists and their hints, a read answer checked against its output schema, a withdrawal that a
// person must confirm and that is never made twice, secrets absent everywhere, and one stdio run of
// the real command.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { type CallToolResult, ElicitRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SandboxHandle, startSandboxWorker } from "../cli/certify-sandbox.ts";
import { operationCaller } from "../cli/signed-call.ts";
import { trigger } from "../cli/trigger.ts";
import { CustodialWalletServiceClient } from "../generated/client.ts";
import { loadToolTable } from "../generator/mcp/load.ts";
import {
  argumentDigest,
  clientInvoke,
  createMcpServer,
  fileAuditSink,
  redactor,
  type ToolOperation,
  type ToolPolicy,
} from "../runtime/mcp/index.ts";
import * as api from "../web/console/adapter.js";

let sandbox: SandboxHandle;
let table: ToolOperation[];
let sdk: CustodialWalletServiceClient;
const dir = mkdtempSync(join(tmpdir(), "custody-mcp-"));
const auditFile = join(dir, "audit.jsonl");
const seen: string[] = [];
let elicitAnswer: "accept" | "decline" | "cancel" = "accept";

beforeAll(async () => {
  [sandbox, { table }] = await Promise.all([startSandboxWorker(), loadToolTable("spec/openapi.yaml")]);
  sdk = new CustodialWalletServiceClient({
    baseUrl: sandbox.base_url,
    apiKey: sandbox.api_key,
    apiSecret: sandbox.api_secret,
    logLevel: "off",
  });
});
afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function connect(
  policy: ToolPolicy,
  options: { elicitation?: boolean; dynamic?: boolean } = {},
): Promise<Client> {
  const redact = redactor([sandbox.api_key, sandbox.api_secret]);
  const server = createMcpServer({
    name: "custody-mcp-test",
    version: "0",
    table,
    policy,
    dynamic: options.dynamic,
    invoke: clientInvoke(sdk),
    redact,
    audit: fileAuditSink(auditFile, redact, (m) => seen.push(m)),
    defaults: { workspace_id: sandbox.workspace_id! },
  });
  const client = new Client(
    { name: "test", version: "0" },
    { capabilities: options.elicitation === false ? {} : { elicitation: {} } },
  );
  if (options.elicitation !== false) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      seen.push(request.params.message);
      return elicitAnswer === "accept" ? { action: "accept", content: { confirm: true } } : { action: elicitAnswer };
    });
  }
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(a), client.connect(b)]);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  seen.push(JSON.stringify(result));
  return result;
}

const names = (tools: Tool[]) => tools.map((t) => t.name);
const effectOf = (name: string) => table.find((op) => op.tool === name)!.effect;

describe("custody mcp over the sandbox", () => {
  it("lists read tools only by default, adds writes and then funds when allowed, never approvals or key writes", async () => {
    const modes: Array<[ToolPolicy, string[]]> = [
      [{}, ["read"]],
      [{ allowWrites: true }, ["read", "write"]],
      [{ allowWrites: true, allowFunds: true }, ["read", "write", "funds"]],
    ];
    for (const [policy, effects] of modes) {
      const { tools } = await (await connect(policy)).listTools();
      seen.push(JSON.stringify(tools));
      expect(new Set(tools.map((t) => effectOf(t.name)))).toEqual(new Set(effects));
      for (const never of ["approveWithdrawal", "rejectWithdrawal", "createApiKey", "revokeApiKey"])
        expect(names(tools)).not.toContain(never);
      for (const tool of tools) {
        const a = tool.annotations!;
        expect(typeof tool.title === "string" && tool.title.length > 0).toBe(true);
        for (const hint of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const)
          expect(typeof a[hint]).toBe("boolean");
        expect(a.readOnlyHint).toBe(effectOf(tool.name) === "read");
        if (effectOf(tool.name) === "funds")
          expect([a.destructiveHint, a.idempotentHint, a.openWorldHint]).toEqual([true, true, true]);
        // The server fills workspace_id and the idempotency key; the model is asked for neither.
        expect(Object.keys((tool.inputSchema.properties ?? {}) as object)).not.toContain("workspace_id");
        expect(JSON.stringify(tool.inputSchema).toLowerCase()).not.toContain("idempotency");
      }
    }
  });

  it("answers a read tool with structuredContent that its outputSchema accepts, paged", async () => {
    const client = await connect({});
    const { tools } = await client.listTools();
    const ajv = new Ajv2020({ strict: false });
    for (const [name, args] of [
      ["listNetworks", { limit: 2 }],
      ["getHealth", {}],
      ["listWallets", {}],
    ] as const) {
      const result = await call(client, name, args);
      expect(result.isError, JSON.stringify(result)).toBeFalsy();
      const schema = tools.find((t) => t.name === name)!.outputSchema!;
      expect(ajv.validate(schema, result.structuredContent), JSON.stringify(ajv.errors)).toBe(true);
    }
    const page = (await call(client, "listNetworks", { limit: 2 })).structuredContent as {
      page: { more: boolean; next_offset: number };
    };
    expect(page.page).toMatchObject({ more: true, next_offset: 2 });
  });

  it("turns an API error into a tool error naming the status and what to do", async () => {
    const result = await call(await connect({}), "getWallet", { wallet_id: "no-such-wallet" });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0].text).toMatch(/HTTP 404.*What to do: no such record/);
  });

  it("moves money only when a person confirms, and the same call again returns the same withdrawal", async () => {
    const creds = {
      baseUrl: sandbox.base_url,
      admin: { apiKey: sandbox.api_key, apiSecret: sandbox.api_secret },
      workspaceId: sandbox.workspace_id,
      source: "test",
    };
    await trigger("deposit.confirmed", { amount: "2" }, creds, () => undefined);
    // The wallet and asset trigger funded: its rule (the newest ready wallet, the native EVM coin).
    const caller = operationCaller(creds);
    const wallet = (await api.listWallets(caller, { workspace_id: creds.workspaceId ?? "" })).find(
      (w: { status: string }) => w.status === "success",
    ) as { id: string };
    const asset = (await api.nativeAsset(caller, "evm")) as { id: string };
    const args = {
      wallet_id: wallet.id,
      asset_id: asset.id,
      amount: "0.25",
      recipient_address: `0x${"ab".repeat(20)}`,
    };
    const count = async () => (await sdk.listWalletWithdrawals({ params: { wallet_id: wallet.id } })).length;
    const before = await count();

    const funds = await connect({ allowWrites: true, allowFunds: true });
    for (const answer of ["decline", "cancel"] as const) {
      elicitAnswer = answer;
      const refused = await call(funds, "createWithdrawal", args);
      expect(refused.isError).toBe(true);
      expect((refused.content as { text: string }[])[0].text).toMatch(/nothing was sent/);
    }
    const mute = await connect({ allowWrites: true, allowFunds: true }, { elicitation: false });
    expect((await call(mute, "createWithdrawal", args)).isError).toBe(true);
    expect(await count()).toBe(before);

    elicitAnswer = "accept";
    const first = await call(funds, "createWithdrawal", args);
    expect(first.isError, JSON.stringify(first)).toBeFalsy();
    const made = (first.structuredContent as { data: { withdrawal: { id: string; status: string } } }).data.withdrawal;
    expect(made.status).toBe("pending_approval");
    expect((first.content as { text: string }[])[0].text).toContain(`${made.id} is pending_approval`);
    const again = await call(funds, "createWithdrawal", { ...args });
    expect(
      (again.structuredContent as typeof first.structuredContent & { data: { withdrawal: { id: string } } }).data
        .withdrawal.id,
    ).toBe(made.id);
    expect(await count()).toBe(before + 1);
    expect(
      seen.some(
        (m) =>
          m.includes("Amount: 0.25") &&
          m.includes(`Destination: ${args.recipient_address}`) &&
          m.includes(`Wallet: ${wallet.id}`),
      ),
    ).toBe(true);

    const lines = readFileSync(auditFile, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, string>);
    const withdrawals = lines.filter((l) => l.tool === "createWithdrawal");
    expect(withdrawals.map((l) => l.outcome)).toEqual(["declined", "cancelled", "no-elicitation", "ok", "ok"]);
    const keys = new Set(withdrawals.filter((l) => l.outcome === "ok").map((l) => l.idempotency_key));
    expect(keys.size).toBe(1);
    expect(withdrawals.at(-1)).toMatchObject({ effect: "funds", status: 201 });
    expect(withdrawals.at(-1)!.request_id).toBeTruthy();
  });

  it("offers three dynamic tools under the same rules", async () => {
    const auditLines = () => (existsSync(auditFile) ? readFileSync(auditFile, "utf8").split("\n").filter(Boolean) : []);
    const earlier = auditLines().length;
    const client = await connect({}, { dynamic: true });
    expect(names((await client.listTools()).tools)).toEqual([
      "list_operations",
      "describe_operation",
      "call_operation",
    ]);
    const listed = (await call(client, "list_operations", {})).structuredContent as { data: { effect: string }[] };
    expect(new Set(listed.data.map((o) => o.effect))).toEqual(new Set(["read"]));
    const described = (await call(client, "describe_operation", { operation: "getHealth" })).structuredContent as {
      data: { name: string };
    };
    expect(described.data.name).toBe("getHealth");
    expect((await call(client, "describe_operation", { operation: "createWithdrawal" })).isError).toBe(true);
    expect((await call(client, "call_operation", { operation: "createWithdrawal", arguments: {} })).isError).toBe(true);
    expect((await call(client, "call_operation", { operation: "getHealth" })).isError).toBeFalsy();
    // Every one of those calls is one audit line, in the format of the operations' own.
    const lines = auditLines()
      .slice(earlier)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map(({ time, duration_ms, ...rest }) => [typeof time, typeof duration_ms, rest])).toEqual([
      ["string", "number", { tool: "list_operations", effect: "read", args_sha256: argumentDigest({}), outcome: "ok" }],
      [
        "string",
        "number",
        {
          tool: "describe_operation",
          operation: "getHealth",
          effect: "read",
          args_sha256: argumentDigest({ operation: "getHealth" }),
          outcome: "ok",
        },
      ],
      [
        "string",
        "number",
        {
          tool: "describe_operation",
          effect: "read",
          args_sha256: argumentDigest({ operation: "createWithdrawal" }),
          outcome: "refused",
        },
      ],
      [
        "string",
        "number",
        {
          tool: "call_operation",
          args_sha256: argumentDigest({ operation: "createWithdrawal", arguments: {} }),
          outcome: "refused",
        },
      ],
      [
        "string",
        "number",
        expect.objectContaining({
          tool: "getHealth",
          operation: "getHealth",
          effect: "read",
          outcome: "ok",
          status: 200,
        }),
      ],
    ]);
  });

  it("serves the real command over stdio (tools/list and a call)", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["bin/custody.js", "mcp", "--audit-log", auditFile],
      env: {
        ...(process.env as Record<string, string>),
        CUSTODY_BASE_URL: sandbox.base_url,
        CUSTODY_API_KEY: sandbox.api_key,
        CUSTODY_API_SECRET: sandbox.api_secret,
        CUSTODY_WORKSPACE_ID: sandbox.workspace_id!,
      },
      stderr: "pipe",
    });
    const client = new Client({ name: "stdio-test", version: "0" });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
    const result = await call(client, "listWallets", {});
    expect(result.isError).toBeFalsy();
    await client.close();
  });

  it("never shows the API key or secret in a schema, an answer or an audit line", () => {
    const everything = [...seen, readFileSync(auditFile, "utf8")].join("\n");
    expect(everything).not.toContain(sandbox.api_secret);
    expect(everything).not.toContain(sandbox.api_key);
  });
});
