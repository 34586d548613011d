// The sandbox as the real service's public TypeScript SDK sees it (github fystack/platform-sdk 0.1.15).
// Every request below is the one the SDK sends, written from its source as facts (no SDK code):
// - src/api.ts composeAPIHeaders: ACCESS-API-KEY, ACCESS-TIMESTAMP (seconds), ACCESS-SIGN =
//   base64(hex(HMAC-SHA256(secret, "method=M&path=P&timestamp=T&body=B"))), P the URL pathname (no query),
//   B = JSON.stringify(body) or "" when the body object has no keys; extra headers spread in (idempotencyKey);
// - src/api.ts get/post: GET without Content-Type, POST with Content-Type application/json and the same
//   JSON.stringify(body); a non-2xx answer or success false is an error;
// - src/config.ts: the paths; src/api.ts transform*: the body member names; src/sdk.ts validateUUID:
//   wallet, workspace and asset ids must be UUID v4;
// - src/types.ts: the answer fields asserted below (the non-optional members of each type);
// - src/utils.ts verifyEd25519 / computeHMACForWebhook: how a receiver verifies a delivery.
import { createHmac, createPublicKey, verify as edVerify } from "node:crypto";
import { type Hex, parseEther, verifyMessage, verifyTypedData } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../reference/sandbox.ts";
import { chainClients, type Receiver, startReceiver, waitFor } from "./reference-helpers.ts";
import { sdkPoll, sdkRequest } from "./support/sdk-requests.ts";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

let sandbox: Sandbox;
let receiver: Receiver;
let chain: ReturnType<typeof chainClients>;

/** One call exactly as the SDK makes it (test/support/sdk-requests.ts), against this file's sandbox. */
const sdkCall = (
  method: "GET" | "POST",
  pathAndQuery: string,
  body?: Record<string, unknown>,
  extraHeaders?: Record<string, string>,
) => sdkRequest(sandbox, method, pathAndQuery, body, extraHeaders);
const poll = sdkPoll;

function expectFields(what: string, value: Record<string, unknown>, fields: string[]): void {
  expect(value, what).toBeTypeOf("object");
  expect(
    fields.filter((f) => !(f in value)),
    `${what} lacks`,
  ).toEqual([]);
}

/** canonicalizeJSON of src/utils.ts, from its description: keys sorted at every depth, then JSON.stringify. */
function canonical(value: unknown): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sort)
      : v && typeof v === "object"
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
          )
        : v;
  return JSON.stringify(sort(value));
}

/** verifyEd25519 of src/utils.ts, from its description: hex key in an SPKI DER, hex signature, canonical JSON. */
function sdkVerifyEd25519(publicKeyHex: string, event: unknown, signatureHex: string): boolean {
  const key = createPublicKey({
    key: Buffer.concat([Buffer.from("302a300506032b6570032100", "hex"), Buffer.from(publicKeyHex, "hex")]),
    format: "der",
    type: "spki",
  });
  return edVerify(null, Buffer.from(canonical(event)), key, Buffer.from(signatureHex, "hex"));
}

beforeAll(async () => {
  sandbox = await startSandbox({
    env: {},
    seed: "sdk-fidelity",
    blockTimeSeconds: 0.3,
    walletCreationDelayMs: 100,
    webhookRetry: { initialDelayMs: 50, maxDelayMs: 200 },
  });
  receiver = await startReceiver(200);
  const [network] = await sdkCall("GET", "/networks");
  chain = chainClients(sandbox.rpc_url, sandbox.rpc_api_key, network.chain_id, sandbox.faucet_private_key);
  // Registering a webhook is not an SDK call (the real service does it in its console).
  await sdkCall("POST", `/workspaces/${sandbox.workspace_id}/webhooks`, {
    url: receiver.url,
    event_types: ["wallet.created", "deposit.pending", "deposit.confirmed", "withdrawal.pending"],
  });
});

afterAll(async () => {
  await sandbox?.close();
  await receiver?.close();
});

