// spec/trace.yaml: every seed statement points at the spec items that carry it, and every pointer resolves.
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

const read = (file: string) => readFileSync(new URL(`../spec/${file}`, import.meta.url), "utf8");
const trace: any = parse(read("trace.yaml"));
const targets: Record<string, unknown> = {
  "openapi.yaml": parse(read("openapi.yaml"), { maxAliasCount: -1 }),
  "openrpc.json": JSON.parse(read("openrpc.json")),
};
const seedText = read("seed/custodial-wallet-interface.md");
// Where the shared original is present (the workspace this project was built in), the copy must match it.
const SHARED_SEED = new URL("../../shared/seed/custodial-wallet-interface.md", import.meta.url);

/** Resolves "file#/json/pointer" (RFC 6901); undefined when any step is missing. */
function resolvePointer(pointer: string): unknown {
  const [file, fragment] = pointer.split("#");
  let node: any = targets[file];
  if (node === undefined || fragment === undefined || !fragment.startsWith("/")) return undefined;
  for (const raw of fragment.slice(1).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object" || !(key in node)) return undefined;
    node = node[key];
  }
  return node;
}

const statements: any[] = trace.statements;
const gaps: any[] = trace.gaps;

describe("spec/trace.yaml", () => {
  it("names the vendored seed, identical to the shared original when that exists", () => {
    expect(trace.seed).toBe("spec/seed/custodial-wallet-interface.md");
    if (existsSync(SHARED_SEED)) expect(seedText).toBe(readFileSync(SHARED_SEED, "utf8"));
  });

  it("lists many statements, each with id, section, quote, pointers, checks and testable", () => {
    expect(statements.length).toBeGreaterThanOrEqual(50);
    const ids = [...statements, ...gaps].map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const s of statements) {
      expect(s.id, JSON.stringify(s)).toMatch(/^s[0-9.]+\.[a-z0-9.-]+$/);
      expect(s.section, s.id).toMatch(/^[1-9](\.[0-9]+)?$/);
      expect(s.quote.length, s.id).toBeGreaterThan(5);
      expect(s.pointers.length, s.id).toBeGreaterThanOrEqual(1);
      expect(Array.isArray(s.checks), s.id).toBe(true);
      expect(typeof s.testable, s.id).toBe("boolean");
    }
  });

  it("resolves every pointer of every statement and gap", () => {
    const unresolved = [...statements, ...gaps].flatMap((s) =>
      s.pointers.filter((p: string) => resolvePointer(p) === undefined).map((p: string) => `${s.id}: ${p}`),
    );
    expect(unresolved).toEqual([]);
  });

  it("detects a pointer that does not resolve (the check can fail)", () => {
    expect(resolvePointer("openapi.yaml#/paths/~1api~1v1~1nowhere/get")).toBeUndefined();
    expect(resolvePointer("missing.yaml#/info")).toBeUndefined();
    expect(resolvePointer("openapi.yaml#/info/version")).toBe("0.1.0");
  });

  it("covers every section of the seed with statements, and every 'not shown' with a gap", () => {
    const sections = new Set(statements.map((s) => s.section.split(".")[0]));
    for (const n of ["1", "2", "3", "4", "5", "6", "7", "9"]) expect(sections, `section ${n}`).toContain(n);
    const notShown = (seedText.match(/not shown/g) ?? []).length;
    expect(gaps.length).toBeGreaterThanOrEqual(notShown);
    for (const g of gaps) {
      expect(g.assumption, g.id).toBeTruthy();
      expect(g.pointers.length, g.id).toBeGreaterThanOrEqual(1);
    }
  });

  it("traces each of the eight seed operations to its operation object", () => {
    const pointers = statements.flatMap((s) => s.pointers);
    const seedRows = [...seedText.matchAll(/^\| \d \| (GET|POST|DELETE) \| (\S+) \|/gm)];
    expect(seedRows).toHaveLength(8);
    for (const [, method, path] of seedRows) {
      const pointer = `openapi.yaml#/paths/${path.replace(/~/g, "~0").replace(/\//g, "~1")}/${method.toLowerCase()}`;
      expect(pointers, pointer).toContain(pointer);
      expect(resolvePointer(pointer), pointer).toBeDefined();
    }
  });

  it("quotes text that is really in the seed", () => {
    // A quote may leave words out with "..."; every remaining piece must be literal seed text
    // (table pipes, backticks and line breaks are ignored).
    const normalise = (t: string) => t.replace(/[|`*]/g, " ").replace(/\s+/g, " ").trim();
    const seed = normalise(seedText);
    const missing = [...statements, ...gaps].filter((s) => {
      const pieces = normalise(s.quote.replace(/^\(not stated\).*/, ""))
        .split("...")
        .map((p) => p.trim().replace(/[.;:]$/, ""));
      return pieces.some((piece) => piece.length > 0 && !seed.includes(piece));
    });
    expect(missing.map((s) => `${s.id}: ${s.quote}`)).toEqual([]);
  });
});
