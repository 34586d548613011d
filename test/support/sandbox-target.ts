// What certify is given for a reference sandbox started in a test: its URLs and every credential it
// prints, the wallet API at `baseUrl` (a proxy in front of it, by default the sandbox itself).
import type { Target } from "../../conformance/run/config.ts";
import type { Sandbox } from "../../reference/sandbox.ts";

export function sandboxTarget(sandbox: Sandbox, baseUrl = sandbox.base_url): Target {
  return {
    baseUrl,
    rpcUrl: sandbox.rpc_url,
    wsUrl: sandbox.ws_url,
    admin: { apiKey: sandbox.api_key, apiSecret: sandbox.api_secret },
    rpcApiKey: sandbox.rpc_api_key,
    workspaceId: sandbox.workspace_id,
    faucetPrivateKey: sandbox.faucet_private_key,
    other: {
      credentials: { apiKey: sandbox.other_api_key, apiSecret: sandbox.other_api_secret },
      workspaceId: sandbox.other_workspace_id,
    },
    fixtureIds: {},
  };
}
