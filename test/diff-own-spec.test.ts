// Our own contract against copies with one kind of change each: exactly the expected classification.
// Which operations a shared schema reaches is worked out here independently (a plain closure over
// $ref strings), not with the diff's walker.
import { beforeAll, describe, expect, it } from "vitest";
import { SpecDoc } from "../diff/document.ts";
import { diffDocuments } from "../diff/index.ts";
import { loadSide } from "../diff/source.ts";
import { lines } from "./diff/helpers.ts";

type Doc = Record<string, any>;
const METHODS = ["get", "put", "post", "delete", "patch"];
let spec: Doc;
let rpc: Doc;

beforeAll(async () => {
  spec = (await loadSide("spec/openapi.yaml", "openapi")).root;
  rpc = (await loadSide("spec/openrpc.json", "openrpc")).root;
});

function diff(mutate: (d: Doc) => void) {
  const next = structuredClone(spec);
  mutate(next);
  return diffDocuments({
    openapi: { old: new SpecDoc(spec, "spec/openapi.yaml"), next: new SpecDoc(next, "copy.yaml") },
  });
}

function rpcDiff(mutate: (d: Doc) => void) {
  const next = structuredClone(rpc);
  mutate(next);
  return diffDocuments({ rpc: { old: new SpecDoc(rpc, "spec/openrpc.json"), next: new SpecDoc(next, "copy.json") } });
}

function operations(d: Doc): { path: string; method: string; op: Doc; where: string }[] {
  return Object.entries(d.paths as Doc).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({
      path,
      method,
      op: item[method],
      where: `${method.toUpperCase()} ${path}`,
    })),
  );
}

function op(d: Doc, operationId: string): Doc {
  const found = operations(d).find((o) => o.op.operationId === operationId);
  if (!found) throw new Error(`no operation ${operationId} in spec/openapi.yaml`);
  return found.op;
}
const whereOf = (operationId: string) => operations(spec).find((o) => o.op.operationId === operationId)!.where;

/** Every component schema name reachable from `node` through $ref strings. */
function reach(node: unknown, seen = new Set<string>()): Set<string> {
  const text = JSON.stringify(node) ?? "";
  for (const m of text.matchAll(/"#\/components\/(schemas|parameters|responses|requestBodies)\/([^"]+)"/g)) {
    const key = `${m[1]}/${m[2]}`;
    if (seen.has(key)) continue;
    seen.add(key);
    reach(spec.components[m[1]][m[2]], seen);
  }
  return seen;
}
const reaches = (node: unknown, schema: string) => reach(node).has(`schemas/${schema}`);

/** Operations whose responses / request body reach `schema`, and webhooks whose payload does. */
function reachedBy(schema: string) {
  const ops = operations(spec);
  return {
    responses: ops.filter((o) => reaches(o.op.responses, schema)).map((o) => o.where),
    requests: ops.filter((o) => reaches(o.op.requestBody, schema)).map((o) => o.where),
    webhooks: Object.entries(spec.webhooks as Doc)
      .filter(([, item]) => reaches(item.post?.requestBody, schema))
      .map(([name]) => `webhook ${name}`),
  };
}

