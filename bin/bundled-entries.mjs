// One bundle per entry point of .custody-run/ (bin/compiled-sources.mjs' output), for the commands that
// load most: the sandbox's ~730 modules (viem alone brings 358, of which it uses a few functions) cost
// its thread 1.2-1.6 s of CPU to resolve, read and link, its bundle a third of that; the runner's ~300
// a quarter less (docs/measurements/certify.md). esbuild bundles the ES modules, those of node_modules
// included, and leaves every CommonJS file external, imported by its absolute URL, so node loads it
// as it would unbundled (its require, __dirname and native addons untouched). Each bundled module
// keeps its own URL: `import.meta.url` becomes the URL of the file it was read from, so relative
// paths (workers, templates, createRequire) resolve as before. A bundle is rebuilt when one of the
// files it was made from is newer than it.
//
// A bundle is split where its entry imports on demand (cli/main.ts loads each command so): the entry
// file holds what every run needs and each command's share is a chunk of its own. In one file, every
// run parsed all 3 MB and loaded every CommonJS package any command imports (esbuild hoists external
// imports to the top): `custody --version` cost 0.9 CPU-s, 0.2 split; `custody diff` 1.4, 0.7.
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** Where the bundles live inside .custody-run/ (compiledSources leaves this folder alone). */
export const BUNDLE_DIR = "bundles";

/** A build lock older than this was left by a process that died while bundling. */
const STALE_LOCK_MS = 120_000;

/**
 * A chunk no longer part of its bundle is removed once it is this old: a process started before the
 * rebuild may still import it on demand (a command, a page of the sandbox loaded late).
 */
const STALE_CHUNK_MS = 3_600_000;

/**
 * The bundle of runDir/entry (e.g. "cli/main.js"), up to date; returns the path of its entry file. While
 * another process bundles it, returns the entry itself (the modules, unbundled): one build at a time,
 * and nobody waits. Throws when esbuild cannot bundle it.
 */
export async function bundledEntry(runDir, entry) {
  const dir = join(runDir, BUNDLE_DIR, entry.replace(/\.m?js$/, "").replaceAll("/", "-"));
  const out = join(dir, "entry.mjs");
  const inputsFile = join(dir, "inputs.json");
  if (isFresh(runDir, out, inputsFile)) return out;
  const lock = `${dir}.lock`;
  if (!takeLock(lock)) return join(runDir, entry);
  try {
    await build(runDir, entry, out, inputsFile);
  } finally {
    rmSync(lock, { force: true });
  }
  return out;
}

async function build(runDir, entry, out, inputsFile) {
  const dir = dirname(out);
  const esbuild = createRequire(import.meta.url)("esbuild");
  const result = await esbuild.build({
    entryPoints: { entry: join(runDir, entry) },
    bundle: true,
    format: "esm",
    splitting: true,
    outdir: dir,
    entryNames: "[name]",
    // Named by their content (and their imports'): a chunk of that name already there is this one.
    chunkNames: "chunk-[hash]",
    outExtension: { ".js": ".mjs" },
    platform: "node",
    target: `node${process.versions.node.split(".")[0]}`,
    // Node's own resolution: "main" and the node/import conditions, never a "module" field it ignores.
    mainFields: ["main"],
    conditions: [],
    // Without comments and indentation: node decodes and V8 parses the whole file on every run; this
    // makes it a quarter smaller and all ASCII (non-ASCII in comments made decoding it 4-8 times slower).
    // Names are kept, so stack traces still say which function failed.
    minifyWhitespace: true,
    charset: "ascii",
    legalComments: "none", // a local run cache, never distributed
    write: false,
    metafile: true,
    logLevel: "silent",
    plugins: [unbundledCommonJs(), ownUrls()],
  });
  // This file too: a bundle made with other options is stale.
  const inputs = [
    fileURLToPath(import.meta.url),
    ...Object.keys(result.metafile.inputs).map((p) => join(process.cwd(), p)),
  ];
  // The chunks before the entry that imports them: a process starting meanwhile loads the old entry
  // (whose chunks stay) or the new one, never an entry without its chunks.
  const chunks = result.outputFiles.filter((f) => f.path !== out);
  for (const chunk of chunks) if (!existsSync(chunk.path)) writeAtomically(chunk.path, chunk.contents);
  writeAtomically(out, result.outputFiles.find((f) => f.path === out).contents);
  // The folder too: a moved clone's bundle would name the old place's files.
  writeAtomically(inputsFile, JSON.stringify({ runDir, inputs }));
  removeStaleChunks(dir, new Set(chunks.map((c) => basename(c.path))));
}

