// Without its Solana runtime (LiteSVM not installed: here, a path that does not load) the sandbox still
// starts and says why in one line; the Solana network is listed disabled, addresses are still derived
// and messages still signed; what needs the chain (deposits, SOL withdrawals, sending) is refused in one line.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CustodialWalletServiceClient } from "../generated/client.ts";
import { SANDBOX_SOL_ASSET_ID } from "../reference/domain/catalog.ts";
import { type Sandbox, startSandbox } from "../reference/sandbox.ts";
import { waitFor } from "./reference-helpers.ts";

let sandbox: Sandbox;
let client: CustodialWalletServiceClient;
const logged: string[] = [];

beforeAll(async () => {
  // Read by the loader on first use; this file's worker never loads LiteSVM otherwise.
  process.env.CUSTODY_LITESVM_PATH = "/nonexistent/litesvm.node";
  sandbox = await startSandbox({ env: {}, walletCreationDelayMs: 20, logger: { error: (m) => logged.push(m) } });
  client = new CustodialWalletServiceClient({
    baseUrl: sandbox.base_url,
    apiKey: sandbox.api_key,
    apiSecret: sandbox.api_secret,
  });
});

afterAll(async () => {
  await sandbox?.close();
  delete process.env.CUSTODY_LITESVM_PATH;
});

describe("a sandbox without its Solana runtime", () => {
  it("starts, prints no Solana URL and says why in one line", () => {
    expect(sandbox.solana_rpc_url).toBeUndefined();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(
      /^CUSTODY_LITESVM_PATH=\/nonexistent\/litesvm\.node could not be loaded: .*; Solana addresses are still derived, SOL transfers are off$/,
    );
  });

  it("lists the Solana network disabled, derives sol addresses, signs messages, and refuses SOL money in one line", async () => {
    const solana = (await client.listNetworks()).find((n) => n.internal_code === "SANDBOX_SOL")!;
    expect(solana).toMatchObject({ disabled: true });
    expect(solana.name).toMatch(/the Solana runtime is not installed/);
    const id = (await client.createWallet({ body: { name: "no solana" } })).wallet_id as string;
    await waitFor(
      "wallet",
      async () => (await client.getWalletCreationStatus({ params: { wallet_id: id } })).status === "success",
    );
    expect((await client.listWalletAssets({ params: { wallet_id: id } })).map((a) => a.asset?.symbol)).toEqual(["ETH"]);
    expect(
      (await client.getDepositAddress({ params: { wallet_id: id }, query: { address_type: "sol" } })).address,
    ).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    const accepted = await client.requestSign({
      params: { wallet_id: id },
      body: { method: "solana_signMessage", message: "hi", chain_id: 0 },
    });
    await waitFor(
      "signed",
      async () =>
        (await client.getTransactionStatus({ params: { wallet_id: id, transaction_id: accepted.transaction_id } }))
          .hash,
    );
    await expect(
      client.attachAsset({ params: { wallet_id: id }, body: { asset_id: SANDBOX_SOL_ASSET_ID } }),
    ).rejects.toThrow(
      /asset_id: SOL is on Sandbox Solana \(addresses only: the Solana runtime is not installed\), which moves no funds/,
    );
  });
});
