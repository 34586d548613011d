// `custody generate --check` on drift also says what the spec change means for the SDK's users: the
// spec generated/ was made from is found in git by the sha256 its headers record.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";

const CLI = resolve("bin/custody.js");
const generate = (cwd: string, ...args: string[]) =>
  spawnSync(process.execPath, [CLI, "generate", "--spec", "spec.yaml", "--out", "gen", "--no-rpc", ...args], {
    cwd,
    encoding: "utf8",
  });

/** The first project's generated/ (the same spec gives the same files, wherever they are written). */
let firstGenerated: string | undefined;

const projects: string[] = [];
afterAll(() => {
  for (const dir of projects) rmSync(dir, { recursive: true, force: true });
});

function project(withGit: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), "custody-surface-"));
  projects.push(dir);
  writeFileSync(join(dir, "spec.yaml"), readFileSync("spec/openapi.yaml", "utf8"));
  if (withGit) {
    const git = (...a: string[]) => execFileSync("git", a, { cwd: dir, stdio: "ignore" });
    git("init", "-q");
    git("-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", "empty");
    git("add", "spec.yaml");
    git("-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "-m", "spec");
  }
  if (firstGenerated) cpSync(firstGenerated, join(dir, "gen"), { recursive: true });
  else {
    expect(generate(dir).status).toBe(0);
    firstGenerated = join(dir, "gen");
  }
  const spec = parse(readFileSync(join(dir, "spec.yaml"), "utf8"));
  delete spec.paths["/api/v1/health"];
  writeFileSync(join(dir, "spec.yaml"), stringify(spec));
  return dir;
}

describe("custody generate --check: SDK surface summary", () => {
  it("diffs against the committed spec generated/ was made from", () => {
    const r = generate(project(true), "--check");
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("SDK surface: 1 breaking, 0 warning, 0 info → semver major");
    expect(r.stderr).toMatch(/spec\.yaml: compared with [0-9a-f]{7,}/);
    expect(r.stderr).toContain("breaking api-path-removed-without-deprecation GET /api/v1/health");
  });

  it("outside git, says why there is no summary", () => {
    const r = generate(project(false), "--check");
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("is not in git's last 50 commits; no surface diff");
  });
});
