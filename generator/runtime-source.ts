// Where generated code gets runtime/ from, and the specifiers it writes for it. Every specifier ends
// in ".js", so the output compiles under tsc's NodeNext resolution without allowImportingTsExtensions
// and runs as built JavaScript on plain node.
//   vendor  (default) runtime/ is copied into <out>/runtime: the output needs only zod, undici, ws and
//           @noble/*, never custody itself, and runtime and generated code always match.
//   package imports "custody/runtime" (the built runtime of the installed custody; the client's, the
//           webhooks' and the JSON-RPC client's modules from "custody/runtime/client", "/webhooks" and
//           "/rpc"): one copy of the runtime for a project that depends on custody anyway.
//   local   custody's own generated/: a relative path to this package's runtime/, compiled with it.
import { readdir, readFile } from "node:fs/promises";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import type { EmittedFile } from "./emit/context.ts";
import { importedModules } from "./imported-modules.ts";
import { GENERATED_MARKER } from "./write/output.ts";

export type RuntimeSource = "vendor" | "package" | "local";
export const RUNTIME_SOURCES: readonly RuntimeSource[] = ["vendor", "package", "local"];
export const RUNTIME_PACKAGE_SPECIFIER = "custody/runtime";
/** The client side alone (runtime/client.ts), so a packaged client pulls no server code. */
export const RUNTIME_CLIENT_SPECIFIER = "custody/runtime/client";
/**
 * The entry point of custody that re-exports each runtime module generated code imports outside the
 * server stubs (runtime/client.ts, webhooks.ts, rpc.ts), so a packaged client, webhook verifier or
 * JSON-RPC client pulls no server code; anything else comes from the whole runtime.
 */
const PACKAGE_ENTRY: Readonly<Record<string, string>> = {
  "http/client-call": RUNTIME_CLIENT_SPECIFIER,
  "http/api-promise": RUNTIME_CLIENT_SPECIFIER,
  "http/transport": RUNTIME_CLIENT_SPECIFIER,
  "http/client-log": RUNTIME_CLIENT_SPECIFIER,
  "http/paginate": RUNTIME_CLIENT_SPECIFIER,
  errors: RUNTIME_CLIENT_SPECIFIER,
  "schema/json-schema": RUNTIME_CLIENT_SPECIFIER,
  "schema/formats": RUNTIME_CLIENT_SPECIFIER,
  "webhooks/event": "custody/runtime/webhooks",
  "webhooks/signature": "custody/runtime/webhooks",
  "jsonrpc/call": "custody/runtime/rpc",
  "jsonrpc/client": "custody/runtime/rpc",
  "mcp/index": "custody/runtime/mcp",
  "mcp/tool-table": "custody/runtime/mcp",
};

export function isInside(dir: string, root: string): boolean {
  const rel = relative(root, resolve(dir));
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/** Maps a runtime module name ("client-call", "server/index") to the specifier the output imports. */
export function runtimeSpecifier(
  source: RuntimeSource,
  outDir: string,
  runtimeDir: string,
): (module: string) => string {
  if (source === "package")
    return (module) => (Object.hasOwn(PACKAGE_ENTRY, module) ? PACKAGE_ENTRY[module] : RUNTIME_PACKAGE_SPECIFIER);
  if (source === "vendor") return (module) => `./runtime/${module}.js`;
  const rel = relative(resolve(outDir), runtimeDir).split(sep).join("/");
  const base = rel.startsWith(".") ? rel : `./${rel}`;
  return (module) => `${base}/${module}.js`;
}

/** Relative ".ts" specifiers become ".js" ones (what tsc emits and node loads). */
export function toJsSpecifiers(source: string): string {
  return source.replace(/((?:from|import)\s*\(?\s*")(\.{1,2}\/[^"]+)\.ts(")/g, "$1$2.js$3");
}

async function runtimeSources(dir: string, base = dir): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await runtimeSources(full, base)));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") && !entry.name.endsWith(".test.ts"))
      out.push(relative(base, full).split(sep).join("/"));
  }
  return out.sort();
}

/** runtime/ as files under "runtime/" of the output, each with the generated-file marker. */
export async function vendoredRuntime(
  runtimeDir: string,
  custodyVersion: string,
  keep: (path: string) => boolean = () => true,
): Promise<EmittedFile[]> {
  const files: EmittedFile[] = [];
  for (const path of (await runtimeSources(runtimeDir)).filter(keep)) {
    const text = await readFile(join(runtimeDir, path), "utf8");
    const header = `// ${GENERATED_MARKER}: runtime/${path} of custody ${custodyVersion}, copied. Do not edit by hand.\n`;
    files.push({ path: `runtime/${path}`, content: header + toJsSpecifiers(text) });
  }
  return files;
}

/** npm package names the files import (bare specifiers, "node:" built-ins left out), read from their code. */
export function importedPackages(files: readonly EmittedFile[]): string[] {
  const names = new Set<string>();
  for (const file of files) {
    if (!file.path.endsWith(".ts")) continue;
    for (const spec of importedModules(file.content)) {
      if (spec.startsWith("node:") || spec.startsWith(".") || spec.startsWith("/")) continue;
      const parts = spec.split("/");
      names.add(spec.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]);
    }
  }
  return [...names].sort();
}
