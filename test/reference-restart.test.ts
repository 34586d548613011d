// A sandbox restarted on the same --data directory keeps its credentials, its records and its webhook
// deliveries: one left pending by the first run is delivered by the second, with the same event id.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CustodialWalletServiceClient } from "../generated/client.ts";
import { type Sandbox, startSandbox } from "../reference/sandbox.ts";
import { chainClients, startReceiver, waitFor } from "./reference-helpers.ts";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe("restart with --data", () => {
  it("keeps state and credentials and delivers pending deliveries", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "custody-sandbox-data-"));
    dirs.push(dataDir);
    const receiver = await startReceiver(500);
    const options = {
      env: {},
      dataDir,
      blockTimeSeconds: 0.5,
      walletCreationDelayMs: 20,
      webhookRetry: { initialDelayMs: 100, maxDelayMs: 200 },
    };
    let first: Sandbox | undefined;
    let second: Sandbox | undefined;
    try {
      first = await startSandbox(options);
      const c1 = new CustodialWalletServiceClient({
        baseUrl: first.base_url,
        apiKey: first.api_key,
        apiSecret: first.api_secret,
      });
      const ws = first.workspace_id;
      const webhook = await c1.createWebhook({
        params: { workspace_id: ws },
        body: { url: receiver.url, event_types: ["wallet.created"] },
      });
      const extraKey = await c1.createApiKey({
        params: { workspace_id: ws },
        body: { name: "kept", role: "viewer", scopes: ["wallets:read"] },
      });
      const created = await c1.createWallet({ body: { name: "survivor" } });
      const walletId = created.wallet_id as string;
      const pending = await waitFor("a failed attempt", async () => {
        const [d] = await c1.listWebhookDeliveries({ params: { workspace_id: ws }, query: { webhook_id: webhook.id } });
        return d !== undefined && (d.attempt_count ?? 0) >= 1 && d;
      });
      expect(pending.status).toBe("pending");
      const credentials = { ...first, app: undefined, close: undefined };
      await first.close();
      first = undefined;

      receiver.status = 200;
      second = await startSandbox(options);
      for (const k of [
        "workspace_id",
        "api_key",
        "api_secret",
        "viewer_api_key",
        "viewer_api_secret",
        "scoped_api_key",
        "scoped_api_secret",
        "rpc_api_key",
        "faucet_private_key",
      ] as const) {
        expect(second[k]).toBe(credentials[k]);
      }
      const c2 = new CustodialWalletServiceClient({
        baseUrl: second.base_url,
        apiKey: second.api_key,
        apiSecret: second.api_secret,
      });
      expect(await c2.getWalletCreationStatus({ params: { wallet_id: walletId } })).toMatchObject({
        status: "success",
        name: "survivor",
      });
      // A key created in the first run still authenticates.
      const kept = new CustodialWalletServiceClient({
        baseUrl: second.base_url,
        apiKey: extraKey.id,
        apiSecret: extraKey.secret,
      });
      expect((await kept.listWallets({ params: { workspace_id: ws } })).map((w) => w.id)).toContain(walletId);

      const delivered = await waitFor("delivery after restart", async () => {
        const d = (
          await c2.listWebhookDeliveries({ params: { workspace_id: ws }, query: { webhook_id: webhook.id } })
        ).find((x) => x.id === pending.id);
        return d?.status === "delivered" && d;
      });
      expect(delivered.event_id).toBe(pending.event_id);
      expect(delivered.attempt_count ?? 0).toBeGreaterThan(pending.attempt_count ?? 0);
      const ok = receiver.received.filter((r) => r.answeredWith === 200);
      expect(ok.map((r) => r.headers["x-webhook-event-id"])).toEqual([pending.event_id]);
      expect((await c2.listAuditLogs({ params: { workspace_id: ws } })).map((e) => e.action)).toEqual(
        expect.arrayContaining(["createWebhook", "createApiKey", "createWallet"]),
      );
    } finally {
      await first?.close();
      await second?.close();
      await receiver.close();
    }
  });

  it("keeps the embedded chain: a transaction mined before the restart is found after it", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "custody-sandbox-chain-"));
    dirs.push(dataDir);
    const options = { env: {}, dataDir, blockTimeSeconds: 0.25 };
    let sandbox: Sandbox | undefined = await startSandbox(options);
    try {
      const chainId = Number(
        await (
          await fetch(`${sandbox.rpc_url}/rpc?api_key=${sandbox.rpc_api_key}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" }),
          })
        )
          .json()
          .then((r: any) => r.result),
      );
      const before = chainClients(sandbox.rpc_url, sandbox.rpc_api_key, chainId, sandbox.faucet_private_key);
      const hash = await before.wallet.sendTransaction({
        to: "0x000000000000000000000000000000000000dEaD",
        value: 12345n,
      });
      const receipt = await before.public.waitForTransactionReceipt({ hash, pollingInterval: 100 });
      await sandbox.close();
      sandbox = await startSandbox(options);
      const after = chainClients(sandbox.rpc_url, sandbox.rpc_api_key, chainId, sandbox.faucet_private_key);
      const again = await after.public.getTransactionReceipt({ hash });
      expect(again.blockHash).toBe(receipt.blockHash);
      expect(await after.public.getBalance({ address: "0x000000000000000000000000000000000000dEaD" })).toBe(12345n);
      expect(await after.public.getBlockNumber()).toBeGreaterThanOrEqual(receipt.blockNumber);
    } finally {
      await sandbox?.close();
    }
  });
});
