// Shared by the test/reference-*.test.ts files: a programmable webhook receiver, polling, and a viem
// wallet client for the sandbox's faucet.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createPublicClient, createWalletClient, defineChain, type Hex, http as viemHttp } from "viem";
import { privateKeyToAccount } from "viem/accounts";

export interface ReceivedWebhook {
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The real service's envelope (spec: x-custody-webhook-signature.event-envelope). */
  event: { webhook_id: string; resource_id: string; url: string; event: string; payload: Record<string, unknown> };
  answeredWith: number;
}

export interface Receiver {
  url: string;
  received: ReceivedWebhook[];
  /** Status to answer with; change it at any time (e.g. 500 while "down", then 200). */
  status: number;
  close(): Promise<void>;
}

export async function startReceiver(initialStatus = 200): Promise<Receiver> {
  const receiver: Receiver = { url: "", received: [], status: initialStatus, close: async () => {} };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const status = receiver.status;
      receiver.received.push({ headers: req.headers, body, event: JSON.parse(body), answeredWith: status });
      res.writeHead(status, { "content-type": "text/plain" });
      res.end(status >= 200 && status < 300 ? "ok" : `receiver down (${status})`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return receiver;
}

/**
 * How long a wait on an event may take before the test calls the flow hung: an outer bound that a slow,
 * busy machine does not reach (blocks and deliveries take seconds at most), never a guess of the step's time.
 */
export const OUTER_BOUND_MS = 240_000;

/** Polls `probe` until it returns something truthy; fails with `what` after `timeoutMs` (an outer bound). */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  timeoutMs = OUTER_BOUND_MS,
  intervalMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v) return v as T;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${last instanceof Error ? ` (last error: ${last.message})` : ""}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** viem clients on the sandbox chain through its node access (HTTP, key in the query). */
export function chainClients(rpcUrl: string, rpcApiKey: string, chainId: number, privateKey: string) {
  const chain = defineChain({
    id: chainId,
    name: "sandbox",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [`${rpcUrl}/rpc?api_key=${rpcApiKey}`] } },
  });
  const transport = viemHttp(`${rpcUrl}/rpc?api_key=${encodeURIComponent(rpcApiKey)}`);
  return {
    public: createPublicClient({ chain, transport }),
    wallet: createWalletClient({ chain, transport, account: privateKeyToAccount(privateKey as Hex) }),
  };
}
