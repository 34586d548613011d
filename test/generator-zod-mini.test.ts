// `custody generate --zod mini` validates exactly as the default (classic zod). This contract is
// generated both ways as packages, each built with plain tsc; the compiled validators of both agree
// (accept or reject, and the parsed value) on the differential test's instances (scripts/differential.ts)
// and on parameter texts; the mini package's wire tests pass and its client bundles without classic zod.
// The fixture documents (every keyword the generator expresses; two public APIs) agree as well (their
// mini output compiles strict in test/generator-compile.test.ts's tsc program). The counts of instances
// here are defaults; test/generator-zod-mini.scale.test.ts compares the same documents at large counts.
// The flag is also a key of custody.config.yaml's sdks.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../cli/config-file.ts";
import { generateRuns, parseGenerateArgs } from "../cli/generate.ts";
import { renderFiles, type ZodFlavour } from "../generator/index.ts";
import type { SpecModel } from "../generator/model/types.ts";
import { contractPackage } from "./support/contract-package.ts";
import { type Counts, compare, importModule, MINI_FIXTURES } from "./support/zod-agreement.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** Instances per component, per parameter schema, and drawn for every other schema (the scale file: 30, 60, 120). */
const COUNTS: Counts = { perComponent: 10, perParameters: 20, sample: 40 };

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(ROOT, ".tmp-zod-mini-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

function run(args: string[], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    execFile(process.execPath, args, { cwd, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      done({ code: error ? 1 : 0, output: `${stdout}${stderr}` });
    });
  });
}

