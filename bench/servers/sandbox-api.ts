// Server child: the sandbox's wallet API (generated server + reference handlers) with one ready wallet.
// Announces base_url, api_key, api_secret and wallet_id. The API secret only travels on this private
// pipe to the harness, which needs it to sign requests.
import { startSandbox } from "../../reference/sandbox.ts";
import { createTransport, unwrapEnvelope } from "../../runtime/http/client.ts";
import { announce, failStart } from "./announce.ts";

interface CreationStatus {
  wallet_id?: string;
  id?: string;
  status?: string;
}

async function readyWallet(baseUrl: string, apiKey: string, apiSecret: string): Promise<string> {
  const transport = createTransport({ baseUrl, apiKey, apiSecret, retry: false });
  const created = unwrapEnvelope<CreationStatus>(
    await transport.request({ method: "POST", path: "/api/v1/wallets", body: { name: "bench wallet" } }),
  );
  const walletId = created.wallet_id ?? created.id;
  if (!walletId) throw new Error("createWallet returned no wallet_id");
  // The overview of a wallet still being created may be an error; wait until it exists.
  for (let i = 0; i < 100; i++) {
    const status = unwrapEnvelope<CreationStatus>(
      await transport.request({ method: "GET", path: `/api/v1/wallets/creation-status/${walletId}` }),
    );
    if (status.status === "success") return walletId;
    if (status.status === "error") throw new Error("wallet creation failed");
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("wallet creation did not finish within 10 s");
}

try {
  const sandbox = await startSandbox({
    seed: "bench",
    env: {},
    logger: { error: (m) => process.stderr.write(`sandbox: ${m}\n`) },
  });
  const walletId = await readyWallet(sandbox.base_url, sandbox.api_key, sandbox.api_secret);
  announce({
    base_url: sandbox.base_url,
    api_key: sandbox.api_key,
    api_secret: sandbox.api_secret,
    wallet_id: walletId,
  });
} catch (error) {
  failStart(error);
}
