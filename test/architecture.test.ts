// The layering of docs/explanation/architecture.md as data, checked against the import graph of every
// hand-written source (static, type-only and dynamic imports; read from the text, nothing is loaded),
// and no import cycle among those files.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { FRESH_PROCESS_FILES, PROCESS_WIDE, PROCESS_WIDE_EXAMPLES, runsFresh } from "./support/fresh-process.ts";
import { type ImportEdge, importCycles, importsOf, sourceFiles } from "./support/import-graph.ts";
import { LONGEST_FILES } from "./support/longest-first.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const ALL_DIRS = [
  "bin",
  "lib",
  "cli",
  "diff",
  "web",
  "scripts",
  "runtime",
  "generator",
  "generated",
  "conformance",
  "reference",
  "bench",
  "test",
];
/** The product: what ships in the package. Entry points and tooling (bin, cli, test, bench, scripts) sit above it. */
const PRODUCT = ["lib/", "diff/", "web/", "runtime/", "generator/", "generated/", "conformance/", "reference/"];

interface LayerRule {
  /** Folders (prefixes of repository paths) the rule is about. */
  files: readonly string[];
  /** When given, the only folders of ours these files may import (packages and node: are always allowed). */
  only?: readonly string[];
  /** Folders of ours these files never import. */
  never?: readonly string[];
  why: string;
}

const LAYERS: readonly LayerRule[] = [
  {
    files: ["generated/"],
    only: ["generated/", "runtime/"],
    why: "generated code imports only runtime/ and packages (architecture.md), so it builds in a user's project",
  },
  {
    files: ["runtime/"],
    only: ["runtime/"],
    why: "runtime/ imports nothing of ours above it: it is copied into generated projects as it is",
  },
  {
    files: ["lib/"],
    only: ["lib/", "runtime/"],
    why: "lib/ holds helpers every part may use, so it uses no part",
  },
  {
    files: ["generator/"],
    only: ["generator/", "lib/", "runtime/"],
    why: "the generator reads a document and writes files (runtime/ for the shapes its output shares); it knows no deployment",
  },
  {
    files: ["diff/"],
    only: ["diff/", "generator/", "lib/"],
    why: "custody diff reads documents with the generator's loader",
  },
  { files: ["web/"], only: ["web/", "lib/", "runtime/"], why: "the pages talk to a deployment over HTTP only" },
  {
    files: ["conformance/"],
    never: ["reference/"],
    why: "conformance knows a target only by URLs and credentials, as it would a third party's deployment",
  },
  {
    files: ["reference/chain/"],
    only: ["reference/chain/", "lib/", "runtime/"],
    why: "the chain sits below the domain (architecture.md)",
  },
  {
    files: ["reference/store/"],
    only: ["reference/store/", "lib/", "runtime/"],
    why: "the store knows no record's meaning",
  },
  {
    files: ["reference/node/"],
    only: ["reference/node/", "reference/chain/", "lib/", "runtime/"],
    why: "the JSON-RPC gateway sits beside the domain, over chain/ (architecture.md)",
  },
  {
    files: ["reference/domain/"],
    never: ["reference/api/", "reference/node/", "reference/webhooks/"],
    why: "the domain is below the HTTP handlers and the webhook delivery that call it",
  },
  { files: PRODUCT, never: ["cli/", "bin/"], why: "commands sit on top: the product never reaches up into them" },
  {
    files: [...PRODUCT, "cli/", "bin/"],
    never: ["test/", "bench/", "scripts/"],
    why: "tests, benchmarks and scripts are not shipped",
  },
];

/**
 * Cycles known today, left for a change of their own: each is its group of files. An entry that no
 * longer exists fails the test too, so the list only shrinks.
 */
const KNOWN_CYCLES: readonly (readonly string[])[] = [];

function layerViolations(edges: readonly ImportEdge[], rules: readonly LayerRule[] = LAYERS): string[] {
  const out: string[] = [];
  for (const e of edges) {
    if (!e.local) continue;
    for (const rule of rules) {
      if (!rule.files.some((f) => e.from.startsWith(f))) continue;
      const outside = rule.only && !rule.only.some((f) => e.to.startsWith(f));
      const banned = rule.never?.some((f) => e.to.startsWith(f));
      if (outside || banned) out.push(`${e.from}:${e.line} imports ${e.to}: ${rule.why}`);
    }
  }
  return out;
}

