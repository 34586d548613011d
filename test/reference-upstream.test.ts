// --upstream: a sandbox whose chain is another node (here: a second sandbox's node access) serves
// balances and detects deposits from that node's chain.
import { type Hex, parseEther } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CustodialWalletServiceClient } from "../generated/client.ts";
import { SANDBOX_ETH_ASSET_ID } from "../reference/domain/catalog.ts";
import { type Sandbox, startSandbox } from "../reference/sandbox.ts";
import { chainClients, waitFor } from "./reference-helpers.ts";

let node: Sandbox;
let sandbox: Sandbox;

beforeAll(async () => {
  node = await startSandbox({ env: {}, blockTimeSeconds: 0.25 });
  sandbox = await startSandbox({
    env: {},
    upstreamUrl: `${node.rpc_url}/rpc?api_key=${node.rpc_api_key}`,
    blockTimeSeconds: 0.25,
    walletCreationDelayMs: 20,
  });
});
afterAll(async () => {
  await sandbox?.close();
  await node?.close();
});

describe("a sandbox in front of an upstream node", () => {
  it("reads the upstream chain and detects deposits on it", async () => {
    const client = new CustodialWalletServiceClient({
      baseUrl: sandbox.base_url,
      apiKey: sandbox.api_key,
      apiSecret: sandbox.api_secret,
    });
    const [network] = await client.listNetworks();
    const upstream = chainClients(node.rpc_url, node.rpc_api_key, network.chain_id as number, node.faucet_private_key);
    expect(network.chain_id).toBe(await upstream.public.getChainId());
    expect((await client.getHealth()).status).toBe("ok");

    const created = await client.createWallet({ body: { name: "upstream" } });
    await waitFor(
      "wallet",
      async () =>
        (await client.getWalletCreationStatus({ params: { wallet_id: created.wallet_id as string } })).status ===
        "success",
    );
    const { address } = await client.attachAsset({
      params: { wallet_id: created.wallet_id as string },
      body: { asset_id: SANDBOX_ETH_ASSET_ID },
    });
    const hash = await upstream.wallet.sendTransaction({ to: address as Hex, value: parseEther("0.7") });
    const tx = await waitFor("confirmed deposit", async () => {
      const t = (await client.listTransactions({ params: { workspace_id: sandbox.workspace_id } })).find(
        (x) => x.tx_hash === hash,
      );
      return t?.status === "confirmed" && t;
    });
    expect(tx).toMatchObject({ direction: "deposit", amount: "0.7" });
    expect(
      (
        await client.getWalletAssetBalance({
          params: { wallet_id: created.wallet_id as string, asset_id: SANDBOX_ETH_ASSET_ID },
        })
      ).balance,
    ).toBe("0.7");
  });
});
