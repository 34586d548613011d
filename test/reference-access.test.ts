// Who may do what, bad input, and idempotent withdrawals, over HTTP with the generated client:
// Viewer and scope refusals (403), other workspaces (404), revoked keys (401), the 400 envelope for bad
// input, and an Idempotency-Key that — sent twice or by racing requests — creates one withdrawal and
// one on-chain transaction.
import { type Hex, parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CustodialWalletServiceClient } from "../generated/client.ts";
import { SANDBOX_ETH_ASSET_ID } from "../reference/domain/catalog.ts";
import { type Sandbox, startSandbox } from "../reference/sandbox.ts";
import { ApiError } from "../runtime/errors.ts";
import { signRequest } from "../runtime/http/hmac.ts";
import { chainClients, waitFor } from "./reference-helpers.ts";

const ETH = SANDBOX_ETH_ASSET_ID;
const RECIPIENT = "0x000000000000000000000000000000000000dEaD";

let sandbox: Sandbox;
let owner: CustodialWalletServiceClient;
let viewer: CustodialWalletServiceClient;
let scoped: CustodialWalletServiceClient;
let ws: string;
let walletId: string;
let address: Hex;

function clientFor(apiKey: string, apiSecret: string, retry: false | undefined = undefined) {
  return new CustodialWalletServiceClient({
    baseUrl: sandbox.base_url,
    apiKey,
    apiSecret,
    ...(retry === false ? { retry } : {}),
  });
}

/** Calls started together: each gets a handler at once, so one refused before its turn is not an unhandled rejection. */
function started<T extends Promise<unknown>>(calls: T[]): T[] {
  for (const call of calls) call.catch(() => undefined);
  return calls;
}

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

