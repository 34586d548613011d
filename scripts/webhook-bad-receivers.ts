// node --import tsx scripts/webhook-bad-receivers.ts [--root DIR]
// Issue 28's story, as a new user would try it: a sandbox, 20 webhooks whose receivers refuse
// connections and 10 whose receivers accept and never answer, then one healthy receiver, all
// subscribed to wallet.created; six wallets created one after another. Prints the time from each
// creation call to the healthy receiver's delivery, beside the same six with no bad receiver. --root
// runs another checkout's sandbox (bench/servers/sandbox-webhooks.ts must exist there), to compare a
// dispatcher before and after.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { PROJECT_ROOT } from "../bench/context.ts";
import { spawnServer } from "../bench/spawn-server.ts";
import { CustodialWalletServiceClient } from "../generated/client.ts";

const REFUSING = 20;
const HANGING = 10;
const WALLETS = 6;
/** A healthy delivery still missing after this long is reported as such. */
const GIVE_UP_MS = 30_000;

interface SandboxInfo {
  base_url: string;
  api_key: string;
  api_secret: string;
  workspace_id: string;
}

const rootFlag = process.argv.indexOf("--root");
const root = rootFlag > 0 ? resolve(process.argv[rootFlag + 1] ?? ".") : PROJECT_ROOT;

async function story(withBad: boolean): Promise<string[]> {
  const child = await spawnServer<SandboxInfo>({
    args: ["--import", "tsx", join(root, "bench/servers/sandbox-webhooks.ts")],
    cwd: root,
    timeoutMs: 90_000,
  });
  const arrivals = new Map<string, number>();
  const healthy = await listen((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      const walletId = (JSON.parse(body) as { payload?: { wallet_id?: string } }).payload?.wallet_id;
      if (walletId && !arrivals.has(walletId)) arrivals.set(walletId, Date.now());
      res.end("ok");
    });
  });
  const hanging = await listen((req) => void req.resume());
  try {
    const { base_url, api_key, api_secret, workspace_id } = child.info;
    const client = new CustodialWalletServiceClient({ baseUrl: base_url, apiKey: api_key, apiSecret: api_secret });
    const register = (url: string) =>
      client.createWebhook({ params: { workspace_id }, body: { url, event_types: ["wallet.created"] } });
    if (withBad) {
      for (let i = 0; i < REFUSING; i++) await register(`http://127.0.0.1:1/r${i}`);
      for (let i = 0; i < HANGING; i++) await register(`${hanging.url}/h${i}`);
    }
    await register(healthy.url);
    const out: string[] = [];
    for (let i = 0; i < WALLETS; i++) {
      const started = Date.now();
      const walletId = (await client.createWallet({ body: { name: `story-${i}` } })).wallet_id as string;
      while (!arrivals.has(walletId) && Date.now() - started < GIVE_UP_MS) await new Promise((r) => setTimeout(r, 10));
      out.push(arrivals.has(walletId) ? String((arrivals.get(walletId) as number) - started) : `> ${GIVE_UP_MS}`);
    }
    return out;
  } finally {
    await child.stop();
    await healthy.close();
    await hanging.close();
  }
}

async function listen(handler: http.RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

process.stdout.write(`sandbox of ${root}\n`);
process.stdout.write(`| bad receivers | healthy delivery latency (ms), ${WALLETS} wallets in a row |\n|---|---|\n`);
process.stdout.write(`| none | ${(await story(false)).join(", ")} |\n`);
process.stdout.write(`| ${REFUSING} refusing + ${HANGING} hanging | ${(await story(true)).join(", ")} |\n`);