describe("the real service's SDK against the sandbox", () => {
  let walletId: string;
  let address: Hex;
  let assetId: string;

  it("createWallet (README example with wallet_purpose and sweep members) and its creation-status polling", async () => {
    // src/api.ts transformCreateWalletPayload: name, wallet_type, then wallet_purpose, sweep_task_params, sweep_task_id.
    const created = await sdkCall("POST", "/wallets", {
      name: "SDK wallet",
      wallet_type: "standard",
      wallet_purpose: "user",
      sweep_task_params: {
        min_trigger_value_usd: 10,
        destination_wallet_id: "8f0b1f7e-9a3c-4d2b-a1e5-6c7d8e9f0a1b",
        destination_type: "internal_wallet",
      },
      sweep_task_id: "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
    });
    expectFields("CreateWalletResponse", created, ["wallet_id", "status"]);
    expect(created.wallet_id).toMatch(UUID_V4);
    expect(created.status).toBe("pending");
    walletId = created.wallet_id;
    const status = await poll(
      () => sdkCall("GET", `/wallets/creation-status/${walletId}`),
      (r) => ["success", "error"].includes(r.status),
    );
    expectFields("WalletCreationStatusResponse", status, ["wallet_id", "status"]);
    expect(status).toMatchObject({ wallet_id: walletId, status: "success", wallet_purpose: "user" });
  });

  it("getWallets, getWalletAssets and getDepositAddress(evm)", async () => {
    expect(sandbox.workspace_id).toMatch(UUID_V4);
    const wallets = await sdkCall("GET", `/workspaces/${sandbox.workspace_id}/wallets`);
    const mine = wallets.find((w: { id: string }) => w.id === walletId);
    expectFields("WalletByWorkspaceResponse", mine, [
      "id",
      "name",
      "role",
      "wallet_type",
      "value_usd",
      "top_assets",
      "wallet_purpose",
    ]);
    expect(mine).toMatchObject({ name: "SDK wallet", wallet_type: "standard", wallet_purpose: "user" });

    const assets = await sdkCall("GET", `/wallets/${walletId}/assets`);
    expect(assets.length).toBeGreaterThan(0);
    expectFields("WalletAsset", assets[0], [
      "id",
      "created_at",
      "updated_at",
      "wallet_id",
      "asset_id",
      "deposit_address",
      "hidden",
      "asset",
    ]);
    expectFields("WalletAssetDetail", assets[0].asset, [
      "id",
      "created_at",
      "updated_at",
      "name",
      "symbol",
      "decimals",
      "logo_url",
      "is_native",
      "address_type",
      "is_whitelisted",
      "network_id",
    ]);
    for (const id of [assets[0].id, assets[0].asset_id, assets[0].asset.network_id]) expect(id).toMatch(UUID_V4);
    assetId = assets[0].asset_id;

    const deposit = await sdkCall("GET", `/wallets/${walletId}/deposit-address?address_type=evm`);
    expectFields("DepositAddressResponse", deposit, ["address", "qr_code"]);
    expect(deposit.address).toBe(assets[0].deposit_address);
    address = deposit.address;
  });

  it("delivers wallet.created and deposits in the SDK's event shape, verified as its verifiers do", async () => {
    const hash = await chain.wallet.sendTransaction({ to: address, value: parseEther("1") });
    const keyBase64 = (await sdkCall("GET", `/workspaces/${sandbox.workspace_id}/webhook-verification-key`))
      .public_key as string;
    expect(Buffer.from(keyBase64, "base64")).toHaveLength(32);
    // The seed publishes base64 (2.9); the SDK's verifier takes hex: convert, as docs/guides/verify-webhooks.md shows.
    const keyHex = Buffer.from(keyBase64, "base64").toString("hex");
    const arrived = await waitFor("wallet.created and deposit.confirmed", () => {
      const created = receiver.received.find(
        (r) => r.event.event === "wallet.created" && r.event.resource_id === walletId,
      );
      const confirmed = receiver.received.find(
        (r) => r.event.event === "deposit.confirmed" && r.event.payload.tx_hash === hash,
      );
      return created && confirmed && [created, confirmed];
    });
    for (const delivery of arrived) {
      const event = JSON.parse(delivery.body);
      expectFields("WebhookEvent", event, ["webhook_id", "resource_id", "url", "payload", "event"]);
      expect(event.url).toBe(receiver.url);
      expect(sdkVerifyEd25519(keyHex, event, delivery.headers["x-webhook-signature"] as string)).toBe(true);
      // verifyEvent (src/api.ts WebhookService): hex HMAC-SHA256 with the API secret over the canonical JSON.
      expect(delivery.headers["x-webhook-hmac-signature"]).toBe(
        createHmac("sha256", sandbox.api_secret).update(canonical(event)).digest("hex"),
      );
      // A changed event no longer verifies.
      expect(
        sdkVerifyEd25519(keyHex, { ...event, resource_id: "x" }, delivery.headers["x-webhook-signature"] as string),
      ).toBe(false);
    }
    // rescanTransaction (src/api.ts transformRescanTransactionParams): a known deposit stays one deposit.
    const [network] = await sdkCall("GET", "/networks");
    expect(
      await sdkCall("POST", "/networks/rescan-transaction", { tx_hash: hash, network_id: network.id }),
    ).toMatchObject({ deposit: true });
    expect(
      receiver.received.filter((r) => r.event.event === "deposit.pending" && r.event.payload.tx_hash === hash),
    ).toHaveLength(1);
    const deposit = arrived[1].event.payload;
    expect(deposit).toMatchObject({
      direction: "in",
      status: "confirmed",
      wallet_id: walletId,
      amount: "1",
      to_address: address,
    });
    expect(deposit).toHaveProperty("omitempty", null);
  });

  it("requestWithdrawal without an Idempotency-Key, by asset_id and by asset + network", async () => {
    await waitFor(
      "the deposit in the balance",
      async () => (await sdkCall("GET", `/wallets/${walletId}/balance/${assetId}`)).balance === "1",
    );
    const recipient = "0x71c7656ec7ab88b098defb751b7401b5f6d8976f";
    // src/api.ts transformRequestWithdrawalParams: asset_id | network + asset, amount, recipient_address, notes, skip_balance_check.
    const byId = await sdkCall("POST", `/wallets/${walletId}/request-withdrawal`, {
      asset_id: assetId,
      amount: "0.1",
      recipient_address: recipient,
      notes: "invoice 7",
      skip_balance_check: false,
    });
    expectFields("RequestWithdrawalResponse", byId, ["auto_approved", "withdrawal"]);
    expectFields("Withdrawal", byId.withdrawal, [
      "id",
      "created_at",
      "updated_at",
      "amount",
      "status",
      "recipient_address",
      "withdrawal_approvals",
      "creator_id",
      "asset_id",
      "wallet_id",
      "asset_hold_id",
    ]);
    expect(byId.withdrawal).toMatchObject({
      amount: "0.1",
      notes: "invoice 7",
      status: "pending_approval",
      wallet_id: walletId,
    });
    expect(byId.withdrawal.id).toMatch(UUID_V4);
    expect(byId.auto_approved).toBe(false);
    const [network] = await sdkCall("GET", "/networks");
    const bySymbol = await sdkCall("POST", `/wallets/${walletId}/request-withdrawal`, {
      network: network.internal_code,
      asset: "ETH",
      amount: "0.1",
      recipient_address: recipient,
    });
    expect(bySymbol.withdrawal).toMatchObject({ asset_id: assetId, amount: "0.1" });
    expect(bySymbol.withdrawal.id).not.toBe(byId.withdrawal.id);
    const read = await sdkCall("GET", `/wallets/${walletId}/withdrawals/${byId.withdrawal.id}`);
    expect(read).toMatchObject({ id: byId.withdrawal.id, notes: "invoice 7" });
  });

  it("EtherSigner: wallet detail with and without an id", async () => {
    const bound = await sdkCall("GET", "/web3/wallet-detail?address_type=evm");
    expectFields("wallet detail (transformWalletDetail)", bound, [
      "ap_key",
      "wallet_id",
      "name",
      "address_type",
      "address",
    ]);
    const detail = await sdkCall("GET", `/web3/wallet-detail/${walletId}?address_type=evm`);
    expect(detail).toMatchObject({ wallet_id: walletId, address_type: "evm", address });
  });

  it("EtherSigner.signMessage and signTypedData: signatures recover to the wallet's address; idempotencyKey replays", async () => {
    const chainId = await chain.public.getChainId();
    const body = { method: "eth_sign", message: "hello from the SDK", chain_id: chainId };
    const first = await sdkCall("POST", `/web3/${walletId}/sign`, body, { idempotencyKey: "sign-1" });
    expectFields("SignResponse", first, ["transaction_id"]);
    expect(await sdkCall("POST", `/web3/${walletId}/sign`, body, { idempotencyKey: "sign-1" })).toEqual(first);
    const signed = await poll(
      () => sdkCall("GET", `/web3/${walletId}/sign/${first.transaction_id}`),
      (r) => r.status === "confirmed" && r.signature != null,
      (r) => ["failed", "rejected"].includes(r.status),
    );
    expectFields("SignatureStatusResponse", signed, [
      "status",
      "transaction_id",
      "created_at",
      "updated_at",
      "approvals",
    ]);
    expect(await verifyMessage({ address, message: "hello from the SDK", signature: signed.signature })).toBe(true);

    // src/signer.ts signTypedData: typed_data = JSON.stringify({ domain, types, message }), message "".
    const domain = {
      name: "Custody",
      version: "1",
      chainId,
      verifyingContract: "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC",
    } as const;
    const types = {
      Person: [
        { name: "name", type: "string" },
        { name: "wallet", type: "address" },
      ],
      Mail: [
        { name: "from", type: "Person" },
        { name: "contents", type: "string" },
        { name: "nonce", type: "uint256" },
      ],
    };
    const message = {
      from: { name: "Cow", wallet: "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826" },
      contents: "Hello, Bob!",
      nonce: "7",
    };
    const typed = await sdkCall("POST", `/web3/${walletId}/sign`, {
      method: "eth_signTypedData_v4",
      message: "",
      chain_id: chainId,
      typed_data: JSON.stringify({ domain, types, message }),
    });
    const typedSigned = await poll(
      () => sdkCall("GET", `/web3/${walletId}/sign/${typed.transaction_id}`),
      (r) => r.status === "confirmed" && r.signature != null,
      (r) => r.status === "failed",
    );
    expect(
      await verifyTypedData({
        address,
        domain,
        types,
        primaryType: "Mail",
        message: { ...message, nonce: 7n },
        signature: typedSigned.signature,
      }),
    ).toBe(true);
  });

  it("EtherSigner.sendTransaction: signRaw with bigints as strings, then transaction status until completed with the hash", async () => {
    const chainId = await chain.public.getChainId();
    const nonce = await chain.public.getTransactionCount({ address, blockTag: "pending" });
    const fees = await chain.public.estimateFeesPerGas();
    // src/signer.ts signTransaction: these members; bigints serialize as decimal strings (src/api.ts toJSON).
    const tx = {
      maxFeePerGas: fees.maxFeePerGas.toString(),
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString(),
      to: "0x71C7656EC7ab88b098defB751B7401B5f6d8976F",
      from: address,
      nonce,
      gasLimit: "21000",
      data: "0x",
      value: parseEther("0.01").toString(),
      chainId: String(chainId),
      accessList: [],
    };
    const accepted = await sdkCall("POST", `/web3/transaction/${walletId}/signRaw`, tx, { idempotencyKey: "raw-1" });
    const status = await poll(
      () => sdkCall("GET", `/web3/transaction/${walletId}/${accepted.transaction_id}`),
      (r) => (r.status === "confirmed" || r.status === "completed") && !!r.hash,
      (r) => r.status === "failed" || r.status === "rejected",
    );
    expectFields("TransactionStatusResponse", status, [
      "transaction_id",
      "status",
      "method",
      "created_at",
      "updated_at",
      "approvals",
    ]);
    const receipt = await chain.public.waitForTransactionReceipt({ hash: status.hash as Hex });
    expect(receipt.from.toLowerCase()).toBe(address.toLowerCase());
    expect(receipt.status).toBe("success");
  });

  it("refuses nothing for a member the SDK may send, but names a wrong one in one line", async () => {
    await expect(
      sdkCall("POST", "/wallets", { name: "x", wallet_type: "mpc", wallet_purpose: "not-a-purpose" }),
    ).rejects.toThrow(/400 .*wallet_purpose/);
    await expect(sdkCall("GET", `/wallets/${walletId}/deposit-address?address_type=btc`)).rejects.toThrow(
      /400 .*address_type/,
    );
  });
});
