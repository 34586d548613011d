// The other emitters on small specs: operations table, types, client, server, webhooks, README,
// headers, and the names the model hands out (reserved words, collisions, quoting, derived ids).
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../generator/index.ts";
import { NameRegistry, propertyKey, toCamelCase, toPascalCase } from "../generator/model/names.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const FIXTURES = join(ROOT, "test/fixtures/specs");
let work: string;

async function generated(name: string): Promise<{ dir: string; read(file: string): Promise<string> }> {
  const dir = join(work, name);
  await generate({ specPath: join(FIXTURES, `${name}.yaml`), outDir: dir });
  return { dir, read: (file) => readFile(join(dir, file), "utf8") };
}

beforeAll(async () => {
  work = await mkdtemp(join(ROOT, ".tmp-gen-output-"));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe("names", () => {
  it("sanitizes to identifiers", () => {
    expect(toPascalCase("simple-user")).toBe("SimpleUser");
    expect(toPascalCase("WalletBalance")).toBe("WalletBalance");
    expect(toPascalCase("1st-place")).toBe("_1stPlace");
    expect(toPascalCase("--")).toBe("Unnamed");
    expect(toCamelCase("repos/get-content")).toBe("reposGetContent");
    expect(toCamelCase("getWalletOverview")).toBe("getWalletOverview");
    expect(toCamelCase("SCIMUser")).toBe("scimUser");
    expect(toCamelCase("GetHealth")).toBe("getHealth");
    expect(propertyKey("wallet_id")).toBe("wallet_id");
    expect(propertyKey("kebab-case")).toBe('"kebab-case"');
    expect(propertyKey("123start")).toBe('"123start"');
  });

  it("hands out deterministic suffixes and skips reserved words", () => {
    const names = new NameRegistry();
    names.reserve("operations");
    expect(names.claim("Foo", ["", "Schema"])).toBe("Foo");
    expect(names.claim("Foo", ["", "Schema"])).toBe("Foo2");
    expect(names.claim("class")).toBe("class2");
    expect(names.claim("operations")).toBe("operations2");
    const members = new NameRegistry({ allowReserved: true });
    expect(members.claim("delete")).toBe("delete");
  });

  it("keeps every operation and schema of a spec full of awkward names", async () => {
    const out = await generated("names");
    const types = await out.read("types.ts");
    const client = await out.read("client.ts");
    const operations = await out.read("operations.ts");
    // simple-user and simple_user both sanitize to SimpleUser: sorted by original name, the second gets 2.
    expect(types).toContain("export interface SimpleUser {");
    expect(types).toContain("export interface SimpleUser2 {");
    expect(types).toContain("export interface Class {");
    expect(types).toContain("export type _1stPlace = string;");
    // The component GetUserData collides with the Data type of operation get-user, which keeps its name.
    expect(types).toContain("export type GetUserData = SimpleUser;");
    expect(types).toContain("export interface GetUserData2 {");
    // Quoted property keys and lower-cased header names.
    expect(types).toContain('"@odata.type"?: string;');
    expect(types).toContain('"x-trace-id"?: string;');
    expect(types).toContain('"filter[state]"?: string;');
    // get-user and getUser collide as method names; `delete` is a fine method name; `constructor` is not.
    expect(client).toMatch(/^ {2}getUser\(input/m);
    expect(client).toMatch(/^ {2}getUser2\(input/m);
    expect(client).toMatch(/^ {2}delete\(input/m);
    expect(client).toMatch(/^ {2}constructor2\(input/m);
    expect(operations).toContain('operationId: "get-user",');
    expect(operations).toContain('operationId: "constructor",');
    expect(client).toContain("export class ClassNamesCollisionsClient {");
  });
});

describe("operations table", () => {
  it("keeps default-only operations and derives ids for operations without one", async () => {
    const out = await generated("default-only");
    const { operations, operationList } = (await import(pathToFileURL(join(out.dir, "operations.ts")).href)) as {
      operations: Record<string, Record<string, unknown>>;
      operationList: Record<string, unknown>[];
    };
    expect(Object.keys(operations)).toEqual(["ping", "getUsersByIdRepos", "headHealth"]);
    expect(operationList).toHaveLength(3);
    expect(operations.ping).toMatchObject({
      method: "GET",
      path: "/ping",
      successStatus: 200,
      declaredStatuses: [200],
      envelope: false,
    });
    expect(Object.keys(operations.ping.responseSchemas as object)).toEqual(["default"]);
    expect(operations.getUsersByIdRepos).toMatchObject({
      operationId: "getUsersByIdRepos",
      successStatus: 204,
      idempotent: true,
    });
    expect(operations.headHealth).toMatchObject({ method: "HEAD", path: "/health" });
  });

  it("carries scopes, role, source, statuses, idempotency and envelope data schemas", async () => {
    const out = await generated("mini-custody");
    const { operations } = (await import(pathToFileURL(join(out.dir, "operations.ts")).href)) as {
      operations: Record<string, Record<string, any>>;
    };
    const create = operations.createWallet;
    expect(create).toMatchObject({
      operationId: "createWallet",
      method: "POST",
      path: "/api/v1/wallets",
      tag: "wallets",
      source: "assumed",
      successStatus: 202,
      declaredStatuses: [202, 400, 401],
      scopes: ["wallets:write"],
      minRole: "admin",
      idempotent: true, // Idempotency-Key header
      envelope: true,
    });
    expect(operations.getWallet.minRole).toBe("viewer");
    // Envelope operations: the response schemas describe `data`.
    const wallet = { id: "wal_1", name: "T", wallet_type: "mpc", created_at: "2025-01-01T00:00:00Z" };
    expect(create.responseSchemas[202].parse(wallet)).toEqual(wallet);
    expect(create.responseSchema).toBe(create.responseSchemas[202]);
    expect(create.responseSchemas[401].safeParse(null).success).toBe(true);
    expect(operations.listWallets.bodySchema).toBeUndefined();
  });
});

describe("files", () => {
  it("start with a header naming the spec and its sha256", async () => {
    const out = await generated("mini-custody");
    const specBytes = await readFile(join(FIXTURES, "mini-custody.yaml"));
    const sha = createHash("sha256").update(specBytes).digest("hex");
    for (const file of [
      "types.ts",
      "schemas.ts",
      "operations.ts",
      "client.ts",
      "server.ts",
      "webhooks.ts",
      "index.ts",
    ]) {
      const text = await out.read(file);
      expect(text.split("\n")[0], file).toBe(
        `// Generated by \`custody generate\` from test/fixtures/specs/mini-custody.yaml (sha256 ${sha}).`,
      );
    }
    expect(await out.read("README.md")).toContain(`mini-custody.yaml (sha256 ${sha})`);
  });

  it("types: per-operation Params/Query/Headers/Body/Data/Input, envelopes unwrapped", async () => {
    const types = await (await generated("mini-custody")).read("types.ts");
    expect(types).toContain("export type CreateWalletBody = CreateWalletRequest;");
    expect(types).toContain("export type CreateWalletData = Wallet;");
    expect(types).toContain("export type ListWalletsData = Wallet[];");
    expect(types).toMatch(
      /export interface CreateWalletInput \{\n {2}headers: CreateWalletHeaders;\n {2}body: CreateWalletBody;\n\}/,
    );
    expect(types).toMatch(/export interface ListWalletsInput \{\n {2}query\?: ListWalletsQuery;\n\}/);
    expect(types).toMatch(/export interface GetWalletInput \{\n {2}params: GetWalletParams;\n\}/);
    expect(types).toContain("export type GetWalletHandlerInput = GetWalletInput;");
    expect(types).not.toContain("export type GetWalletQuery"); // no parameters: no empty type
    expect(types).toContain("export type GetWalletError = ErrorEnvelope;");
  });

  it("client: one method per operation, signing options when the spec has x-custody-hmac", async () => {
    const client = await (await generated("mini-custody")).read("client.ts");
    expect(client).toContain("export class MiniClient {");
    expect(client).toContain("export interface ClientOptions extends TransportOptions {");
    expect(client).toContain(
      "createWallet(input: T.CreateWalletInput, options?: CallOptions): ApiPromise<T.CreateWalletData> {",
    );
    expect(client).toContain(
      "listWallets(input: T.ListWalletsInput = {}, options?: CallOptions): ApiPromise<T.ListWalletsData> {",
    );
    expect(client).toContain(
      'import { callOperation, type CallOperation, type CallOptions } from "../../runtime/http/client-call.js";',
    );
    const generic = await (await generated("allof")).read("client.ts");
    expect(generic).toContain(
      'export interface ClientOptions extends Omit<TransportOptions, "apiKey" | "apiSecret"> {',
    );
  });

  it("server: a handler per operation over runtime createRouter", async () => {
    const server = await (await generated("mini-custody")).read("server.ts");
    expect(server).toContain(
      "createWallet(input: T.CreateWalletHandlerInput, ctx: RequestContext): Promise<T.CreateWalletData>;",
    );
    expect(server).toContain(
      "export function createServer(handlers: Handlers, options: ServerOptions): RequestListener {",
    );
    expect(server).toContain("return createRouter({ ...options, operations, handlers: byOperationId });");
  });

  it("webhooks: event union, schemas per event, the spec's default profile", async () => {
    const out = await generated("mini-custody");
    const text = await out.read("webhooks.ts");
    expect(text).toContain('export const webhookEventTypes = ["wallet.created"] as const;');
    expect(text).toContain('const DEFAULT_PROFILE: WebhookProfile | undefined = "standard-webhooks";');
    const hooks = (await import(pathToFileURL(join(out.dir, "webhooks.ts")).href)) as {
      parseWebhookEvent(body: unknown): unknown;
    };
    const event = {
      id: "evt_1",
      type: "wallet.created",
      created_at: "2025-01-01T00:00:00Z",
      data: { id: "wal_1", name: "T", wallet_type: "mpc", created_at: "2025-01-01T00:00:00Z" },
    };
    expect(hooks.parseWebhookEvent(JSON.stringify(event))).toEqual(event);
    expect(() => hooks.parseWebhookEvent({ ...event, data: {} })).toThrow(/does not match the spec at data/);
    expect(() => hooks.parseWebhookEvent("{")).toThrow(/not JSON/);
  });

  it("README lists every operation with method, path, scopes, role and source", async () => {
    const readme = await (await generated("mini-custody")).read("README.md");
    expect(readme).toContain("| `createWallet` | POST | `/api/v1/wallets` | `wallets:write` | admin | assumed |");
    expect(readme).toContain("| `listWallets` | GET | `/api/v1/wallets` | `wallets:read` | viewer | seed |");
    expect(readme).toContain("| `getWallet` | GET | `/api/v1/wallets/{wallet_id}` | `wallets:read` | viewer | — |");
    expect(readme).toContain("| `wallet.created` | `WalletCreatedEvent` |");
  });

  it("generic specs get no webhooks.ts and no rpc.ts, and index.ts re-exports what exists", async () => {
    const out = await generated("allof");
    const index = await out.read("index.ts");
    expect(index).toContain('export * from "./client.js";');
    expect(index).not.toContain("webhooks");
    await expect(out.read("webhooks.ts")).rejects.toThrow();
  });
});

describe("printer (ts-morph structures → text)", () => {
  it("prints each structure kind the emitters use, as valid TypeScript", async () => {
    const { printStatements } = await import("../generator/emit/print.ts");
    const text = printStatements([
      { kind: "text", text: "// header" },
      { kind: "import", structure: { moduleSpecifier: "zod", namedImports: ["z"] } },
      { kind: "import", structure: { moduleSpecifier: "./types.ts", namespaceImport: "T", isTypeOnly: true } },
      {
        kind: "interface",
        structure: {
          name: "A",
          isExported: true,
          docs: ["Line one.\nSay */ safely."],
          properties: [{ name: '"x-y"', type: "string", hasQuestionToken: true }],
          indexSignatures: [{ keyName: "key", keyType: "string", returnType: "unknown" }],
        },
      },
      { kind: "typeAlias", structure: { name: "B", isExported: true, type: "{\n  a: number;\n}" } },
      {
        kind: "variable",
        structure: {
          isExported: true,
          declarationKind: "const" as never,
          declarations: [{ name: "c", type: "number", initializer: "1" }],
        },
      },
      {
        kind: "function",
        structure: {
          name: "f",
          parameters: [{ name: "x", type: "number", initializer: "2" }],
          returnType: "number",
          statements: ["return x;"],
        },
      },
      {
        kind: "class",
        structure: {
          name: "K",
          isExported: true,
          properties: [{ name: "p", type: "number", isReadonly: true }],
          ctors: [{ parameters: [{ name: "p", type: "number" }], statements: ["this.p = p;"] }],
          methods: [{ name: "m", returnType: "number", statements: ["if (this.p) {\n  return 1;\n}", "return 0;"] }],
        },
      },
      { kind: "export", structure: { moduleSpecifier: "./a.ts" } },
      { kind: "export", structure: { moduleSpecifier: "./b.ts" } },
    ]);
    expect(text).toBe(
      [
        "// header",
        "",
        'import { z } from "zod";',
        'import type * as T from "./types.ts";',
        "",
        "/**",
        " * Line one.",
        " * Say *\\/ safely.",
        " */",
        "export interface A {",
        '  "x-y"?: string;',
        "  [key: string]: unknown;",
        "}",
        "",
        "export type B = {",
        "  a: number;",
        "};",
        "",
        "export const c: number = 1;",
        "",
        "function f(x: number = 2): number {",
        "  return x;",
        "}",
        "",
        "export class K {",
        "  readonly p: number;",
        "",
        "  constructor(p: number) {",
        "    this.p = p;",
        "  }",
        "",
        "  m(): number {",
        "    if (this.p) {",
        "      return 1;",
        "    }",
        "    return 0;",
        "  }",
        "}",
        "",
        'export * from "./a.ts";',
        'export * from "./b.ts";',
        "",
      ].join("\n"),
    );
    // ts-morph (the TypeScript parser) reads it back without a syntax error.
    const { Project } = await import("ts-morph");
    const file = new Project({ useInMemoryFileSystem: true }).createSourceFile("/x.ts", text);
    expect(file.getPreEmitDiagnostics().filter((d) => d.getCategory() === 1 && d.getCode() < 2000)).toEqual([]);
  });
});
