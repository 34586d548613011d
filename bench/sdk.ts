// The generated SDK as a browser or edge user ships it, and what it costs per call on Node:
// - size: one call (getWallet) of a client generated with the vendored runtime, bundled by esbuild for
//   the browser platform, minified, zod included; goal at most 150 KB;
// - throughput: the generated client (signing, retries armed, envelope unwrapped, answer validated with
//   zod) against a hand-written fetch that signs with node:crypto and parses the JSON, in the same run
//   against the same local server, alternating; goal at least 0.9 of raw fetch.
// Run alone: node --import tsx bench/sdk.ts [--quick]
import { createHmac } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { generate } from "../generator/index.ts";
import { parse } from "yaml";
import { createContext, PROJECT_ROOT, type BenchContext, type SectionResult } from "./context.ts";
import { entry } from "./stats.ts";

export const BUNDLE_GOAL_KB = 150;
export const THROUGHPUT_GOAL = 0.9;

const SECRET = "bench-secret";
const WALLET_ID = "3f1c2a9e-7b4d-4e0a-9c61-5d2b8f0e4a17";
/** The spec's own example answer of getWallet, so the client's validation passes as against a real service. */
const WALLET = (parse(readFileSync(join(PROJECT_ROOT, "spec", "openapi.yaml"), "utf8")) as { components: { examples: Record<string, { value: { success: boolean; data: unknown } }> } }).components.examples.WalletResponse.value;

async function bundleSize(ctx: BenchContext): Promise<{ bytes: number; inputs: [string, number][] }> {
  const dir = ctx.scratch("sdk-bundle");
  await generate({ specPath: join(ctx.root, "spec", "openapi.yaml"), outDir: join(dir, "sdk"), runtime: "vendor" });
  const entryFile = join(dir, "entry.ts");
  writeFileSync(
    entryFile,
    `import { CustodialWalletServiceClient } from "./sdk/client.ts";\n` +
      `const client = new CustodialWalletServiceClient({ baseUrl: "https://wallet.example", apiKey: "k", apiSecret: "s" });\n` +
      `client.getWallet({ params: { wallet_id: "${WALLET_ID}" } }).then((w) => console.log(w.name));\n`,
  );
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
    const key = path.includes("node_modules/") ? path.split("node_modules/").pop()!.split("/").slice(0, path.includes("node_modules/@") ? 2 : 1).join("/") : path.includes("/runtime/") ? "runtime" : "generated";
    byPackage.set(key, (byPackage.get(key) ?? 0) + info.bytesInOutput);
  }
  return { bytes: result.outputFiles[0].contents.length, inputs: [...byPackage].sort((a, b) => b[1] - a[1]) };
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
  const { CustodialWalletServiceClient } = (await import(pathToFileURL(join(dir, "sdk", "client.ts")).href)) as typeof import("../generated/client.ts");
  const client = new CustodialWalletServiceClient({ baseUrl, apiKey: "key", apiSecret: SECRET, logLevel: "off" });
  const path = `/api/v1/wallets/${WALLET_ID}`;
  const raw = async () => {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const sign = Buffer.from(createHmac("sha256", SECRET).update(`method=GET&path=${path}&timestamp=${timestamp}&body=`).digest("hex")).toString("base64");
    const res = await fetch(baseUrl + path, { headers: { accept: "application/json", "ACCESS-API-KEY": "key", "ACCESS-TIMESTAMP": timestamp, "ACCESS-SIGN": sign } });
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
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (left-- > 0) await call();
    }));
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

export async function benchSdk(ctx: BenchContext): Promise<SectionResult> {
  ctx.log("sdk: bundling one call for the browser");
  const size = await bundleSize(ctx);
  const kb = size.bytes / 1024;
  ctx.log(`sdk: bundle ${kb.toFixed(1)} KB: ${size.inputs.map(([k, v]) => `${k} ${(v / 1024).toFixed(1)} KB`).join(", ")}`);
  ctx.log("sdk: generated client vs raw fetch");
  const rates = await throughput(ctx);
  return {
    entries: [
      entry("sdk: one call bundled (browser, minified, zod included)", Math.round(kb * 10) / 10, `goal ${BUNDLE_GOAL_KB} KB`, BUNDLE_GOAL_KB, "KB"),
      entry("sdk: getWallet throughput, generated client vs raw fetch", Math.round(rates.client), "raw fetch + node:crypto HMAC", Math.round(rates.raw), "calls/s", `goal ratio >= ${THROUGHPUT_GOAL}; median of paired rounds ${rates.pairRatio.toFixed(3)}`),
    ],
    notes: [`sdk bundle by input: ${size.inputs.map(([k, v]) => `${k} ${(v / 1024).toFixed(1)} KB`).join(", ")}`],
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const result = await benchSdk(createContext(process.argv.includes("--quick")));
  console.log(JSON.stringify(result, null, 2));
}
