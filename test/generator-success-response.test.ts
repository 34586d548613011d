// The success response is chosen once, in the model, and every emitter uses that choice: an operation
// whose only success is a "2XX" range returns its body from the client and checks it in the table.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { renderFiles } from "../generator/index.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "custody-success-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

it("a 2XX-only operation: client reads JSON, responseSchema is the 2XX one, Data is its type", async () => {
  const spec = join(dir, "range.yaml");
  await writeFile(
    spec,
    [
      "openapi: 3.1.0",
      "info: { title: t, version: '1' }",
      "paths:",
      "  /a:",
      "    get:",
      "      operationId: getA",
      "      responses:",
      "        '2XX':",
      "          description: ok",
      "          content:",
      "            application/json:",
      "              schema: { type: object, properties: { n: { type: integer } } }",
    ].join("\n"),
  );
  const { model, files } = await renderFiles({ specPath: spec, outDir: join(dir, "out") });
  const file = (path: string) => files.find((f) => f.path === path)?.content ?? "";
  expect(model.operations[0].success?.status).toBe("2XX");
  expect(file("client.ts")).toContain('callOperation(this.transport, calls["getA"], input, options, "json")');
  expect(file("operations.ts")).toContain('responseSchema: S.GetAResponseSchemas["2XX"],');
  expect(file("types.ts")).toMatch(/export type GetAData = \{[^}]*n\?: number;/);
});
