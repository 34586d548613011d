// The generated SDK as a browser or edge user ships it, and what it costs per call on Node:
// - size: one call (getWalletOverview) of a client generated with the vendored runtime, bundled by
//   esbuild for the browser platform, minified, zod included (KB = 1,000 bytes, also gzipped, and zod's
//   share); goal at most 150 KB for the default output, under 80 KB with `--zod mini`;
// - throughput: the generated client (signing, retries armed, envelope unwrapped, answer validated with
//   zod) against a hand-written fetch that signs with node:crypto and parses the JSON, in the same run
//   against the same local server, alternating; goal at least 0.9 of raw fetch.
// Run alone: node --import tsx bench/sdk.ts [--quick] [--size] (--size: the bundles only)
import { createHmac } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { parse } from "yaml";
import { generate, type ZodFlavour } from "../generator/index.ts";
import { type BenchContext, createContext, PROJECT_ROOT, type SectionResult } from "./context.ts";
import { entry } from "./stats.ts";

export const BUNDLE_GOAL_KB = 150;
export const MINI_BUNDLE_GOAL_KB = 80;
export const THROUGHPUT_GOAL = 0.9;

const SECRET = "bench-secret";
const WALLET_ID = "3f1c2a9e-7b4d-4e0a-9c61-5d2b8f0e4a17";
/** The spec's own example answer of getWallet, so the client's validation passes as against a real service. */
const WALLET = (
  parse(readFileSync(join(PROJECT_ROOT, "spec", "openapi.yaml"), "utf8")) as {
    components: { examples: Record<string, { value: { success: boolean; data: unknown } }> };
  }
).components.examples.WalletResponse.value;

interface BundleSize {
  bytes: number;
  gzipBytes: number;
  /** Bytes of the output that come from the zod package. */
  zodBytes: number;
  /** Bytes of the output by source: a package, the vendored runtime, or the generated code. */
  inputs: [string, number][];
}

/** What a browser bundle imports and calls: one client call (the figure with a goal), a webhook, a JSON-RPC call. */
const ENTRIES = {
  client: [
    `import { CustodialWalletServiceClient } from "./sdk/client.ts";`,
    `const client = new CustodialWalletServiceClient(` +
      `{ baseUrl: "https://wallet.example", apiKey: "k", apiSecret: "s" });`,
    `client.getWalletOverview({ params: { wallet_id: "${WALLET_ID}" } }).then((o) => console.log(o));`,
  ],
  webhooks: [
    `import { verifyWebhook } from "./sdk/webhooks.ts";`,
    `console.log(verifyWebhook({ publicKeyBase64: "k", headers: {}, body: "{}" }));`,
  ],
  rpc: [
    `import { createRpcClient } from "./sdk/rpc.ts";`,
    `createRpcClient({ url: "https://node.example/rpc", apiKey: "k" }).eth_blockNumber().then(console.log);`,
  ],
} as const;

type BundleEntry = keyof typeof ENTRIES;

/** The output of `custody generate --zod <zod>` (with rpc.ts), each entry bundled for the browser, minified. */
async function bundleSizes(ctx: BenchContext, zod: ZodFlavour): Promise<Record<BundleEntry, BundleSize>> {
  const dir = ctx.scratch(`sdk-bundle-${zod}`);
  const spec = join(ctx.root, "spec");
  const specs = { specPath: join(spec, "openapi.yaml"), rpcSpecPath: join(spec, "openrpc.json") };
  await generate({ ...specs, outDir: join(dir, "sdk"), runtime: "vendor", zod });
  const sizes = {} as Record<BundleEntry, BundleSize>;
  for (const name of Object.keys(ENTRIES) as BundleEntry[]) {
    writeFileSync(join(dir, `${name}.ts`), `${ENTRIES[name].join("\n")}\n`);
    sizes[name] = await bundleSize(ctx, join(dir, `${name}.ts`));
  }
  return sizes;
}

async function bundleSize(ctx: BenchContext, entryFile: string): Promise<BundleSize> {
  const result = await build({
    entryPoints: [entryFile],
    bundle: true,
    minify: true,
    platform: "browser",
    format: "esm",
    write: false,
    metafile: true,
    nodePaths: [join(ctx.root, "node_modules")],
    logLevel: "silent",
  });
  const output = Object.values(result.metafile.outputs)[0];
  const byPackage = new Map<string, number>();
  for (const [path, info] of Object.entries(output.inputs)) {
    byPackage.set(sourceOf(path), (byPackage.get(sourceOf(path)) ?? 0) + info.bytesInOutput);
  }
  const bytes = result.outputFiles[0].contents;
  const inputs = [...byPackage].sort((a, b) => b[1] - a[1]);
  const zodBytes = inputs.filter(([key]) => key === "zod" || key.startsWith("zod/")).reduce((sum, [, n]) => sum + n, 0);
  return { bytes: bytes.length, gzipBytes: gzipSync(bytes).length, zodBytes, inputs };
}

/** "zod/v4/core", "@noble/hashes", "runtime" or "generated" for an input of the bundle. */
function sourceOf(path: string): string {
  if (!path.includes("node_modules/")) return path.includes("/runtime/") ? "runtime" : "generated";
  const parts = path.split("node_modules/").pop()!.split("/");
  if (parts[0] === "zod") return parts.slice(0, parts[1] === "v4" ? 3 : 2).join("/");
  return parts.slice(0, parts[0].startsWith("@") ? 2 : 1).join("/");
}