function allEdges(dirs: readonly string[]): ImportEdge[] {
  return sourceFiles(ROOT, dirs).flatMap((file) => importsOf(ROOT, file));
}

const edges = allEdges(ALL_DIRS);

describe("layering", () => {
  it("reads imports of every kind: static, type-only, re-exports, dynamic, import types", () => {
    const text = [
      'import { a } from "../runtime/a.ts";',
      'import type { B } from "../reference/b.ts";',
      'import { type C } from "../reference/c.ts";',
      'export { d } from "./d.ts";',
      'const e = await import("../cli/e.ts");',
      'let f: import("../bench/f.ts").F;',
      'import "node:fs";',
    ].join("\n");
    const found = importsOf(ROOT, "lib/x.ts", text).map(
      (e) => `${e.to} ${e.typeOnly ? "type" : ""}${e.dynamic ? "dynamic" : ""}`,
    );
    expect(found).toEqual([
      "runtime/a.ts ",
      "reference/b.ts type",
      "reference/c.ts type",
      "lib/d.ts ",
      "cli/e.ts dynamic",
      "bench/f.ts type",
      "node:fs ",
    ]);
  });

  it("every rule holds over the hand-written sources", () => {
    expect(edges.length).toBeGreaterThan(1000);
    expect(layerViolations(edges)).toEqual([]);
  });

  it("a rule fails on an import that breaks it", () => {
    const broken = importsOf(ROOT, "conformance/x.ts", 'import type { Y } from "../reference/y.ts";');
    expect(layerViolations(broken)).toEqual([
      "conformance/x.ts:1 imports reference/y.ts: conformance knows a target only by URLs and credentials, as it would a third party's deployment",
    ]);
    const upward = importsOf(ROOT, "generated/x.ts", 'import { lib } from "../lib/version.ts";');
    expect(layerViolations(upward)).toHaveLength(1);
  });
});

describe("import cycles", () => {
  const handWritten = edges.filter((e) => !e.from.startsWith("generated/"));

  it("none among the hand-written files (type-only imports included), except the known ones", () => {
    expect(importCycles(handWritten)).toEqual(KNOWN_CYCLES);
  });

  it("a circle of imports is found, type-only or not", () => {
    const edges = [
      ...importsOf(ROOT, "lib/a.ts", 'import { b } from "./b.ts";'),
      ...importsOf(ROOT, "lib/b.ts", 'import type { C } from "./c.ts";'),
      ...importsOf(ROOT, "lib/c.ts", 'import { a } from "./a.ts";'),
      ...importsOf(ROOT, "lib/d.ts", 'import { a } from "./a.ts";'),
    ];
    expect(importCycles(edges)).toEqual([["lib/a.ts", "lib/b.ts", "lib/c.ts"]]);
  });
});

describe("the test run's order", () => {
  it("names only test files that exist (test/support/longest-first.ts)", () => {
    const root = fileURLToPath(new URL("..", import.meta.url));
    expect(LONGEST_FILES.filter((file) => !existsSync(join(root, file)))).toEqual([]);
  });

  it("runs in a fresh process every file that leaves something behind in its process (test/support/fresh-process.ts)", () => {
    const root = fileURLToPath(new URL("..", import.meta.url));
    expect(FRESH_PROCESS_FILES.filter((file) => !existsSync(join(root, file)))).toEqual([]);
    const shared = readdirSync(join(root, "test"))
      .filter((name) => name.endsWith(".test.ts") && !name.endsWith(".scale.test.ts"))
      .map((name) => `test/${name}`)
      .filter((file) => !runsFresh(file));
    expect(shared.filter((file) => PROCESS_WIDE.test(readFileSync(join(root, file), "utf8")))).toEqual([]);
    // The rule itself: each kind of leftover it names is recognised.
    for (const [line, leaves] of PROCESS_WIDE_EXAMPLES) expect(PROCESS_WIDE.test(line), line).toBe(leaves);
  });
});
