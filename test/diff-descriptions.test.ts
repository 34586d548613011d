// Documents that differ only in text an SDK user reads: each description or summary change is one
// info change naming its pointer, and --fail-on breaking still exits 0.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { baseSpec, diffOf } from "./diff/helpers.ts";

type Doc = ReturnType<typeof baseSpec>;

/** One operation's, one schema's and one parameter's description changed. */
function reworded(d: Doc): void {
  d.paths["/wallets"].post.description = "Creates a wallet (now with MPC).";
  d.components.schemas.CreateWallet.description = "What a new wallet needs.";
  d.paths["/wallets/{id}"].get.parameters[0].description = "Include balances.";
}

const brief = (r: ReturnType<typeof diffOf>) =>
  r.changes.map((c) => [c.level, c.id, c.where, c.oldPointer, c.newPointer]);

describe("custody diff: descriptions", () => {
  it("an operation's, a schema's and a parameter's description: three info changes with their pointers", () => {
    const r = diffOf(reworded);
    expect(brief(r)).toEqual([
      [
        "info",
        "request-parameter-description-changed",
        "GET /wallets/{id}",
        "/paths/~1wallets~1{id}/get/parameters/0",
        "/paths/~1wallets~1{id}/get/parameters/0/description",
      ],
      [
        "info",
        "api-description-changed",
        "POST /wallets",
        "/paths/~1wallets/post",
        "/paths/~1wallets/post/description",
      ],
      [
        "info",
        "request-body-description-changed",
        "POST /wallets",
        "/components/schemas/CreateWallet",
        "/components/schemas/CreateWallet/description",
      ],
    ]);
    expect(r.summary).toMatchObject({ breaking: 0, warning: 0, info: 3, semver: "patch" });
  });

  it("a summary and a property's description reworded; unchanged text is no change", () => {
    const base = baseSpec();
    base.paths["/wallets"].post.summary = "Create a wallet";
    base.components.schemas.CreateWallet.properties.name.description = "Shown in the console.";
    const r = diffOf((d) => {
      d.paths["/wallets"].post.summary = "Create an MPC wallet";
      d.components.schemas.CreateWallet.properties.name.description = "Shown in the console and in reports.";
    }, base);
    expect(brief(r)).toEqual([
      [
        "info",
        "api-summary-changed",
        "POST /wallets",
        "/paths/~1wallets/post/summary",
        "/paths/~1wallets/post/summary",
      ],
      [
        "info",
        "request-property-description-changed",
        "POST /wallets",
        "/components/schemas/CreateWallet/properties/name/description",
        "/components/schemas/CreateWallet/properties/name/description",
      ],
    ]);
    expect(diffOf(() => {}, base).changes).toEqual([]);
  });

  it("the CLI lists them and exits 0 with --fail-on breaking", () => {
    const dir = mkdtempSync(join(tmpdir(), "custody-diff-text-"));
    try {
      const next = baseSpec();
      reworded(next);
      writeFileSync(join(dir, "old.json"), JSON.stringify(baseSpec()));
      writeFileSync(join(dir, "new.json"), JSON.stringify(next));
      const run = spawnSync(
        process.execPath,
        ["bin/custody.js", "diff", join(dir, "old.json"), join(dir, "new.json"), "--fail-on", "breaking"],
        { encoding: "utf8" },
      );
      expect(run.status).toBe(0);
      expect(run.stdout).toContain("summary: 0 breaking, 0 warning, 3 info");
      expect(run.stdout).toContain("new.json#/paths/~1wallets/post/description");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
