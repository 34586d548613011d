// `custody init`: the starter config it writes is valid for every command that reads it (each key a
// flag, secrets by variable name), its targets resolve, and --ci github adds a workflow passing
// exactly the secrets the CI target names; nothing is overwritten without --force.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { loadConfig } from "../cli/config-file.ts";
import { withConfig } from "../cli/config-values.ts";
import { run, WORKFLOW_PATH } from "../cli/init.ts";
import { UsageError } from "../cli/usage-error.ts";

const dir = mkdtempSync(join(tmpdir(), "custody-init-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function init(folder: string, argv: string[]): Promise<string> {
  let out = "";
  await run(argv, { cwd: folder, stdout: (t) => (out += t) });
  return out;
}

describe("custody init", () => {
  it("writes a commented starter and the CI workflow, both valid", async () => {
    const folder = join(dir, "yaml");
    const out = await init(folder, ["--ci", "github"]);
    expect(out).toContain("wrote custody.config.yaml\nwrote .github/workflows/custody.yml");
    const text = readFileSync(join(folder, "custody.config.yaml"), "utf8");
    expect(text.match(/^\s*#/gm)?.length).toBeGreaterThan(10);
    const config = loadConfig(join(folder, "custody.config.yaml"), folder);
    expect(Object.keys(config.sdks)).toEqual(["wallet"]);
    expect(Object.keys(config.targets)).toEqual(["staging", "sandbox"]);
    // The staging target resolves once its variables are set; the sandbox target needs none.
    const env = { STAGING_API_KEY: "k", STAGING_API_SECRET: "s", STAGING_RPC_API_KEY: "r" };
    expect(withConfig({}, config, "certify", { kind: "targets", name: "staging" }, env)).toMatchObject({
      "api-secret": "s",
      level: "seed",
      "timeout-ms": "15000",
      json: join(folder, "reports/staging.json"),
    });
    expect(withConfig({}, config, "certify", { kind: "targets", name: "sandbox" }, {})).toMatchObject({
      sandbox: true,
    });
    const workflow = parse(readFileSync(join(folder, WORKFLOW_PATH), "utf8")) as {
      jobs: { certify: { steps: Array<{ with?: Record<string, string>; env?: Record<string, string> }> } };
    };
    const step = workflow.jobs.certify.steps.find((s) => s.with?.target);
    expect(step?.with).toEqual({ target: "staging" });
    expect(step?.env).toEqual({
      STAGING_API_KEY: "${{ secrets.STAGING_API_KEY }}",
      STAGING_API_SECRET: "${{ secrets.STAGING_API_SECRET }}",
      STAGING_RPC_API_KEY: "${{ secrets.STAGING_RPC_API_KEY }}",
    });
  });

  it("refuses to overwrite without --force, naming the files", async () => {
    const folder = join(dir, "yaml");
    await expect(init(folder, ["--ci", "github"])).rejects.toThrow(
      new UsageError("custody.config.yaml and .github/workflows/custody.yml already exist; --force overwrites"),
    );
    expect(await init(folder, ["--force"])).toContain("wrote custody.config.yaml");
  });

  it("writes the same settings as JSON with --format json", async () => {
    const folder = join(dir, "json");
    await init(folder, ["--format", "json"]);
    const json = loadConfig(join(folder, "custody.config.json"), folder);
    const yaml = loadConfig(join(dir, "yaml", "custody.config.yaml"), join(dir, "yaml"));
    expect({ ...json, file: "", dir: "" }).toEqual({ ...yaml, file: "", dir: "" });
    await expect(init(folder, ["--format", "toml"])).rejects.toThrow("--format must be yaml or json, not 'toml'");
    await expect(init(folder, ["--ci", "gitlab"])).rejects.toThrow("--ci: only github is supported, not 'gitlab'");
  });

  it("asks on a terminal for the target's settings it was not given (Enter skips one) and writes the answers in", async () => {
    const folder = join(dir, "asked");
    const questions: string[] = [];
    const answers: Record<string, string> = { "base-url": "https://wallet.test", "wallet-id": "1001" };
    await run(["--rpc-url", "https://node.test"], {
      cwd: folder,
      stdout: () => undefined,
      ask: async (q) => (questions.push(q), answers[q.trim().split(" ")[0]] ?? ""),
    });
    expect(questions.map((q) => q.trim().split(" ")[0])).not.toContain("rpc-url");
    expect(questions.map((q) => q.trim().split(" ")[0])).toContain("delivery-id");
    const config = loadConfig(join(folder, "custody.config.yaml"), folder);
    expect(config.targets.staging).toMatchObject({
      "base-url": "https://wallet.test",
      "rpc-url": "https://node.test",
      "wallet-id": "1001",
    });
    expect(config.targets.staging).not.toHaveProperty("delivery-id");
  });
});