/** Chunks of earlier builds that no longer take part, once no process is likely to import them. */
function removeStaleChunks(dir, current) {
  for (const name of readdirSync(dir)) {
    if (!name.startsWith("chunk-") || current.has(name)) continue;
    if (Date.now() - mtime(join(dir, name)) > STALE_CHUNK_MS) rmSync(join(dir, name), { force: true });
  }
}

/** Creates the lock file, or false when another process holds it (a stale one is taken over). */
function takeLock(lock) {
  mkdirSync(dirname(lock), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      closeSync(openSync(lock, "wx"));
      return true;
    } catch (error) {
      if (error?.code !== "EEXIST") throw error;
      if (Date.now() - mtime(lock) < STALE_LOCK_MS) return false;
      rmSync(lock, { force: true });
    }
  }
  return false;
}

function isFresh(runDir, out, inputsFile) {
  const built = mtime(out);
  if (built < 0 || mtime(inputsFile) < 0) return false;
  try {
    const record = JSON.parse(readFileSync(inputsFile, "utf8"));
    return (
      record.runDir === runDir &&
      record.inputs.every((file) => {
        const changed = mtime(file);
        return changed >= 0 && changed <= built;
      })
    );
  } catch {
    return false;
  }
}

/** Resolves each import as esbuild would; a CommonJS file is left to node, by its absolute URL. */
function unbundledCommonJs() {
  return {
    name: "unbundled-commonjs",
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData?.resolving || args.kind === "entry-point") return undefined;
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: { resolving: true },
        });
        if (resolved.errors.length > 0 || resolved.external || isModule(resolved.path)) return resolved;
        return { path: pathToFileURL(resolved.path).href, external: true };
      });
    },
  };
}

/** Each bundled module's import.meta.url (and dirname, filename) is the file it was read from. */
function ownUrls() {
  return {
    name: "own-urls",
    setup(build) {
      build.onLoad({ filter: /\.m?js$/ }, (args) => {
        const text = readFileSync(args.path, "utf8");
        if (!text.includes("import.meta")) return undefined;
        const contents = text
          .replace(/\bimport\.meta\.url\b/g, JSON.stringify(pathToFileURL(args.path).href))
          .replace(/\bimport\.meta\.dirname\b/g, JSON.stringify(dirname(args.path)))
          .replace(/\bimport\.meta\.filename\b/g, JSON.stringify(args.path));
        return { contents, loader: "js" };
      });
    },
  };
}

const moduleScopes = new Map();

/** Whether node loads this file as an ES module: .mjs, or a .js under a package.json of type module. */
function isModule(file) {
  if (file.endsWith(".mjs")) return true;
  if (!file.endsWith(".js")) return file.endsWith(".json"); // JSON is bundled as data; .cjs, .node stay out
  return packageType(dirname(file)) === "module";
}

function packageType(dir) {
  if (moduleScopes.has(dir)) return moduleScopes.get(dir);
  let type;
  const manifest = join(dir, "package.json");
  if (existsSync(manifest)) {
    try {
      type = JSON.parse(readFileSync(manifest, "utf8")).type ?? "commonjs";
    } catch {
      type = "commonjs";
    }
  } else {
    const parent = dirname(dir);
    type = parent === dir ? "commonjs" : packageType(parent);
  }
  moduleScopes.set(dir, type);
  return type;
}

// Another process may bundle at the same moment: each writes its own file, then renames.
function writeAtomically(target, content) {
  mkdirSync(dirname(target), { recursive: true });
  const temp = `${target}.${process.pid}.tmp`;
  writeFileSync(temp, content);
  renameSync(temp, target);
}

function mtime(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return -1;
  }
}