describe("custody diff on spec/openapi.yaml", () => {
  it("the spec against itself: nothing", () => {
    expect(diff(() => {}).changes).toEqual([]);
  });

  it("an operation removed", () => {
    const target = operations(spec).find((o) => o.op.operationId === "getHealth")!;
    const alone = METHODS.filter((m) => spec.paths[target.path][m]).length === 1;
    const r = diff((d) => delete d.paths[target.path][target.method]);
    expect(lines(r)).toEqual([
      `breaking ${alone ? "api-path-removed-without-deprecation" : "api-removed-without-deprecation"} ${target.where}`,
    ]);
    expect(r.summary.semver).toBe("major");
  });

  it("an operation added: info, minor", () => {
    const r = diff((d) => (d.paths["/api/v1/added"] = { get: { responses: { "200": { description: "ok" } } } }));
    expect(lines(r)).toEqual(["info endpoint-added GET /api/v1/added"]);
    expect(r.summary.semver).toBe("minor");
  });

  it("a required query parameter added", () => {
    const r = diff(
      (d) =>
        (op(d, "listWallets").parameters = [
          ...(op(d, "listWallets").parameters ?? []),
          { name: "added", in: "query", required: true, schema: { type: "string" } },
        ]),
    );
    expect(lines(r)).toEqual([`breaking new-required-request-parameter ${whereOf("listWallets")}`]);
  });

  it("a required request property added (createWallet's body)", () => {
    const name = (
      spec.paths && (op(spec, "createWallet").requestBody.content["application/json"].schema.$ref as string)
    )
      .split("/")
      .pop()!;
    const r = diff((d) => {
      d.components.schemas[name].properties.added = { type: "string" };
      d.components.schemas[name].required.push("added");
    });
    const { requests } = reachedBy(name);
    expect(lines(r)).toEqual(requests.map((w) => `breaking new-required-request-property ${w}`).sort());
  });

  it("a required property removed from Wallet: breaking at every operation and webhook that returns it, once each", () => {
    const r = diff((d) => {
      delete d.components.schemas.Wallet.properties.name;
      d.components.schemas.Wallet.required = d.components.schemas.Wallet.required.filter((p: string) => p !== "name");
    });
    const { responses, webhooks } = reachedBy("Wallet");
    expect(responses.length).toBeGreaterThan(1);
    expect(lines(r)).toEqual(
      [
        ...responses.map((w) => `breaking response-required-property-removed ${w}`),
        ...webhooks.map((w) => `breaking webhook-property-removed-required ${w}`),
      ].sort(),
    );
  });

  it("an enum value added to WalletType: breaking where it is received, info where it is sent", () => {
    const r = diff((d) => d.components.schemas.WalletType.enum.push("added"));
    const { responses, requests, webhooks } = reachedBy("WalletType");
    expect(requests.length).toBeGreaterThan(0);
    expect(lines(r)).toEqual(
      [
        ...responses.map((w) => `breaking response-property-enum-value-added ${w}`),
        ...webhooks.map((w) => `breaking webhook-property-enum-value-added ${w}`),
        ...requests.map((w) => `info request-property-enum-value-added ${w}`),
      ].sort(),
    );
  });

  it("an enum value removed from WalletType: breaking where it is sent, info where it is received", () => {
    const r = diff((d) => (d.components.schemas.WalletType.enum = d.components.schemas.WalletType.enum.slice(0, 1)));
    const { responses, requests, webhooks } = reachedBy("WalletType");
    expect(lines(r)).toEqual(
      [
        ...responses.map((w) => `info response-property-enum-value-removed ${w}`),
        ...webhooks.map((w) => `info webhook-property-enum-value-removed ${w}`),
        ...requests.map((w) => `breaking request-property-enum-value-removed ${w}`),
      ].sort(),
    );
  });

  it("a success status and an error status removed", () => {
    const r = diff((d) => {
      delete op(d, "getWallet").responses["200"];
      delete op(d, "getWallet").responses["404"];
    });
    expect(lines(r)).toEqual([
      `breaking response-success-status-removed ${whereOf("getWallet")}`,
      `info response-non-success-status-removed ${whereOf("getWallet")}`,
    ]);
  });

  it("a response content type removed", () => {
    const r = diff((d) => {
      const ok = op(d, "getWallet").responses["200"];
      const resolved = ok.$ref ? d.components.responses[ok.$ref.split("/").pop()] : ok;
      op(d, "getWallet").responses["200"] = { ...resolved, content: { "text/plain": { schema: { type: "string" } } } };
    });
    expect(lines(r)).toEqual([
      `breaking response-media-type-removed ${whereOf("getWallet")}`,
      `info response-media-type-added ${whereOf("getWallet")}`,
    ]);
  });

  it("x-custody-min-role raised, x-custody-scopes widened", () => {
    expect(lines(diff((d) => (op(d, "listWallets")["x-custody-min-role"] = "owner")))).toEqual([
      `breaking api-custody-min-role-raised ${whereOf("listWallets")}`,
    ]);
    expect(lines(diff((d) => op(d, "getWallet")["x-custody-scopes"].push("balances:read")))).toEqual([
      `breaking api-custody-scope-added ${whereOf("getWallet")}`,
    ]);
  });

  it("a new security scheme required", () => {
    const r = diff((d) => {
      d.components.securitySchemes.Added = { type: "http", scheme: "bearer" };
      op(d, "getHealth").security = (d.security as Doc[]).map((req) => ({ ...req, Added: [] }));
    });
    expect(lines(r)).toEqual([`breaking api-security-added ${whereOf("getHealth")}`]);
  });

  it("a webhook event removed", () => {
    const last = Object.keys(spec.webhooks).pop()!;
    expect(lines(diff((d) => delete d.webhooks[last]))).toEqual([`breaking webhook-removed webhook ${last}`]);
  });
});

describe("custody diff on spec/openrpc.json", () => {
  it("a method removed; a required param added", () => {
    const first = rpc.methods[0].name as string;
    expect(lines(rpcDiff((d) => d.methods.shift()))).toEqual([`breaking rpc-method-removed rpc ${first}`]);
    expect(
      lines(rpcDiff((d) => d.methods[0].params.push({ name: "added", required: true, schema: { type: "string" } }))),
    ).toEqual([`breaking rpc-new-required-param rpc ${first}`]);
  });
});
