// A spec change: add an operation and a field to a copy of our spec. The regenerated output has the
// new client method, schema field and handler, and --check on the old output fails.
import { copyFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { parse, stringify } from "yaml";
import { run } from "../cli/generate.ts";
import { generate } from "../generator/index.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(ROOT, ".tmp-gen-change-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
  vi.restoreAllMocks();
});

it("a new operation and field appear in client, schemas, types, server; --check on the old output fails", async () => {
  const spec = join(work, "openapi.yaml");
  await copyFile(join(ROOT, "spec/openapi.yaml"), spec);
  const oldOut = join(work, "old");
  await generate({ specPath: spec, outDir: oldOut });

  const doc = parse(await readFile(spec, "utf8")) as Record<string, any>;
  doc.components.schemas.Wallet.properties.label = { type: "string", maxLength: 40, description: "A colour tag." };
  doc.paths["/api/v1/wallets/{wallet_id}/labels"] = {
    get: {
      operationId: "listWalletLabels",
      tags: ["wallets"],
      "x-source": "assumed",
      "x-custody-scopes": ["wallets:read"],
      "x-custody-min-role": "viewer",
      parameters: [{ $ref: "#/components/parameters/WalletId" }],
      responses: {
        "200": {
          description: "labels",
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["success", "message", "code", "data"],
                properties: {
                  success: { const: true },
                  message: { type: "string" },
                  code: { const: 0 },
                  data: { type: "array", items: { type: "string" } },
                },
              },
            },
          },
        },
        "401": { $ref: "#/components/responses/Unauthorized" },
      },
    },
  };
  await writeFile(spec, stringify(doc));

  const errors: string[] = [];
  vi.spyOn(console, "error").mockImplementation((...a: unknown[]) => void errors.push(a.join(" ")));
  vi.spyOn(console, "log").mockImplementation(() => {});
  expect(await run(["--spec", spec, "--out", oldOut, "--check", "--no-rpc"])).toBe(1);
  for (const file of ["client.ts", "schemas.ts", "types.ts", "server.ts", "operations.ts", "README.md"]) {
    expect(errors.join("\n")).toMatch(new RegExp(`changed +.*/${file.replace(".", "\\.")}`));
  }

  const newOut = join(work, "new");
  await generate({ specPath: spec, outDir: newOut });
  const read = (file: string) => readFile(join(newOut, file), "utf8");
  expect(await read("client.ts")).toContain(
    "listWalletLabels(input: T.ListWalletLabelsInput, options?: CallOptions): ApiPromise<T.ListWalletLabelsData> {",
  );
  expect(await read("server.ts")).toContain(
    "listWalletLabels(input: T.ListWalletLabelsHandlerInput, ctx: RequestContext): Promise<T.ListWalletLabelsData>;",
  );
  expect(await read("types.ts")).toContain("export type ListWalletLabelsData = string[];");
  expect(await read("schemas.ts")).toMatch(
    /export const WalletSchema = z\.object\(\{[^;]*label: z\.string\(\)\.refine\(\(s\) => lengthWithin\(s, 0, 40\), "length"\)\.optional\(\),/,
  );
  expect(await read("types.ts")).toMatch(
    /export interface Wallet \{[\s\S]*?\/\*\* A colour tag\. \*\/\n {2}label\?: string;/,
  );
  expect(await read("operations.ts")).toContain('path: "/api/v1/wallets/{wallet_id}/labels",');
  expect(await read("README.md")).toContain(
    "| `listWalletLabels` | GET | `/api/v1/wallets/{wallet_id}/labels` | `wallets:read` | viewer | assumed |",
  );
  // The old output did not have them.
  expect(await readFile(join(oldOut, "client.ts"), "utf8")).not.toContain("listWalletLabels");
});
