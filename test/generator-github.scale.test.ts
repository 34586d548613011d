// GitHub's REST description (@octokit/openapi: 13 MB, ~1,200 operations, ~970 schemas): every
// operation is kept, the operation table loads, and the whole output compiles. Slow (about a minute).
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { generate } from "../generator/index.ts";
import { typecheck } from "../generator/typecheck.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const GITHUB = join(ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json");
const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
let work: string;
let out: string;
let declaredIds: string[];

beforeAll(async () => {
  work = await mkdtemp(join(ROOT, ".tmp-gen-github-"));
  out = join(work, "out");
  const doc = JSON.parse(await readFile(GITHUB, "utf8")) as {
    paths: Record<string, Record<string, { operationId?: string }>>;
  };
  declaredIds = Object.values(doc.paths).flatMap((item) =>
    HTTP_METHODS.filter((m) => item[m]).map((m) => item[m].operationId as string),
  );
  await generate({ specPath: GITHUB, outDir: out });
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

it("keeps every operation: table, client methods and handlers", async () => {
  expect(declaredIds.length).toBeGreaterThan(1000);
  const { operationList } = (await import(pathToFileURL(join(out, "operations.ts")).href)) as {
    operationList: {
      operationId: string;
      path: string;
      paramsSchema?: { safeParse: unknown };
      responseSchemas: object;
    }[];
  };
  expect(operationList.map((op) => op.operationId).sort()).toEqual([...declaredIds].sort());
  // A path with parameters has a schema for them; a path without has none (no empty z.object).
  for (const op of operationList)
    expect(typeof op.paramsSchema?.safeParse).toBe(op.path.includes("{") ? "function" : "undefined");
  const client = await readFile(join(out, "client.ts"), "utf8");
  const server = await readFile(join(out, "server.ts"), "utf8");
  expect(client.match(/^ {2}\w+\(input: T\.\w+Input/gm)).toHaveLength(declaredIds.length);
  expect(server.match(/^ {2}\w+\(input: T\.\w+HandlerInput, ctx: RequestContext\)/gm)).toHaveLength(declaredIds.length);
  expect((await readFile(join(out, "README.md"), "utf8")).match(/^\| `[^`]+` \| [A-Z]+ \|/gm)).toHaveLength(
    declaredIds.length,
  );
});

it("compiles with no type errors", async () => {
  const result = await typecheck([out], { maxOldSpaceMb: 6144 });
  expect(result.output).toBe("");
  expect(result.ok).toBe(true);
});
