// `custody diff` as a user runs it: exit codes, the four formats, git:REF:path, bad input in one line.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { parseDiffArgs } from "../cli/diff.ts";
import { baseSpec } from "./diff/helpers.ts";

const dir = mkdtempSync(join(tmpdir(), "custody-diff-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, doc: unknown, yaml = true): string => {
  const file = join(dir, name);
  writeFileSync(file, yaml ? stringify(doc) : JSON.stringify(doc));
  return file;
};
const old = write("old.yaml", baseSpec());
const same = write("same.json", baseSpec(), false);
const breaking = (() => {
  const d = baseSpec();
  delete d.paths["/wallets"].get;
  return write("breaking.yaml", d);
})();
const warning = (() => {
  const d = baseSpec();
  delete d.components.schemas.Wallet.allOf[1].properties.label;
  return write("warning.yaml", d);
})();

function custody(...args: string[]) {
  const r = spawnSync(process.execPath, ["bin/custody.js", "diff", ...args], { encoding: "utf8" });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe("custody diff (CLI)", () => {
  it("exit 0 with no change at or above --fail-on, 1 with one", () => {
    expect(custody(old, same).code).toBe(0);
    const r = custody(old, breaking);
    expect(r.code).toBe(1);
    expect(r.out).toContain("breaking api-removed-without-deprecation  GET /wallets");
    expect(r.out).toContain(`old: ${old}#/paths/~1wallets/get`);
    expect(r.out).toContain("summary: 1 breaking, 0 warning, 0 info → semver major");
    expect(custody(old, warning).code).toBe(0);
    expect(custody(old, warning, "--fail-on", "warning").code).toBe(1);
  });

  it("--fail-on none reports a breaking change and exits 0 (a report step that must not stop the job)", () => {
    const r = custody(old, breaking, "--format", "markdown", "--fail-on", "none");
    expect(r.code).toBe(0);
    expect(r.out).toContain("| breaking | `api-removed-without-deprecation` | GET /wallets |");
    const junit = custody(old, breaking, "--format", "junit", "--fail-on", "none").out;
    expect(junit).toContain('failures="0"');
    expect(junit).not.toContain("<failure");
  });

  it("json, markdown and junit", () => {
    const json = JSON.parse(custody(old, breaking, "--format", "json").out);
    expect(json.summary).toEqual({ breaking: 1, warning: 0, info: 0, semver: "major" });
    expect(json.changes[0]).toEqual({
      id: "api-removed-without-deprecation",
      level: "breaking",
      where: "GET /wallets",
      old: "/paths/~1wallets/get",
      new: "/paths/~1wallets",
      message: "the operation GET /wallets was removed",
    });
    const md = custody(old, breaking, "--format=markdown").out;
    expect(md).toContain("## API changes: 1 breaking, 0 warning, 0 info (semver major)");
    expect(md).toContain("| breaking | `api-removed-without-deprecation` | GET /wallets |");
    const junit = custody(old, warning, "--format", "junit", "--fail-on", "warning").out;
    expect(junit).toMatch(/^<\?xml/);
    expect(junit).toContain('failures="4"');
    expect(junit).toContain('<failure type="warning"');
  });

  it("reads git:REF:path", () => {
    const r = custody("git:HEAD:spec/openapi.yaml", "spec/openapi.yaml", "--format", "json");
    expect(r.err).toBe("");
    expect([0, 1]).toContain(r.code);
    expect(JSON.parse(r.out).old.openapi).toBe("git:HEAD:spec/openapi.yaml");
    const missing = custody("git:HEAD:no/such.yaml", "spec/openapi.yaml");
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/git:HEAD:no\/such\.yaml: cannot read it with git: /);
  });

  it("JSON-RPC documents with --rpc-old/--rpc-new", () => {
    const rpc = JSON.parse(execFileSync("git", ["show", "HEAD:spec/openrpc.json"], { encoding: "utf8" }));
    const first = rpc.methods.shift().name;
    const r = custody("--rpc-old", "spec/openrpc.json", "--rpc-new", write("rpc.json", rpc, false));
    expect(r.code).toBe(1);
    expect(r.out).toContain(`rpc-method-removed  rpc ${first}`);
    expect(r.out).toContain("old: spec/openrpc.json#/methods/0");
  });

  it("exit 2 for bad usage and unreadable documents, with one clear line", () => {
    expect(custody(old).code).toBe(2);
    expect(custody(old, same, "--format", "xml").err).toContain(
      "--format must be one of text, markdown, json, junit, not 'xml'",
    );
    expect(custody(old, same, "--rpc-old", old).err).toContain("--rpc-old and --rpc-new go together");
    const nothing = custody(old, join(dir, "missing.yaml"));
    expect(nothing.code).toBe(2);
    expect(nothing.err).toContain("missing.yaml: file not found");
    const dangling = baseSpec();
    dangling.paths["/wallets"].get.responses["200"].content["application/json"].schema = {
      $ref: "#/components/schemas/Nope",
    };
    const bad = custody(old, write("dangling.yaml", dangling));
    expect(bad.code).toBe(2);
    expect(bad.err).toContain(
      'dangling.yaml#/paths/~1wallets/get/responses/200/content/application~1json/schema/$ref: $ref "#/components/schemas/Nope" points to nothing',
    );
    expect(bad.err).not.toMatch(/\n\s+at /);
  });

  it("--validate runs the OpenAPI schema validation", () => {
    const invalid = baseSpec();
    invalid.paths["/wallets"].get.responses = "nope";
    const file = write("invalid.yaml", invalid);
    const r = custody(old, file, "--validate");
    expect(r.code).toBe(2);
    expect(r.err).toContain("invalid.yaml#/paths/~1wallets/get/responses");
  });

  it("parses flags", () => {
    expect(parseDiffArgs(["a", "b", "--fail-on", "warning", "--format", "junit"])).toMatchObject({
      old: "a",
      new: "b",
      failOn: "warning",
      format: "junit",
    });
    expect(() => parseDiffArgs(["a", "b", "--fail-on", "info"])).toThrow(/--fail-on must be breaking, warning or none/);
    expect(parseDiffArgs(["a", "b", "--fail-on", "none"]).failOn).toBe("none");
  });
});
