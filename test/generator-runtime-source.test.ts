// Where generated code gets runtime/ from: vendored (default outside custody), "custody/runtime",
// or custody's own runtime/ for its generated/; and --package's package.json.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate, parsePackageSpec } from "../generator/index.ts";
import { importedPackages, toJsSpecifiers } from "../generator/runtime-source.ts";

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "custody-runtime-source-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const SPEC = { specPath: "spec/openapi.yaml", rpcSpecPath: "spec/openrpc.json" };

/** Every module specifier of a TypeScript file. */
function specifiers(text: string): string[] {
  return [...text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+"([^"]+)"/gm)].map((m) => m[1]);
}

describe("generate outside custody", () => {
  it("vendors runtime/ by default: relative .js specifiers that stay inside the output", async () => {
    const out = join(work, "vendored");
    const result = await generate({ ...SPEC, outDir: out });
    const paths = result.files.map((f) => f.path);
    expect(paths).toContain("runtime/http/client.ts");
    expect(paths).toContain("runtime/server/router.ts");
    for (const path of paths.filter((p) => p.endsWith(".ts"))) {
      const text = await readFile(join(out, path), "utf8");
      const depth = path.split("/").length - 1;
      for (const spec of specifiers(text)) {
        if (!spec.startsWith(".")) continue;
        expect(spec, `${path}: ${spec}`).toMatch(/\.js$/);
        // never climbs out of the output folder (so never into a custody checkout)
        expect(spec.split("/").filter((s) => s === "..").length, `${path}: ${spec}`).toBeLessThanOrEqual(depth);
      }
    }
    expect(await readFile(join(out, "client.ts"), "utf8")).toContain('from "./runtime/http/client-call.js"');
  });

  it("--runtime package imports custody/runtime and writes no runtime/", async () => {
    const out = join(work, "packaged");
    const result = await generate({ ...SPEC, outDir: out, runtime: "package" });
    expect(result.files.some((f) => f.path.startsWith("runtime/"))).toBe(false);
    // Client, schemas, webhooks and JSON-RPC import only their side of the runtime; the server stubs the whole runtime.
    const entries = async (file: string) =>
      [
        ...new Set([...(await readFile(join(out, file), "utf8")).matchAll(/from "(custody[^"]*)"/g)].map((m) => m[1])),
      ].sort();
    expect(await entries("client.ts")).toEqual(["custody/runtime/client"]);
    expect(await entries("schemas.ts")).toEqual(["custody/runtime/client"]);
    expect(await entries("index.ts")).toEqual(["custody/runtime/client"]);
    expect(await entries("webhooks.ts")).toEqual(["custody/runtime/webhooks"]);
    expect(await entries("rpc.ts")).toEqual(["custody/runtime/rpc"]);
    expect(await entries("server.ts")).toEqual(["custody/runtime"]);
    // Each of those entry points exists in custody's exports.
    const exported = Object.keys(JSON.parse(await readFile("package.json", "utf8")).exports as Record<string, unknown>);
    expect(exported).toEqual(
      expect.arrayContaining(["./runtime", "./runtime/client", "./runtime/webhooks", "./runtime/rpc"]),
    );
  });

  it("refuses a local runtime for output outside custody", async () => {
    await expect(generate({ ...SPEC, outDir: join(work, "local"), runtime: "local" })).rejects.toThrow(
      /only for output inside custody/,
    );
  });

  it("--package writes package.json with the imported packages' ranges, tsconfig.json and README.md", async () => {
    const out = join(work, "sdk");
    const result = await generate({ ...SPEC, outDir: out, package: parsePackageSpec("@acme/wallet-sdk@2.0.1") });
    expect(result.files.map((f) => f.path)).toEqual(
      expect.arrayContaining(["package.json", "tsconfig.json", "README.md", "src/client.ts", "src/runtime/errors.ts"]),
    );
    const pkg = JSON.parse(await readFile(join(out, "package.json"), "utf8"));
    const own = JSON.parse(await readFile("package.json", "utf8"));
    expect(pkg).toMatchObject({
      name: "@acme/wallet-sdk",
      version: "2.0.1",
      type: "module",
      exports: { ".": { types: "./dist/index.d.ts", default: "./dist/index.js" } },
    });
    expect(Object.keys(pkg.dependencies).sort()).toEqual(["@noble/ed25519", "@noble/hashes", "undici", "ws", "zod"]);
    expect(pkg.dependencies.zod).toBe(own.dependencies.zod);
    // The runtime types what it uses of ws itself (rpc-socket.ts): TypeScript needs no @types/ws.
    expect(Object.keys(pkg.devDependencies)).toEqual(["@types/node", "typescript"]);
    // Built without the DOM library (test/ship-pack.test.ts and the SDK guide build it so).
    const tsconfig = JSON.parse(await readFile(join(out, "tsconfig.json"), "utf8"));
    expect(tsconfig.compilerOptions).toMatchObject({ lib: ["ES2022"], types: ["node"], strict: true });
    const readme = await readFile(join(out, "README.md"), "utf8");
    for (const dep of Object.keys(pkg.dependencies)) expect(readme).toContain(`\`${dep}\``);
    expect(readme).toMatch(/## Webhook verification/);
    expect(readme).toMatch(/## JSON-RPC/);
    expect(readme).not.toMatch(/MCP|-mcp/); // generated without --mcp: no server, no word of one
    // Regenerating changes nothing, and --check says so.
    const again = await generate({
      ...SPEC,
      outDir: out,
      package: parsePackageSpec("@acme/wallet-sdk@2.0.1"),
      check: true,
    });
    expect(again.files.filter((f) => f.changed)).toEqual([]);
  });

  it("--package with --mcp: the README says how to start the bin and that it is read-only by default", async () => {
    const out = join(work, "sdk-mcp");
    await generate({ ...SPEC, outDir: out, package: parsePackageSpec("@acme/wallet-sdk@2.0.1"), mcp: true });
    const pkg = JSON.parse(await readFile(join(out, "package.json"), "utf8"));
    expect(pkg.bin).toEqual({ "wallet-sdk-mcp": "./dist/mcp.js" });
    const readme = await readFile(join(out, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## MCP server for AI agents"), readme.indexOf("## Reference"));
    expect(section).toContain("npx wallet-sdk-mcp\n");
    expect(section).toContain("CUSTODY_BASE_URL=https://… CUSTODY_API_KEY=… CUSTODY_API_SECRET=… npx wallet-sdk-mcp");
    expect(section).toMatch(/read-only by default/);
    for (const flag of ["--allow-writes", "--allow-funds", "--help"]) expect(section).toContain(flag);
    // Every flag it names is one the bin takes, and it links nowhere.
    const { parseMcpArgs } = await import("../runtime/mcp/main.ts");
    for (const [flag] of section.matchAll(/--[a-z-]+/g))
      expect(() => parseMcpArgs(flag === "--audit-log" ? [flag, "f"] : [flag]), flag).not.toThrow(/Unknown option/);
    expect(section).not.toMatch(/\]\(|https?:\/\/(?!…)/);
  });

  it("parsePackageSpec names a bad name or version in one line", () => {
    expect(parsePackageSpec("sdk")).toEqual({ name: "sdk", version: "0.1.0" });
    expect(() => parsePackageSpec("Bad Name")).toThrow(/not a valid npm package name/);
    expect(() => parsePackageSpec("sdk@latest")).toThrow(/not a version/);
  });
});

describe("specifier helpers", () => {
  it("rewrites relative .ts specifiers only", () => {
    expect(
      toJsSpecifiers(
        'import { a } from "./a.ts";\nexport * from "../b/c.ts";\nimport x from "zod";\nconst s = "./d.ts";',
      ),
    ).toBe('import { a } from "./a.js";\nexport * from "../b/c.js";\nimport x from "zod";\nconst s = "./d.ts";');
  });
  it("lists bare imports as package names, not strings that look like them", () => {
    const files = [
      {
        path: "x.ts",
        content:
          'import { sha512 } from "@noble/hashes/sha2.js";\nimport type { z } from "zod";\nimport { x } from "node:fs";\nconst der = Buffer.from("302a3005", "hex");\n',
      },
    ];
    expect(importedPackages(files)).toEqual(["@noble/hashes", "zod"]);
    // A lazy import tsc is not asked to resolve (rpc-socket.ts) is still a dependency.
    expect(importedPackages([{ path: "y.ts", content: 'const m = await import("ws" as string);\n' }])).toEqual(["ws"]);
    // Text in comments, strings and templates is never an import, however it reads.
    const prose = [
      '/** Short-lived token returned from "getPluginPaymentTokenAsync" in the plugin payments API */',
      'export const a = "import(\\"evil\\") from \\"x\\"";',
      'export const b = `from "y" ${\'import("z")\'}`;',
      '// export * from "w";',
      'import { z } from "zod";',
    ].join("\n");
    expect(importedPackages([{ path: "p.ts", content: prose }])).toEqual(["zod"]);
  });
});