describe("this contract, as packages built with plain tsc", () => {
  const dirs: Record<ZodFlavour, string> = { classic: "", mini: "" };
  const builds: Partial<Record<ZodFlavour, { code: number; output: string }>> = {};

  beforeAll(async () => {
    // Built once per run in one tsc process (test/support/contract-package.ts), shared with test/sdk-runtimes.test.ts.
    const [classic, mini] = await Promise.all([contractPackage("classic"), contractPackage("mini")]);
    Object.assign(builds, { classic, mini });
    Object.assign(dirs, { classic: classic.dir, mini: mini.dir });
  }, 300_000);

  it("both build; mini's sources import zod/mini and never classic zod", async () => {
    expect(builds.classic?.output).toBe("");
    expect(builds.mini?.output).toBe("");
    for (const file of ["schemas.ts", "webhooks.ts", "rpc.ts"]) {
      const text = await readFile(join(dirs.mini, "src", file), "utf8");
      expect(text, file).toContain('import * as z from "zod/mini";');
      expect(text, file).not.toMatch(/from "zod"/);
    }
  });

  it("the compiled validators agree on every instance", async () => {
    const load = async (zod: ZodFlavour) => importModule(join(dirs[zod], "dist/schemas.js"));
    const { model } = await renderFiles({ specPath: join(ROOT, "spec/openapi.yaml"), outDir: join(work, "unused") });
    const { agreement, ajv } = compare(model, await load("classic"), await load("mini"), COUNTS);
    expect(agreement.disagreements).toEqual([]);
    expect(ajv).toEqual([]);
    expect(agreement.compared).toBeGreaterThan(20_000);
  });

  it("the mini package's wire tests pass", async () => {
    const wire = await run(["--test", "test/wire.test.js"], dirs.mini);
    expect(wire.code, wire.output).toBe(0);
    expect(wire.output).toMatch(/# fail 0/);
    expect(wire.output).toMatch(/# pass [1-9]/);
  });

  it("one call of the mini client bundles zod/mini and none of classic zod", async () => {
    // The entries live in this file's folder: the packages' folders are shared with other test files.
    const client = `new CustodialWalletServiceClient({ baseUrl: "https://w.example", apiKey: "k", apiSecret: "s" })`;
    const call = `${client}.getWalletOverview({ params: { wallet_id: "w" } });`;
    const entryOf = async (zod: ZodFlavour) => {
      const file = join(work, `entry-${zod}.ts`);
      const from = JSON.stringify(join(dirs[zod], "src/client.ts"));
      await writeFile(file, `import { CustodialWalletServiceClient } from ${from};\n${call}\n`);
      return file;
    };
    const entry = await entryOf("mini");
    const inputsOf = async (file: string) => {
      const options = { bundle: true, minify: true, platform: "browser", format: "esm", write: false } as const;
      const result = await build({ entryPoints: [file], ...options, metafile: true, logLevel: "silent" });
      return Object.keys(result.metafile.inputs);
    };
    const inputs = await inputsOf(entry);
    expect(inputs.some((p) => p.includes("node_modules/zod/v4/mini/"))).toBe(true);
    expect(inputs.filter((p) => p.includes("node_modules/zod/v4/classic/"))).toEqual([]);
    // The same check on the default output finds classic zod: it can fail.
    expect((await inputsOf(await entryOf("classic"))).some((p) => p.includes("node_modules/zod/v4/classic/"))).toBe(
      true,
    );
  });
});

describe("fixture documents: every keyword, two public APIs", () => {
  const out = (zod: ZodFlavour, name: string) => join(work, "fixtures", zod, name);
  const models = new Map<string, SpecModel>();

  beforeAll(async () => {
    for (const name of MINI_FIXTURES) {
      for (const zod of ["classic", "mini"] as const) {
        const dir = out(zod, name);
        const specPath = join(ROOT, "test/fixtures/specs", `${name}.yaml`);
        // runtime/ itself (not a copy per fixture): only the schemas are compared here.
        const { model, files } = await renderFiles({ specPath, outDir: dir, zod, runtime: "local" });
        for (const f of files) {
          await mkdir(join(dir, f.path, ".."), { recursive: true });
          await writeFile(join(dir, f.path), f.content);
        }
        models.set(name, model);
      }
    }
  });

  for (const name of MINI_FIXTURES) {
    it(`${name}: mini and classic agree`, async () => {
      const load = async (zod: ZodFlavour) => importModule(resolve(out(zod, name), "schemas.ts"));
      const { agreement, ajv } = compare(models.get(name)!, await load("classic"), await load("mini"), COUNTS);
      expect(agreement.disagreements).toEqual([]);
      expect(ajv).toEqual([]);
      expect(agreement.compared).toBeGreaterThan(100);
    });
  }

  it("the comparison finds a validator that differs (a `not` that accepts everything)", async () => {
    const load = async (zod: ZodFlavour) => importModule(resolve(out(zod, "keywords"), "schemas.ts"));
    const acceptsAll = { safeParse: (value: unknown) => ({ success: true, data: value }) };
    const mini = { ...(await load("mini")), NotSchema: acceptsAll };
    const { agreement } = compare(models.get("keywords")!, await load("classic"), mini, COUNTS);
    expect(agreement.disagreements.some((d) => d.schema === "NotSchema")).toBe(true);
  });
});

describe("the flag and the config key", () => {
  it("--zod classic|mini; anything else is one line", () => {
    expect(parseGenerateArgs(["--zod", "mini"]).zod).toBe("mini");
    expect(parseGenerateArgs([]).zod).toBeUndefined();
    expect(() => parseGenerateArgs(["--zod", "tiny"])).toThrow(/^--zod must be classic or mini, got 'tiny'$/);
  });

  it("sdks.NAME.zod in custody.config.yaml, under the flag", async () => {
    const dir = join(work, "config");
    await mkdir(dir, { recursive: true });
    const file = join(dir, "custody.config.yaml");
    await writeFile(file, "sdks:\n  web:\n    out: web\n    zod: mini\n  node:\n    out: node\n");
    const config = loadConfig(file, dir);
    expect(generateRuns({}, config).map((r) => [r.name, r.args.zod])).toEqual([
      ["web", "mini"],
      ["node", undefined],
    ]);
    expect(generateRuns({ sdk: ["web"], zod: "classic" }, config)[0].args.zod).toBe("classic");
    await writeFile(file, "sdks:\n  web:\n    zod: tiny\n");
    expect(() => generateRuns({}, loadConfig(file, dir))).toThrow(/--zod must be classic or mini, got 'tiny'/);
  });
});
