// Server child: the node-access gateway (reference/node) in front of an upstream JSON-RPC node given
// as argv[2], the way `custody sandbox --upstream URL` runs it.
import { connectUpstreamChain } from "../../reference/chain/index.ts";
import { startNodeAccess } from "../../reference/node/index.ts";
import { announce, failStart } from "./announce.ts";

const API_KEY = "bench-rpc-key";

try {
  const upstream = process.argv[2];
  if (!upstream) throw new Error("usage: gateway.ts UPSTREAM_HTTP_URL");
  const backend = await connectUpstreamChain({ url: upstream });
  const node = await startNodeAccess({ backend, apiKeys: new Set([API_KEY]) });
  announce({ http_url: node.httpUrl, ws_url: node.wsUrl, api_key: API_KEY });
} catch (error) {
  failStart(error);
}
