// The committed generated/ must be exactly what `custody generate` makes from spec/ now.
import { describe, expect, it } from "vitest";
import { generate } from "../generator/index.ts";

describe("committed generated/", () => {
  it("is up to date with spec/openapi.yaml and spec/openrpc.json", async () => {
    const result = await generate({
      specPath: "spec/openapi.yaml",
      rpcSpecPath: "spec/openrpc.json",
      outDir: "generated",
      check: true,
    });
    expect(result.files.filter((f) => f.changed).map((f) => f.path)).toEqual([]);
  });
});
