// The catalog's contract: stable, well-formed ids; one group per id prefix; a seed reference on
// every check; conformance/ never imports the reference deployment; every testable seed statement
// of spec/trace.yaml has a check.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { CATALOG } from "../conformance/checks/catalog.ts";
import { TRACE } from "../conformance/checks/trace.ts";
import { GROUPS } from "../conformance/checks/types.ts";

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith(".ts") ? [path] : [];
  });
}

describe("check catalog", () => {
  it("has unique ids of the form <group>.<name> whose prefix is the group", () => {
    const ids = CATALOG.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const check of CATALOG) {
      expect(check.id).toMatch(/^[a-z]+\.[a-z0-9.-]+$/);
      expect(check.id.split(".")[0]).toBe(check.group);
      expect(GROUPS).toContain(check.group);
    }
  });

  it("gives every check a title, a severity, a level and a seed reference", () => {
    for (const check of CATALOG) {
      expect(check.title.length, check.id).toBeGreaterThan(10);
      expect(["MUST", "SHOULD"]).toContain(check.severity);
      expect(["seed", "full"]).toContain(check.level);
      expect(check.seedRef, check.id).toMatch(/§|assumed/);
    }
  });

  it("cites a seed sentence for every check of --level seed: statements declared, no assumed choice", () => {
    // Seed level judges only what the seed states; a choice the seed leaves open is a full-level check
    // (docs/explanation/certify-seed-level.md). Every seed-level check, SHOULDs included, names the
    // spec/trace.yaml statements it enforces, and its seed reference cites no assumption.
    const seed = CATALOG.filter((c) => c.level === "seed");
    expect(seed.filter((c) => (c.statements ?? []).length === 0).map((c) => c.id)).toEqual([]);
    expect(seed.filter((c) => /assumed/i.test(c.seedRef)).map((c) => c.id)).toEqual([]);
    expect(seed.filter((c) => !c.seedRef.includes("§")).map((c) => c.id)).toEqual([]);
  });

  it("orders checks only after checks that exist", () => {
    const ids = new Set(CATALOG.map((c) => c.id));
    for (const check of CATALOG)
      for (const after of [...(check.after ?? []), ...(check.afterAtSeed ?? [])])
        expect(ids, `${check.id} after ${after}`).toContain(after);
  });

  it("covers every group and includes the checks the issue names", () => {
    // The fuzz group's checks are made per run from the operation table (certify --fuzz N).
    for (const group of GROUPS.filter((g) => g !== "fuzz"))
      expect(
        CATALOG.some((c) => c.group === group),
        group,
      ).toBe(true);
    const ids = new Set(CATALOG.map((c) => c.id));
    for (const id of [
      "envelope.success-shape",
      "auth.missing-access-sign",
      "auth.stale-timestamp",
      "auth.future-timestamp",
      "auth.timestamp-milliseconds",
      "auth.uppercase-hex",
      "auth.body-tampered",
      "auth.identical-401",
      "auth.query-not-signed",
      "auth.window-edge",
      "scope.balances-read-only",
      "role.viewer-cannot-withdraw",
      "webhooks.verification-key",
      "webhooks.delivery-signature",
      "webhooks.tampered-body-rejected",
      "webhooks.resend-same-event",
      "webhooks.delete-stops-delivery",
      "lifecycle.wallet-creation",
      "lifecycle.deposit-confirmation",
      "lifecycle.withdrawal-receipt",
      "rpc.http-block-number",
      "rpc.ws-immediate-request",
      "rpc.substrate-client",
      "rpc.unauthorized",
      "rpc.errors.parse",
    ]) {
      expect(ids, id).toContain(id);
    }
  });
});

describe("layering", () => {
  it("has no import cycle inside conformance/ (type imports included)", () => {
    const files = filesUnder("conformance").map((f) => f.replace(/\\/g, "/"));
    const edges = new Map<string, string[]>();
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      const targets = [...text.matchAll(/(?:from|import\()\s*["'](\.[^"']+\.ts)["']/g)].map((m) =>
        join(file, "..", m[1]).replace(/\\/g, "/"),
      );
      edges.set(
        file,
        targets.filter((t) => files.includes(t)),
      );
    }
    const cycles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === "done") return;
      if (state.get(file) === "open") {
        cycles.push([...path.slice(path.indexOf(file)), file].join(" → "));
        return;
      }
      state.set(file, "open");
      for (const next of edges.get(file) ?? []) visit(next, [...path, file]);
      state.set(file, "done");
    };
    for (const file of files) visit(file, []);
    expect(cycles).toEqual([]);
  });

  it("conformance/ never imports reference/", () => {
    for (const file of filesUnder("conformance")) {
      const text = readFileSync(file, "utf8");
      expect(text, file).not.toMatch(/from\s+["'][^"']*reference\//);
      expect(text, file).not.toMatch(/import\(\s*["'][^"']*reference\//);
    }
  });
});

describe("traceability", () => {
  const trace = parse(readFileSync("spec/trace.yaml", "utf8")) as {
    statements: Array<{ id: string; testable: boolean; checks?: string[] }>;
  };
  const catalogIds = new Set(CATALOG.map((c) => c.id));

  it("maps every testable seed statement to at least one check", () => {
    const missing = trace.statements.filter((s) => s.testable && !(TRACE[s.id]?.length > 0)).map((s) => s.id);
    expect(missing).toEqual([]);
  });

  it("names only checks of the catalog and statements of the trace", () => {
    const statementIds = new Set(trace.statements.map((s) => s.id));
    for (const [statement, checks] of Object.entries(TRACE)) {
      expect(statementIds, statement).toContain(statement);
      for (const id of checks) expect(catalogIds, `${statement} → ${id}`).toContain(id);
    }
  });

  it("agrees with the checks spec/trace.yaml lists (write them with `npx tsx conformance/checks/trace.ts --write-spec`)", () => {
    for (const s of trace.statements) {
      if (!s.checks || s.checks.length === 0) continue;
      expect([...s.checks].sort(), s.id).toEqual([...(TRACE[s.id] ?? [])].sort());
    }
  });

  it("leaves no check untraced unless it tests a decision of the spec (seed ref says assumed)", () => {
    const traced = new Set(Object.values(TRACE).flat());
    const untraced = CATALOG.filter((c) => !traced.has(c.id) && !c.seedRef.includes("assumed")).map((c) => c.id);
    expect(untraced).toEqual([]);
  });
});
