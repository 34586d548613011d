// Section "gateway": eth_blockNumber through the node-access gateway (startNodeAccess in front of an
// upstream anvil node via connectUpstreamChain), against the same anvil node called directly
// and against a minimal Node proxy (node:http + undici, no JSON work), over HTTP and WebSocket.
import { join } from "node:path";
import type { BenchContext, SectionResult } from "./context.ts";
import { httpLoad, type LoadResult, wsLoad } from "./load.ts";
import { loadPlan, summarize } from "./serving.ts";
import { type ServerChild, spawnServer } from "./spawn-server.ts";
import { alternate, entry, type ResultEntry } from "./stats.ts";

const IN_FLIGHT = 10;

interface RpcEndpoints {
  http_url: string;
  ws_url: string;
  api_key?: string;
}

const BODY = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] });

function child(ctx: BenchContext, script: string, ...args: string[]): Promise<ServerChild<RpcEndpoints>> {
  return spawnServer<RpcEndpoints>({
    args: ["--import", "tsx", join(ctx.root, "bench/servers", script), ...args],
    cwd: ctx.root,
    timeoutMs: 60_000,
  });
}

function withKey(url: string, key: string | undefined): string {
  if (!key) return url;
  const u = new URL(url);
  u.searchParams.set("api_key", key);
  return u.toString();
}

function httpRun(endpoint: RpcEndpoints, durationMs: number): () => Promise<LoadResult> {
  const url = new URL(endpoint.http_url);
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (endpoint.api_key) headers.authorization = `APIKEY ${endpoint.api_key}`;
  return () =>
    httpLoad({
      origin: url.origin,
      method: "POST",
      path: url.pathname + url.search,
      headers,
      body: BODY,
      expectStatus: 200,
      connections: IN_FLIGHT,
      durationMs,
    });
}

function wsRun(endpoint: RpcEndpoints, durationMs: number): () => Promise<LoadResult> {
  const url = withKey(endpoint.ws_url, endpoint.api_key);
  return () =>
    wsLoad({
      url,
      inFlight: IN_FLIGHT,
      durationMs,
      message: (id) => `{"jsonrpc":"2.0","id":${id},"method":"eth_blockNumber","params":[]}`,
    });
}

export async function benchGateway(ctx: BenchContext): Promise<SectionResult> {
  const entries: ResultEntry[] = [];
  const notes: string[] = [];
  const children: Array<ServerChild<RpcEndpoints>> = [];
  try {
    const upstream = await child(ctx, "anvil-upstream.ts");
    children.push(upstream);
    const gateway = await child(ctx, "gateway.ts", upstream.info.http_url);
    children.push(gateway);
    const proxy = await child(ctx, "proxy-floor.ts", upstream.info.http_url);
    children.push(proxy);
    const plan = loadPlan(ctx.quick);
    ctx.log(
      `gateway: ${plan.warmups} warm-up + ${plan.runs} runs of ${plan.durationMs} ms per target, ${IN_FLIGHT} in flight`,
    );
    for (const [transport, makeRun, unit] of [
      ["HTTP", httpRun, "req/s"],
      ["WebSocket", wsRun, "msg/s"],
    ] as const) {
      const results: Record<string, LoadResult[]> = { gateway: [], direct: [], proxy: [] };
      const targets: Array<[string, RpcEndpoints]> = [
        ["gateway", gateway.info],
        ["direct", upstream.info],
        ["proxy", proxy.info],
      ];
      const contenders = targets.map(([name, endpoint]) => {
        const run = makeRun(endpoint, plan.durationMs);
        return {
          name,
          run: async () => {
            const r = await run();
            results[name].push(r);
            return r.perSecond;
          },
        };
      });
      await alternate(contenders, plan);
      const figure = (name: string) => summarize(name, results[name].slice(-plan.runs));
      const ours = figure("gateway");
      const direct = figure("direct");
      const proxyFigure = figure("proxy");
      ctx.log(
        `  ${transport}: gateway ${ours.value?.toFixed(0)}, direct ${direct.value?.toFixed(0)}, proxy floor ${proxyFigure.value?.toFixed(0)} ${unit}`,
      );
      const note = (n?: string, extra?: string) => [ours.note, n, extra].filter(Boolean).join("; ") || undefined;
      entries.push(
        entry(
          `gateway eth_blockNumber over ${transport}`,
          ours.value,
          "anvil called directly",
          direct.value,
          unit,
          note(direct.note, "goal: ratio ≥ 0.70"),
        ),
      );
      entries.push(
        entry(
          `gateway eth_blockNumber over ${transport}`,
          ours.value,
          transport === "HTTP" ? "minimal Node proxy (node:http + undici)" : "minimal Node proxy (ws in, undici out)",
          proxyFigure.value,
          unit,
          note(proxyFigure.note),
        ),
      );
    }
    notes.push(
      "gateway: the gateway forwards to anvil over HTTP (UpstreamChain), WebSocket included; three processes (load generator, gateway, anvil) share the machine's cores, " +
        "so the direct figure has one process fewer competing.",
    );
  } catch (error) {
    notes.push(`gateway: ${(error as Error).message}`);
  } finally {
    const rss = await Promise.all(children.map((c) => c.stop()));
    if (rss.length >= 3 && rss[1] !== null)
      entries.push(entry("gateway peak RSS", rss[1], "minimal Node proxy", rss[2], "MB"));
  }
  return { entries, notes };
}
