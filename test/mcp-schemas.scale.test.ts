// The MCP tool-schema lint of test/mcp-schemas.test.ts over a public corpus: GitHub Enterprise Cloud's
// REST description (@octokit/openapi, ~1,100 operations), with the SCIM members named "$ref" that
// clients take for references (npm test holds the same shape at default size).
import { expect, it } from "vitest";
import { lintTools } from "../generator/mcp/lint.ts";
import { loadToolTable } from "../generator/mcp/load.ts";

it("GitHub's Enterprise Cloud REST description (@octokit/openapi, ~1,100 operations)", async () => {
  const { table } = await loadToolTable("node_modules/@octokit/openapi/generated/ghec.json");
  expect(table.length).toBeGreaterThan(900);
  expect(lintTools(table)).toEqual([]);
});