const kb = (bytes: number) => Math.round(bytes / 100) / 10;

function sizeLine(size: BundleSize): string {
  const parts = size.inputs.map(([k, v]) => `${k} ${kb(v)}`).join(", ");
  return `${kb(size.bytes)} KB, gzip ${kb(size.gzipBytes)} KB, zod ${kb(size.zodBytes)} KB (${parts})`;
}

async function throughput(ctx: BenchContext): Promise<{ client: number; raw: number; pairRatio: number }> {
  const body = JSON.stringify(WALLET);
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json", "x-request-id": "r" });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dir = ctx.scratch("sdk-throughput");
  await generate({ specPath: join(ctx.root, "spec", "openapi.yaml"), outDir: join(dir, "sdk"), runtime: "vendor" });
  const { CustodialWalletServiceClient } = (await import(
    pathToFileURL(join(dir, "sdk", "client.ts")).href
  )) as typeof import("../generated/client.ts");
  const client = new CustodialWalletServiceClient({ baseUrl, apiKey: "key", apiSecret: SECRET, logLevel: "off" });
  const path = `/api/v1/wallets/${WALLET_ID}`;
  const raw = async () => {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const sign = Buffer.from(
      createHmac("sha256", SECRET).update(`method=GET&path=${path}&timestamp=${timestamp}&body=`).digest("hex"),
    ).toString("base64");
    const res = await fetch(baseUrl + path, {
      headers: {
        accept: "application/json",
        "ACCESS-API-KEY": "key",
        "ACCESS-TIMESTAMP": timestamp,
        "ACCESS-SIGN": sign,
      },
    });
    const json = (await res.json()) as typeof WALLET;
    if (!json.success) throw new Error("unexpected answer");
    return json.data;
  };
  const viaClient = () => client.getWallet({ params: { wallet_id: WALLET_ID } });
  const concurrency = 8;
  // Many short rounds, each client round paired with a raw round next to it (in alternating order):
  // load from other processes drifts slowly, so a pair sees nearly the same machine.
  const calls = ctx.quick ? 1000 : 3000;
  const rounds = ctx.quick ? 5 : 15;
  async function rate(call: () => Promise<unknown>): Promise<number> {
    let left = calls;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (left-- > 0) await call();
      }),
    );
    return calls / ((performance.now() - t0) / 1000);
  }
  await rate(raw);
  await rate(viaClient);
  const ours: number[] = [];
  const base: number[] = [];
  const pairs: number[] = [];
  for (let i = 0; i < rounds; i++) {
    // Which side goes first alternates, so neither always inherits the other's garbage.
    const clientFirst = i % 2 === 1;
    const c0 = clientFirst ? await rate(viaClient) : 0;
    const r = await rate(raw);
    const c = clientFirst ? c0 : await rate(viaClient);
    base.push(r);
    ours.push(c);
    pairs.push(c / r);
  }
  server.closeAllConnections();
  server.close();
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  return { client: med(ours), raw: med(base), pairRatio: med(pairs) };
}

/** The bundle entries: the default output against its goal, `--zod mini` against the default. */
async function sizeEntries(ctx: BenchContext): Promise<SectionResult> {
  ctx.log("sdk: bundling for the browser (classic zod, then zod/mini)");
  const classic = await bundleSizes(ctx, "classic");
  const mini = await bundleSizes(ctx, "mini");
  const lines = (Object.keys(ENTRIES) as BundleEntry[]).flatMap((name) => [
    `${name}, classic: ${sizeLine(classic[name])}`,
    `${name}, mini: ${sizeLine(mini[name])}`,
  ]);
  for (const line of lines) ctx.log(`sdk: ${line}`);
  const [c, m] = [classic.client, mini.client];
  return {
    entries: [
      entry(
        "sdk: one call bundled (browser, minified, zod included)",
        kb(c.bytes),
        `goal ${BUNDLE_GOAL_KB} KB`,
        BUNDLE_GOAL_KB,
        "KB",
        `gzip ${kb(c.gzipBytes)} KB, zod ${kb(c.zodBytes)} KB`,
      ),
      entry(
        "sdk --zod mini: one call bundled (browser, minified, zod included)",
        kb(m.bytes),
        "the default (classic zod)",
        kb(c.bytes),
        "KB",
        `goal ${MINI_BUNDLE_GOAL_KB} KB; gzip ${kb(m.gzipBytes)} KB, zod ${kb(m.zodBytes)} KB`,
      ),
    ],
    notes: [`sdk bundles by input (KB = 1,000 bytes): ${lines.join("; ")}`],
  };
}

export async function benchSdk(ctx: BenchContext, options: { sizeOnly?: boolean } = {}): Promise<SectionResult> {
  const size = await sizeEntries(ctx);
  if (options.sizeOnly) return size;
  ctx.log("sdk: generated client vs raw fetch");
  const rates = await throughput(ctx);
  return {
    entries: [
      ...size.entries,
      entry(
        "sdk: getWallet throughput, generated client vs raw fetch",
        Math.round(rates.client),
        "raw fetch + node:crypto HMAC",
        Math.round(rates.raw),
        "calls/s",
        `goal ratio >= ${THROUGHPUT_GOAL}; median of paired rounds ${rates.pairRatio.toFixed(3)}`,
      ),
    ],
    notes: size.notes,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const ctx = createContext(process.argv.includes("--quick"));
  const result = await benchSdk(ctx, { sizeOnly: process.argv.includes("--size") });
  console.log(JSON.stringify(result, null, 2));
}
