// The MCP tools' schemas and effects, without a server: every operation of the contract declares its
// effect, `custody diff` reports a change of it, and the tools of this contract and of every public
// document at hand pass the lint of what clients refuse (the lint itself shown failing on a break).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import yaml from "js-yaml";
import { describe, expect, it } from "vitest";
import { lintTools } from "../generator/mcp/lint.ts";
import { loadToolTable } from "../generator/mcp/load.ts";
import { cleanText } from "../generator/mcp/text.ts";
import { toolNames } from "../generator/mcp/tools-from-spec.ts";
import type { ToolOperation } from "../runtime/mcp/tool-table.ts";
import { baseSpec, diffOf, lines } from "./diff/helpers.ts";

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"];

describe("effects in spec/openapi.yaml", () => {
  const spec = yaml.load(readFileSync("spec/openapi.yaml", "utf8")) as {
    paths: Record<string, Record<string, Record<string, unknown>>>;
  };
  const ops: Record<string, unknown>[] = Object.values(spec.paths).flatMap((item) =>
    METHODS.filter((m) => item[m]).map((m) => ({ method: m, ...item[m] })),
  );

  it(
    "every operation declares read, write or funds; GET reads; approvals and API key writes are never for " + "agents",
    () => {
      expect(ops.length).toBeGreaterThan(30);
      for (const op of ops) {
        expect(["read", "write", "funds"], String(op.operationId)).toContain(op["x-custody-effect"]);
        if (op.method === "get") expect(op["x-custody-effect"], String(op.operationId)).toBe("read");
      }
      const never = ops.filter((op) => op["x-custody-agent"] === "never").map((op) => op.operationId);
      expect(never.sort()).toEqual(["approveWithdrawal", "createApiKey", "rejectWithdrawal", "revokeApiKey"]);
      const funds = ops.filter((op) => op["x-custody-effect"] === "funds").map((op) => op.operationId);
      expect(funds).toEqual(expect.arrayContaining(["createWithdrawal", "requestSign", "signRawTransaction"]));
    },
  );

  it("custody diff reports a change of effect and of agent exposure", () => {
    const W = "/wallets/{id}";
    expect(lines(diffOf((d) => (d.paths[W].get["x-custody-effect"] = "funds")))).toEqual([
      `breaking api-agent-effect-changed GET ${W}`,
    ]);
    // Declaring what the method already implies changes nothing.
    expect(lines(diffOf((d) => (d.paths[W].get["x-custody-effect"] = "read")))).toEqual([]);
    expect(lines(diffOf((d) => (d.paths[W].get["x-custody-agent"] = "never")))).toEqual([
      `breaking api-agent-hidden GET ${W}`,
    ]);
    const base = baseSpec();
    base.paths[W].get["x-custody-agent"] = "never";
    expect(lines(diffOf((d) => delete d.paths[W].get["x-custody-agent"], base))).toEqual([
      `warning api-agent-exposed GET ${W}`,
    ]);
  });
});

const PUBLIC = [
  "spec/openapi.yaml",
  ...[
    "additional-properties",
    "allof",
    "default-only",
    "discriminator",
    "keywords-30",
    "keywords",
    "mini-custody",
    "names",
    "nullable-30",
    "nullable-31",
    "public-apis-31",
    "read-write-only",
    "recursive",
  ].map((n) => `test/fixtures/specs/${n}.yaml`),
  "test/fixtures/swagger2/petstore-2.0.yaml",
];

describe("tool schemas every client accepts", () => {
  it.each(PUBLIC)("%s", async (path) => {
    const { table } = await loadToolTable(path);
    expect(table.length).toBeGreaterThan(0);
    expect(lintTools(table)).toEqual([]);
    // Nothing is read by guess for a method that may change something.
    for (const op of table)
      if (!["GET", "HEAD", "OPTIONS"].includes(op.httpMethod.toUpperCase()) && op.effect === "read")
        expect.fail(`${op.tool} guessed read`);
  });

  // GitHub's descriptions (ghec's SCIM members named "$ref") are linted in mcp-schemas.scale.test.ts; this
  // is the same shape at default size: a SCIM group whose members carry a member named "$ref".
  it('a SCIM-style member named "$ref" is left out of the tool schemas', async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcp-scim-"));
    try {
      const path = join(dir, "scim.json");
      writeFileSync(path, JSON.stringify(SCIM));
      const { table } = await loadToolTable(path);
      expect(table.map((op) => op.tool).sort()).toEqual(["getGroup", "patchGroup"]);
      expect(lintTools(table)).toEqual([]);
      // Object bodies are flattened into the tool's arguments: members is one of them.
      const patch = table.find((op) => op.tool === "patchGroup") as ToolOperation;
      const input = patch.inputSchema as { properties: { members: { items: { properties: object } } } };
      expect(Object.keys(input.properties.members.items.properties)).toEqual(["value", "display"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the lint fails on what clients refuse", () => {
    const broken = {
      tool: "x".repeat(70),
      title: "t",
      description: "d\u0007",
      httpMethod: "GET",
      effect: "read",
      arguments: [],
      inputSchema: { type: "object", anyOf: [{ $ref: "#/components/schemas/A" }] },
      dataSchema: { $defs: {} },
    } as unknown as ToolOperation;
    const problems = lintTools([broken, { ...broken }]);
    for (const what of [
      "characters (at most 64)",
      "top-level anyOf",
      "contains $ref",
      "control characters",
      "taken twice",
    ])
      expect(problems.join("\n")).toContain(what);
  });

  it("names fit 64 characters and stay unique; descriptions are bounded plain text", () => {
    const long = `op${"A".repeat(80)}`;
    const names = toolNames([long, `${long}B`, "get users", "get_users"]);
    expect(names.every((n) => n.length <= 64 && /^[A-Za-z0-9_-]+$/.test(n))).toBe(true);
    expect(new Set(names).size).toBe(4);
    expect(cleanText("a\u0000b */ ${x}\n\n\n\nc", 100)).toBe("a b */ ${x}\n\nc");
    expect(cleanText("word ".repeat(400), 100).length).toBeLessThanOrEqual(100);
  });
});

/** A SCIM group (as GitHub Enterprise's SCIM API describes it): members are {value, $ref, display}. */
const SCIM = {
  openapi: "3.1.0",
  info: { title: "SCIM", version: "1" },
  paths: {
    "/Groups/{id}": {
      parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
      get: {
        operationId: "getGroup",
        responses: {
          "200": {
            description: "ok",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Group" } } },
          },
        },
      },
      patch: {
        operationId: "patchGroup",
        requestBody: {
          required: true,
          content: { "application/json": { schema: { $ref: "#/components/schemas/Group" } } },
        },
        responses: { "204": { description: "patched" } },
      },
    },
  },
  components: {
    schemas: {
      Group: {
        type: "object",
        properties: {
          displayName: { type: "string" },
          members: {
            type: "array",
            items: {
              type: "object",
              properties: { value: { type: "string" }, $ref: { type: "string" }, display: { type: "string" } },
            },
          },
        },
      },
    },
  },
};