/** A raw signed request, for bodies the typed client cannot send. */
async function raw(method: string, path: string, body: string, headers: Record<string, string> = {}) {
  const signed = signRequest({ apiKey: sandbox.api_key, apiSecret: sandbox.api_secret, method, path, body });
  const res = await fetch(sandbox.base_url + path, {
    method,
    body,
    headers: { "content-type": "application/json", ...signed, ...headers },
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  sandbox = await startSandbox({ env: {}, blockTimeSeconds: 0.25, walletCreationDelayMs: 20 });
  ws = sandbox.workspace_id;
  owner = clientFor(sandbox.api_key, sandbox.api_secret);
  viewer = clientFor(sandbox.viewer_api_key, sandbox.viewer_api_secret);
  scoped = clientFor(sandbox.scoped_api_key, sandbox.scoped_api_secret);
  const created = await owner.createWallet({ body: { name: "guarded" } });
  walletId = created.wallet_id as string;
  await waitFor(
    "wallet",
    async () => (await owner.getWalletCreationStatus({ params: { wallet_id: walletId } })).status === "success",
  );
  address = (await owner.attachAsset({ params: { wallet_id: walletId }, body: { asset_id: ETH } })).address as Hex;
});
afterAll(async () => {
  await sandbox?.close();
});

describe("roles and scopes", () => {
  it("lets a Viewer read but not move funds or change settings", async () => {
    expect((await viewer.listWallets({ params: { workspace_id: ws } })).map((w) => w.id)).toContain(walletId);
    expect((await viewer.getWalletOverview({ params: { wallet_id: walletId } })).map((b) => b.symbol)).toEqual([
      "ETH",
      "SOL",
    ]);
    await viewer.listAuditLogs({ params: { workspace_id: ws } });
    for (const attempt of started([
      viewer.createWallet({ body: { name: "nope" } }),
      viewer.createWithdrawal({
        params: { wallet_id: walletId },
        headers: { "idempotency-key": "viewer-1" },
        body: { asset_id: ETH, amount: "0.1", recipient_address: RECIPIENT },
      }),
      viewer.createWebhook({
        params: { workspace_id: ws },
        body: { url: "http://127.0.0.1:9/x", event_types: ["wallet.created"] },
      }),
      viewer.listApiKeys({ params: { workspace_id: ws } }),
    ])) {
      const e = await refusal(attempt);
      expect(e.status).toBe(403);
      expect(e.code).toBe(403);
      expect(e.body).toMatchObject({ success: false, code: 403, data: null });
    }
  });

  it("limits the balances-only key to balance reads", async () => {
    expect(await scoped.getWalletAssetBalance({ params: { wallet_id: walletId, asset_id: ETH } })).toMatchObject({
      asset_id: ETH,
    });
    for (const attempt of started([
      scoped.getWallet({ params: { wallet_id: walletId } }),
      scoped.listWallets({ params: { workspace_id: ws } }),
      scoped.listTransactions({ params: { workspace_id: ws } }),
    ])) {
      expect((await refusal(attempt)).status).toBe(403);
    }
  });

  it("hides other workspaces and their resources behind 404", async () => {
    expect((await refusal(owner.listWebhooks({ params: { workspace_id: "ws_someone_else" } }))).status).toBe(404);
    expect((await refusal(owner.getWalletOverview({ params: { wallet_id: "wal_someone_else" } }))).status).toBe(404);
    expect((await refusal(owner.getWithdrawal({ params: { withdrawal_id: "wdr_unknown" } }))).status).toBe(404);
    expect(
      (await refusal(owner.getWalletAssetBalance({ params: { wallet_id: walletId, asset_id: "ast_not_attached" } })))
        .status,
    ).toBe(404);
  });

  it("creates keys with at most the creator's role, and a revoked key stops working", async () => {
    const admin = await owner.createApiKey({
      params: { workspace_id: ws },
      body: { name: "ops", role: "admin", scopes: ["*"] },
    });
    expect(admin.secret.length).toBeGreaterThan(20);
    const adminClient = clientFor(admin.id, admin.secret);
    expect((await adminClient.createWallet({ body: { name: "by admin" } })).status).toBe("pending");
    expect(
      (
        await refusal(
          adminClient.createApiKey({
            params: { workspace_id: ws },
            body: { name: "x", role: "viewer", scopes: ["*"] },
          }),
        )
      ).status,
    ).toBe(403);
    const listed = await owner.listApiKeys({ params: { workspace_id: ws } });
    expect(listed.find((k) => k.id === admin.id)).toMatchObject({ role: "admin", status: "active" });
    expect(JSON.stringify(listed)).not.toContain(admin.secret);

    const revoked = await owner.revokeApiKey({ params: { workspace_id: ws, key_id: admin.id } });
    expect(revoked.status).toBe("revoked");
    const e = await refusal(clientFor(admin.id, admin.secret, false).listWallets({ params: { workspace_id: ws } }));
    expect(e.status).toBe(401);
    expect(e.body).toEqual({ success: false, message: "invalid api signature", code: "unauthorized", data: null });
  });
});

describe("bad input", () => {
  it("answers the 400 envelope naming the field", async () => {
    const e = await refusal(owner.createWallet({ body: { name: "" } }));
    expect(e.status).toBe(400);
    expect(e.body).toMatchObject({ success: false, code: 400, data: null });
    expect(e.message).toContain("name");

    const bad = await raw("POST", "/api/v1/wallets", "{not json");
    expect(bad).toMatchObject({ status: 400, body: { success: false, code: 400, data: null } });
    // Unknown members are ignored (x-custody-limits.unknown-body-fields); a listed member of the wrong type is not.
    const unknownField = await raw("POST", "/api/v1/wallets", JSON.stringify({ name: "x", color: "red" }));
    expect(unknownField.status).toBe(202);
    const wrongPurpose = await raw("POST", "/api/v1/wallets", JSON.stringify({ name: "x", wallet_purpose: "lottery" }));
    expect(wrongPurpose.status).toBe(400);

    const amount = await raw(
      "POST",
      `/api/v1/wallets/${walletId}/request-withdrawal`,
      JSON.stringify({ asset_id: ETH, amount: "1e18", recipient_address: RECIPIENT }),
      { "idempotency-key": "bad-1" },
    );
    expect(amount.status).toBe(400);
    const noAsset = await raw(
      "POST",
      `/api/v1/wallets/${walletId}/request-withdrawal`,
      JSON.stringify({ amount: "0.1", recipient_address: RECIPIENT }),
    );
    expect(noAsset.status).toBe(400);
    const tooPrecise = await refusal(
      owner.createWithdrawal({
        params: { wallet_id: walletId },
        headers: { "idempotency-key": "bad-2" },
        body: { asset_id: ETH, amount: "0.0000000000000000001", recipient_address: RECIPIENT },
      }),
    );
    expect(tooPrecise.status).toBe(400);
  });
});

describe("idempotent withdrawals", () => {
  beforeAll(async () => {
    const { wallet } = chainClients(
      sandbox.rpc_url,
      sandbox.rpc_api_key,
      (await owner.listNetworks())[0].chain_id as number,
      sandbox.faucet_private_key,
    );
    await wallet.sendTransaction({ to: address, value: parseEther("3") });
    await waitFor(
      "confirmed funds",
      async () =>
        (await owner.getWalletAssetBalance({ params: { wallet_id: walletId, asset_id: ETH } })).balance === "3",
    );
  });

  it("refuses more than the available balance with 409", async () => {
    const e = await refusal(
      owner.createWithdrawal({
        params: { wallet_id: walletId },
        headers: { "idempotency-key": "too-much" },
        body: { asset_id: ETH, amount: "3", recipient_address: RECIPIENT },
      }),
    );
    expect(e.status).toBe(409);
    expect(e.message).toContain("insufficient available balance");
  });

  it("creates one withdrawal and one on-chain transaction for a key sent twice and raced", async () => {
    const body = { asset_id: ETH, amount: "0.3", recipient_address: RECIPIENT };
    const send = async () =>
      (
        await owner.createWithdrawal({
          params: { wallet_id: walletId },
          headers: { "idempotency-key": "race-1" },
          body,
        })
      ).withdrawal;
    const first = await send();
    const second = await send();
    const raced = await Promise.all(Array.from({ length: 8 }, send));
    const ids = new Set([first, second, ...raced].map((w) => w.id));
    expect(ids.size).toBe(1);
    expect(await owner.listWalletWithdrawals({ params: { wallet_id: walletId } })).toHaveLength(1);

    // Racing requests with a new key, none sent before: still one.
    const fresh = await Promise.all(
      Array.from(
        { length: 8 },
        async () =>
          (
            await owner.createWithdrawal({
              params: { wallet_id: walletId },
              headers: { "idempotency-key": "race-2" },
              body,
            })
          ).withdrawal,
      ),
    );
    expect(new Set(fresh.map((w) => w.id)).size).toBe(1);
    expect(await owner.listWalletWithdrawals({ params: { wallet_id: walletId } })).toHaveLength(2);

    const conflict = await refusal(
      owner.createWithdrawal({
        params: { wallet_id: walletId },
        headers: { "idempotency-key": "race-1" },
        body: { ...body, amount: "0.31" },
      }),
    );
    expect(conflict.status).toBe(409);

    await owner.approveWithdrawal({ params: { withdrawal_id: first.id as string }, body: {} });
    const done = await waitFor("completed", async () => {
      const w = await owner.getWithdrawal({ params: { withdrawal_id: first.id as string } });
      return w.status === "completed" && w;
    });
    // Replaying the key after completion returns the completed withdrawal and sends nothing.
    const replay = await send();
    expect(replay).toMatchObject({ id: first.id, status: "completed", tx_hash: done.tx_hash });
    const { public: pub } = chainClients(
      sandbox.rpc_url,
      sandbox.rpc_api_key,
      (await owner.listNetworks())[0].chain_id as number,
      sandbox.faucet_private_key,
    );
    expect(await pub.getTransactionCount({ address })).toBe(1);
    expect(await pub.getBalance({ address: RECIPIENT })).toBe(parseEther("0.3"));
  });
});
