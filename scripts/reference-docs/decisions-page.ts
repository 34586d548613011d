// docs/reference/assumed-decisions.md: every decision the contract takes where the seed is silent,
// read from the spec itself (x-source: assumed with its x-reason; seed items with x-assumed-parts)
// and from spec/trace.yaml's gaps (what the seed marks "not shown" and where the answer lives).
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { packagePath } from "../../lib/package-root.ts";
import { generatedNote, prose, table } from "./markdown.ts";

const SPEC = packagePath(import.meta.url, "spec");
const HTTP_METHODS = new Set(["get", "put", "post", "delete", "patch", "head", "options", "trace"]);

interface Decision {
  /** Which kind of item: the page's sections. */
  kind: string;
  /** The item as a reader names it ("createWallet: POST /api/v1/wallets"). */
  what: string;
  pointer: string;
  /** "assumed", or "seed, with assumed parts: …". */
  source: string;
  reason: string;
}

interface Gap {
  id: string;
  section: string;
  quote: string;
  assumption: string;
  pointers?: string[];
}

const KINDS = [
  "conventions",
  "security",
  "operations",
  "webhooks",
  "parameters",
  "headers",
  "responses",
  "schemas",
  "JSON-RPC",
] as const;

export function decisionsPage(): string {
  const openapi = parse(readFileSync(`${SPEC}/openapi.yaml`, "utf8")) as Record<string, unknown>;
  const openrpc = JSON.parse(readFileSync(`${SPEC}/openrpc.json`, "utf8")) as Record<string, unknown>;
  const trace = parse(readFileSync(`${SPEC}/trace.yaml`, "utf8")) as { gaps: Gap[] };
  const decisions = [...collect(openapi, "openapi.yaml"), ...collect(openrpc, "openrpc.json")];
  const assumed = decisions.filter((d) => d.source === "assumed").length;
  return [
    "# Assumed decisions",
    "",
    generatedNote(
      "the x-source / x-reason of spec/openapi.yaml and spec/openrpc.json, and the gaps of spec/trace.yaml",
    ),
    "",
    "Where the seed speaks, the seed wins. Where it is silent, the contract decides once, in the spec: the item carries " +
      "`x-source: assumed` and an `x-reason` that names its source (the real service's public SDK, its docs, or our own choice, said as such); " +
      "an item the seed gives with details we added carries `x-source: seed`, `x-assumed-parts` and the reason for them. " +
      `This page lists them all: ${trace.gaps.length} gaps the seed marks "not shown", then ${decisions.length} items of the spec ` +
      `(${assumed} assumed, ${decisions.length - assumed} from the seed with assumed parts). \`custody certify --level seed\` holds a deployment only to the seed; ` +
      "`--level full` also to these decisions ([check catalog](checks.md)).",
    "",
    "## What the seed leaves open",
    "",
    ...table(
      ["seed", "not shown", "decision", "where"],
      trace.gaps.map((g) => [
        `§${g.section}`,
        prose(g.quote),
        prose(g.assumption),
        (g.pointers ?? []).map((p) => `\`${p}\``).join("<br>"),
      ]),
    ),
    "",
    ...KINDS.flatMap((kind) => {
      const rows = decisions.filter((d) => d.kind === kind);
      if (rows.length === 0) return [];
      return [
        `## ${kind[0].toUpperCase()}${kind.slice(1)} (${rows.length})`,
        "",
        ...table(
          ["item", "source", "reason"],
          rows.map((d) => [`${d.what}<br>\`${d.pointer}\``, d.source, prose(d.reason)]),
        ),
        "",
      ];
    }),
  ].join("\n");
}

/** Every node with x-source: assumed or x-assumed-parts, with its pointer, in document order. */
function collect(doc: unknown, file: string): Decision[] {
  const out: Decision[] = [];
  const walk = (node: unknown, path: string[]): void => {
    if (Array.isArray(node)) return node.forEach((v, i) => walk(v, [...path, String(i)]));
    if (node === null || typeof node !== "object") return;
    const n = node as Record<string, unknown>;
    const parts = n["x-assumed-parts"];
    if (n["x-source"] === "assumed" || Array.isArray(parts)) {
      out.push({
        kind: kindOf(file, path),
        what: labelOf(file, path, n),
        pointer: `${file}#/${path.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/")}`,
        source: n["x-source"] === "assumed" ? "assumed" : `seed; assumed: ${(parts as unknown[]).join(", ")}`,
        reason: String(n["x-reason"] ?? ""),
      });
    }
    for (const [key, value] of Object.entries(n)) walk(value, [...path, key]);
  };
  walk(doc, []);
  return out;
}

function kindOf(file: string, path: string[]): string {
  if (file === "openrpc.json") return "JSON-RPC";
  const [top, second] = path;
  if (top === "paths") return "operations";
  if (top === "webhooks") return "webhooks";
  if (top === "components") return second === "securitySchemes" ? "security" : second;
  return "conventions";
}

function labelOf(file: string, path: string[], node: Record<string, unknown>): string {
  if (file === "openrpc.json")
    return typeof node.name === "string" ? `\`${node.name}\`` : `\`${path.join(".") || "document"}\``;
  const [top, a, b] = path;
  if (top === "paths" && b !== undefined && HTTP_METHODS.has(b))
    return `\`${String(node.operationId ?? "")}\`: ${b.toUpperCase()} \`${a}\``;
  if (top === "webhooks") return `\`${a}\``;
  if (top === "components") return `\`${path.slice(2).join(".")}\``;
  return `\`${path.join(".")}\``;
}
