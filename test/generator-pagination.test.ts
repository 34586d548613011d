// x-custody-pagination for any document: a broken declaration is a problem at its pointer, and a valid
// one gives the client .all() and .pages() over the declared parameters and items, here on a spec that
// is not ours (no envelope, items under /results, other parameter names, another maximum).

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate, SpecError } from "../generator/index.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
let work: string;

const PET = { type: "object", required: ["id"], properties: { id: { type: "integer" }, kind: { type: "string" } } };
const LIST_RESPONSE = {
  type: "object",
  required: ["results"],
  properties: { results: { type: "array", items: { $ref: "#/components/schemas/Pet" } }, next: { type: "string" } },
};

function petSpec(pagination: unknown, extraParams: unknown[] = []): string {
  return JSON.stringify({
    openapi: "3.1.0",
    info: { title: "Pets", version: "1" },
    paths: {
      "/pets": {
        get: {
          operationId: "listPets",
          "x-custody-pagination": pagination,
          parameters: [
            { name: "skip", in: "query", schema: { type: "integer", minimum: 0, default: 0 } },
            { name: "take", in: "query", schema: { type: "integer", minimum: 1, maximum: 10, default: 5 } },
            { name: "kind", in: "query", schema: { type: "string" } },
            ...extraParams,
          ],
          responses: {
            "200": {
              description: "ok",
              content: { "application/json": { schema: { $ref: "#/components/schemas/PetPage" } } },
            },
          },
        },
      },
      "/pets/{id}": {
        get: {
          operationId: "getPet",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          responses: {
            "200": {
              description: "ok",
              content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" } } },
            },
          },
        },
      },
    },
    components: {
      schemas: { Pet: PET, PetPage: LIST_RESPONSE, Page: { type: "object", properties: { n: { type: "integer" } } } },
    },
  });
}

async function problems(pagination: unknown): Promise<string> {
  const file = join(work, `broken-${Math.random().toString(36).slice(2)}.json`);
  await writeFile(file, petSpec(pagination));
  const error = await generate({ specPath: file, outDir: join(work, "never") }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(SpecError);
  return (error as SpecError).message;
}

beforeAll(async () => {
  work = await mkdtemp(join(ROOT, ".tmp-gen-pagination-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe("a broken x-custody-pagination is refused at its pointer", () => {
  const at = "#/paths/~1pets/get/x-custody-pagination";
  it("names a parameter the operation does not have", async () => {
    const message = await problems({ style: "offset-limit", offset: "start", limit: "take", items: "/results" });
    expect(message).toContain(
      `${at}/offset: offset names "start", which is not a query parameter of this operation (it has skip, take, kind)`,
    );
  });
  it("an items pointer that does not resolve, or reaches no array", async () => {
    expect(await problems({ style: "offset-limit", offset: "skip", limit: "take", items: "/rows" })).toContain(
      `${at}/items: items /rows does not resolve against the 200 response schema: the body has no property "rows"`,
    );
    expect(await problems({ style: "offset-limit", offset: "skip", limit: "take", items: "/next" })).toContain(
      `${at}/items: items /next points at a schema that is not an array`,
    );
    expect(await problems({ style: "offset-limit", offset: "skip", limit: "take", items: "results" })).toContain(
      `${at}/items: items must be a JSON pointer`,
    );
  });
  it("an unknown style, a non-integer limit, a non-object", async () => {
    expect(await problems({ style: "cursor", offset: "skip", limit: "take", items: "/results" })).toContain(
      `${at}/style: style "cursor" is not supported (only offset-limit)`,
    );
    expect(await problems({ style: "offset-limit", offset: "skip", limit: "kind", items: "/results" })).toContain(
      `${at}/limit: limit names "kind", whose schema is not an integer`,
    );
    expect(await problems("offset-limit")).toContain(`${at}: must be an object {style, offset, limit, items}`);
  });
});

describe("a valid declaration on another API's spec", () => {
  const PETS = Array.from({ length: 23 }, (_, i) => ({ id: i + 1, kind: i % 2 === 0 ? "cat" : "dog" }));
  const requests: URLSearchParams[] = [];
  let server: Server;
  let gen: Record<string, any>;
  let source: string;

  beforeAll(async () => {
    const specPath = join(work, "pets.json");
    await writeFile(specPath, petSpec({ style: "offset-limit", offset: "skip", limit: "take", items: "/results" }));
    const out = join(work, "pets-out");
    await generate({ specPath, outDir: out });
    source = await (await import("node:fs/promises")).readFile(join(out, "client.ts"), "utf8");
    gen = await import(pathToFileURL(join(out, "index.ts")).href);
    server = createServer((req, res) => {
      const q = new URL(req.url ?? "/", "http://x").searchParams;
      requests.push(q);
      const skip = Number(q.get("skip") ?? 0);
      const take = Number(q.get("take") ?? 5);
      const kind = q.get("kind");
      const rows = PETS.filter((p) => !kind || p.kind === kind).slice(skip, skip + take);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ results: rows }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });

  function client() {
    const Client = gen.PetsClient as new (o: unknown) => Record<string, any>;
    return new Client({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, retry: false });
  }

  it("iterates every item in order with the declared names and maximum, keeping the other query parameters", async () => {
    requests.length = 0;
    const ids: number[] = [];
    for await (const pet of client().listPets.all()) ids.push(pet.id);
    expect(ids).toEqual(PETS.map((p) => p.id));
    // Pages of the maximum (10): 10, 10, 3.
    expect(requests.map((q) => [q.get("skip"), q.get("take")])).toEqual([
      ["0", "10"],
      ["10", "10"],
      ["20", "10"],
    ]);
    const cats: number[] = [];
    for await (const pet of client().listPets.all({ query: { kind: "cat" } }, { pageSize: 4 })) cats.push(pet.id);
    expect(cats).toEqual(PETS.filter((p) => p.kind === "cat").map((p) => p.id));
  });

  it("pages carry the whole body and their offset; a single call is unchanged", async () => {
    const offsets: number[] = [];
    for await (const page of client().listPets.pages({}, { pageSize: 10, startOffset: 5 })) {
      offsets.push(page.offset);
      expect(page.data.results).toBe(page.items);
    }
    expect(offsets).toEqual([5, 15]);
    expect((await client().listPets({ query: { take: 2 } })).results).toHaveLength(2);
  });

  it("keeps the paging types' names free: a schema named Page is renamed (PageModel, the suffix of every name custody exports) where a list is paged", async () => {
    const types = await (await import("node:fs/promises")).readFile(join(work, "pets-out", "types.ts"), "utf8");
    expect(types).toMatch(/export (type|interface) PageModel\b/);
    expect(source).toMatch(/export type \{ PagedOperation, PageOptions, Page \} from "[^"]*paginate.js";/);
  });

  it("leaves an operation without the extension a plain method, and types the items", async () => {
    expect("getPet" in gen.PetsClient.prototype).toBe(true);
    expect(client().getPet.all).toBeUndefined();
    expect(source).toContain(
      'readonly listPets: PagedOperation<T.ListPetsInput, T.ListPetsData, NonNullable<NonNullable<T.ListPetsData>["results"]>[number], "skip" | "take", true>',
    );
    expect(source).toContain('{ offset: "skip", limit: "take", items: ["results"], defaultLimit: 5, maxLimit: 10 }');
    await expect(async () => {
      for await (const _ of client().listPets.all({}, { pageSize: 11 })) break;
    }).rejects.toThrow("pageSize must be at most 10 (the operation's maximum page size), got 11");
  });
});
