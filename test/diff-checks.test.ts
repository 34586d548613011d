// One small spec pair per check family: the mutation on the left, exactly the changes expected.

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { allChecks, CHECKS, SCHEMA_CHECKS } from "../diff/catalog.ts";
import { baseSpec, diffOf, lines, rpcDiffOf } from "./diff/helpers.ts";

const W = "/wallets/{id}";
const GET = `GET ${W}`;

describe("custody diff: identical documents", () => {
  it("reports nothing and semver none", () => {
    const r = diffOf(() => {});
    expect(r.changes).toEqual([]);
    expect(r.summary.semver).toBe("none");
  });
});

describe("custody diff: operations and paths", () => {
  it("a removed operation is breaking, a deprecated one is info", () => {
    expect(lines(diffOf((d) => delete d.paths["/wallets"].get))).toEqual([
      "breaking api-removed-without-deprecation GET /wallets",
    ]);
    const base = baseSpec();
    base.paths["/wallets"].get.deprecated = true;
    expect(lines(diffOf((d) => delete d.paths["/wallets"].get, base))).toEqual([
      "info api-removed-with-deprecation GET /wallets",
    ]);
  });

  it("a removed path reports each of its operations", () => {
    expect(lines(diffOf((d) => delete d.paths["/wallets"]))).toEqual([
      "breaking api-path-removed-without-deprecation GET /wallets",
      "breaking api-path-removed-without-deprecation POST /wallets",
    ]);
  });

  it("an added operation is info and a minor bump", () => {
    const r = diffOf((d) => (d.paths["/wallets"].delete = { responses: { "204": { description: "gone" } } }));
    expect(lines(r)).toEqual(["info endpoint-added DELETE /wallets"]);
    expect(r.summary.semver).toBe("minor");
  });

  it("renaming a path parameter is no change", () => {
    const r = diffOf((d) => {
      const item = d.paths[W];
      item.parameters[0].name = "wallet_id";
      delete d.paths[W];
      d.paths["/wallets/{wallet_id}"] = item;
    });
    expect(r.changes).toEqual([]);
  });
});

describe("custody diff: parameters", () => {
  it("added required / optional", () => {
    expect(
      lines(
        diffOf((d) =>
          d.paths[W].get.parameters.push({ name: "x", in: "query", required: true, schema: { type: "string" } }),
        ),
      ),
    ).toEqual([`breaking new-required-request-parameter ${GET}`]);
    expect(
      lines(diffOf((d) => d.paths[W].get.parameters.push({ name: "x", in: "header", schema: { type: "string" } }))),
    ).toEqual([`info new-optional-request-parameter ${GET}`]);
  });
  it("removed, made required, moved", () => {
    expect(lines(diffOf((d) => (d.paths[W].get.parameters = [])))).toEqual([
      `breaking request-parameter-removed ${GET}`,
    ]);
    expect(lines(diffOf((d) => (d.paths[W].get.parameters[0].required = true)))).toEqual([
      `breaking request-parameter-became-required ${GET}`,
    ]);
    expect(lines(diffOf((d) => (d.paths[W].get.parameters[0].in = "header")))).toEqual([
      `breaking request-parameter-location-changed ${GET}`,
    ]);
  });
  it("an optional parameter's default changed", () => {
    const base = baseSpec();
    base.paths[W].get.parameters[0].schema.default = false;
    expect(lines(diffOf((d) => (d.paths[W].get.parameters[0].schema.default = true), base))).toEqual([
      `breaking request-parameter-default-value-changed ${GET}`,
    ]);
    expect(lines(diffOf((d) => (d.paths[W].get.parameters[0].schema.default = true)))).toEqual([
      `breaking request-parameter-default-value-added ${GET}`,
    ]);
  });
  it("type narrowed is breaking, widened is info", () => {
    expect(lines(diffOf((d) => (d.paths[W].parameters[0].schema = { type: "integer" })))).toEqual([
      `breaking request-parameter-type-changed ${GET}`,
    ]);
    const base = baseSpec();
    base.paths[W].parameters[0].schema = { type: "integer" };
    expect(lines(diffOf((d) => (d.paths[W].parameters[0].schema = { type: "number" }), base))).toEqual([
      `info request-parameter-type-generalized ${GET}`,
    ]);
  });
});

describe("custody diff: request bodies", () => {
  const POST = "POST /wallets";
  const props = (d: any) => d.components.schemas.CreateWallet.properties;
  it("body added as required, made required, content type removed", () => {
    expect(
      lines(
        diffOf(
          (d) =>
            (d.paths[W].get.requestBody = {
              required: true,
              content: { "application/json": { schema: { type: "object" } } },
            }),
        ),
      ),
    ).toEqual([`breaking added-required-request-body ${GET}`]);
    const base = baseSpec();
    base.paths["/wallets"].post.requestBody.required = false;
    expect(lines(diffOf((d) => (d.paths["/wallets"].post.requestBody.required = true), base))).toEqual([
      `breaking request-body-became-required ${POST}`,
    ]);
    expect(
      lines(
        diffOf(
          (d) => (d.paths["/wallets"].post.requestBody.content = { "text/plain": { schema: { type: "string" } } }),
        ),
      ),
    ).toEqual([`breaking request-body-media-type-removed ${POST}`, `info request-body-media-type-added ${POST}`]);
  });
  it("narrowed: new required property, enum value removed, stricter bounds, pattern, type", () => {
    expect(lines(diffOf((d) => (props(d).type.enum = ["mpc"])))).toEqual([
      `breaking request-property-enum-value-removed ${POST}`,
    ]);
    expect(lines(diffOf((d) => (props(d).name.maxLength = 32)))).toEqual([
      `breaking request-property-max-length-decreased ${POST}`,
    ]);
    expect(lines(diffOf((d) => (props(d).count.minimum = 2)))).toEqual([
      `breaking request-property-min-increased ${POST}`,
    ]);
    expect(lines(diffOf((d) => (props(d).count.maximum = 5)))).toEqual([
      `breaking request-property-max-decreased ${POST}`,
    ]);
    expect(lines(diffOf((d) => (props(d).name.pattern = "^[a-z]+$")))).toEqual([
      `breaking request-property-pattern-added ${POST}`,
    ]);
    expect(lines(diffOf((d) => (props(d).count.type = "string")))).toEqual([
      `breaking request-property-type-changed ${POST}`,
    ]);
    expect(
      lines(
        diffOf((d) => (props(d).tag = { type: "string" }) && d.components.schemas.CreateWallet.required.push("tag")),
      ),
    ).toEqual([`breaking new-required-request-property ${POST}`]);
    expect(lines(diffOf((d) => d.components.schemas.CreateWallet.required.push("type")))).toEqual([
      `breaking request-property-became-required ${POST}`,
    ]);
  });
  it("widened is info, and readOnly properties are not the client's to send", () => {
    expect(lines(diffOf((d) => (props(d).name.maxLength = 128)))).toEqual([
      `info request-property-max-length-increased ${POST}`,
    ]);
    expect(lines(diffOf((d) => (props(d).type.enum = ["mpc", "hot", "cold"])))).toEqual([
      `info request-property-enum-value-added ${POST}`,
    ]);
    expect(diffOf((d) => d.components.schemas.CreateWallet.required.push("id")).changes).toEqual([]);
  });
});

describe("custody diff: responses", () => {
  const wallet = (d: any) => d.components.schemas.Wallet.allOf[1];
  const everyOp = (id: string, level = "breaking") => [
    `${level} ${id} GET /wallets`,
    `${level} ${id} GET ${W}`,
    `${level} ${id} POST /wallets`,
  ];
  // Wallet is also the webhook payload's `wallet`: the receiver of wallet.created reads it too.
  const everywhere = (id: string, hook: string, level = "breaking") =>
    [...everyOp(id, level), `${level} ${hook} webhook wallet.created`].sort();
  it("a property removed or made optional (inside allOf) is breaking at every operation it reaches", () => {
    expect(
      lines(
        diffOf((d) => {
          delete wallet(d).properties.name;
          wallet(d).required = ["type", "balance"];
        }),
      ),
    ).toEqual(everywhere("response-required-property-removed", "webhook-property-removed-required"));
    expect(lines(diffOf((d) => (wallet(d).required = ["type", "balance"])))).toEqual(
      everywhere("response-property-became-optional", "webhook-property-became-optional"),
    );
    expect(lines(diffOf((d) => delete wallet(d).properties.label))).toEqual(
      everywhere("response-optional-property-removed", "webhook-property-removed-optional", "warning"),
    );
  });
  it("an enum value added to a response, a type change", () => {
    expect(lines(diffOf((d) => (wallet(d).properties.type.enum = ["mpc", "hot", "cold"])))).toEqual(
      everywhere("response-property-enum-value-added", "webhook-property-enum-value-added"),
    );
    expect(lines(diffOf((d) => (wallet(d).properties.name.type = "integer")))).toEqual(
      everywhere("response-property-type-changed", "webhook-property-type-changed"),
    );
  });
  it("a deep change in a shared schema reached twice by one operation is one change per operation", () => {
    // Amount is reached through Wallet.balance and Wallet.reserved: two property paths, one place in the document.
    const r = diffOf((d) => (d.components.schemas.Amount.properties.unit.enum = ["wei", "gwei", "ether"]));
    expect(lines(r)).toEqual(everywhere("response-property-enum-value-added", "webhook-property-enum-value-added"));
    const c = r.changes.find((x) => x.where === GET)!;
    expect(c.oldPointer).toBe("/components/schemas/Amount/properties/unit");
    expect(c.newPointer).toBe("/components/schemas/Amount/properties/unit");
  });
  it("a status or content type removed; an error status removed is info", () => {
    expect(lines(diffOf((d) => delete d.paths["/wallets"].post.responses["201"]))).toEqual([
      "breaking response-success-status-removed POST /wallets",
    ]);
    expect(lines(diffOf((d) => delete d.paths[W].get.responses["404"]))).toEqual([
      `info response-non-success-status-removed ${GET}`,
    ]);
    expect(
      lines(
        diffOf(
          (d) => (d.paths[W].get.responses["200"].content = { "application/xml": { schema: { type: "string" } } }),
        ),
      ),
    ).toEqual([`breaking response-media-type-removed ${GET}`, `info response-media-type-added ${GET}`]);
  });
  it("a recursive schema terminates", () => {
    expect(
      lines(
        diffOf(
          (d) =>
            (d.components.schemas.Base.properties.parent = { $ref: "#/components/schemas/Base", description: "x" }),
        ),
      ),
    ).toEqual([]);
  });
});

describe("custody diff: security", () => {
  it("a new scheme required is breaking; an alternative is info", () => {
    expect(lines(diffOf((d) => (d.paths[W].get.security = [{ Key: [], Bearer: [] }])))).toEqual([
      `breaking api-security-added ${GET}`,
    ]);
    expect(lines(diffOf((d) => (d.paths[W].get.security = [{ Key: [] }, { Bearer: [] }])))).toEqual([
      `info api-security-alternative-added ${GET}`,
    ]);
  });
  it("a scope added to a scheme", () => {
    const base = baseSpec();
    base.security = [{ Key: ["read"] }];
    expect(lines(diffOf((d) => (d.security = [{ Key: ["read", "write"] }]), base))).toEqual([
      "breaking api-security-scope-added GET /wallets",
      `breaking api-security-scope-added ${GET}`,
      "breaking api-security-scope-added POST /wallets",
    ]);
  });
  it("x-custody-scopes and x-custody-min-role", () => {
    expect(lines(diffOf((d) => d.paths[W].get["x-custody-scopes"].push("balances:read")))).toEqual([
      `breaking api-custody-scope-added ${GET}`,
    ]);
    expect(lines(diffOf((d) => (d.paths[W].get["x-custody-scopes"] = [])))).toEqual([
      `info api-custody-scope-removed ${GET}`,
    ]);
    expect(lines(diffOf((d) => (d.paths[W].get["x-custody-min-role"] = "admin")))).toEqual([
      `breaking api-custody-min-role-raised ${GET}`,
    ]);
    const base = baseSpec();
    base.paths[W].get["x-custody-min-role"] = "owner";
    expect(lines(diffOf((d) => (d.paths[W].get["x-custody-min-role"] = "admin"), base))).toEqual([
      `info api-custody-min-role-lowered ${GET}`,
    ]);
    const ordered = baseSpec();
    ordered["x-custody-roles"] = { order: ["reader", "viewer"] };
    expect(lines(diffOf((d) => (d.paths[W].get["x-custody-min-role"] = "reader"), ordered))).toEqual([
      `info api-custody-min-role-lowered ${GET}`,
    ]);
  });
  it("a scheme that moved its key", () => {
    expect(lines(diffOf((d) => (d.components.securitySchemes.Key.in = "query")))).toEqual([
      "breaking security-scheme-changed GET /wallets",
      `breaking security-scheme-changed ${GET}`,
      "breaking security-scheme-changed POST /wallets",
    ]);
  });
});

describe("custody diff: webhooks", () => {
  it("an event removed is breaking, added is info", () => {
    expect(lines(diffOf((d) => delete d.webhooks["wallet.created"]))).toEqual([
      "breaking webhook-removed webhook wallet.created",
    ]);
    expect(lines(diffOf((d) => (d.webhooks["wallet.deleted"] = d.webhooks["wallet.created"])))).toEqual([
      "info webhook-added webhook wallet.deleted",
    ]);
  });
  it("payloads narrow like responses", () => {
    expect(
      lines(
        diffOf((d) => (d.components.schemas.WalletEvent.properties.event.enum = ["wallet.created", "wallet.renamed"])),
      ),
    ).toEqual(["breaking webhook-property-enum-value-added webhook wallet.created"]);
    expect(
      lines(
        diffOf((d) => {
          delete d.components.schemas.WalletEvent.properties.event;
          d.components.schemas.WalletEvent.required = ["wallet"];
        }),
      ),
    ).toEqual(["breaking webhook-property-removed-required webhook wallet.created"]);
  });
});

describe("custody diff: JSON-RPC methods", () => {
  it("a method removed, added", () => {
    expect(lines(rpcDiffOf((d) => d.methods.pop()))).toEqual(["breaking rpc-method-removed rpc eth_blockNumber"]);
    expect(
      lines(
        rpcDiffOf((d) =>
          d.methods.push({ name: "eth_chainId", params: [], result: { name: "id", schema: { type: "string" } } }),
        ),
      ),
    ).toEqual(["info rpc-method-added rpc eth_chainId"]);
  });
  it("params: added required, removed, renamed, narrowed", () => {
    const G = "rpc eth_getBalance";
    expect(
      lines(rpcDiffOf((d) => d.methods[0].params.push({ name: "tag", required: true, schema: { type: "string" } }))),
    ).toEqual([`breaking rpc-new-required-param ${G}`]);
    expect(lines(rpcDiffOf((d) => d.methods[0].params.pop()))).toEqual([`breaking rpc-param-removed ${G}`]);
    expect(lines(rpcDiffOf((d) => (d.methods[0].params[1].name = "blockTag")))).toEqual([
      `warning rpc-param-renamed ${G}`,
    ]);
    expect(lines(rpcDiffOf((d) => (d.components.schemas.Address.pattern = "^0x[0-9a-f]{40}$")))).toEqual([
      `warning rpc-param-pattern-changed ${G}`,
    ]);
    expect(lines(rpcDiffOf((d) => (d.methods[0].params[1].schema = { type: "integer" })))).toEqual([
      `breaking rpc-param-type-changed ${G}`,
    ]);
  });
  it("results narrow like responses", () => {
    expect(lines(rpcDiffOf((d) => delete d.methods[0].result.schema.properties.hex))).toEqual([
      "breaking rpc-result-property-removed-required rpc eth_getBalance",
    ]);
    expect(lines(rpcDiffOf((d) => (d.methods[1].result.schema = { type: ["string", "null"] })))).toEqual([
      "breaking rpc-result-became-nullable rpc eth_blockNumber",
    ]);
  });
});

describe("custody diff: catalog", () => {
  it("every reported id is in the catalog with the level it was reported at", () => {
    const catalog = new Map(allChecks().map((c) => [c.id, c.level]));
    const r = diffOf((d) => {
      delete d.paths["/wallets"].get;
      d.components.schemas.Amount.properties.unit.enum = ["wei"];
      d.paths[W].get["x-custody-min-role"] = "owner";
    });
    expect(r.changes.length).toBeGreaterThan(3);
    for (const c of r.changes) expect(catalog.get(c.id), c.id).toBe(c.level);
    expect(new Set(allChecks().map((c) => c.id)).size).toBe(allChecks().length);
  });

  it("docs/reference/diff-checks.md lists every check id and schema suffix", () => {
    const readme = readFileSync("docs/reference/diff-checks.md", "utf8");
    for (const id of [...Object.keys(CHECKS), ...Object.keys(SCHEMA_CHECKS)])
      expect(readme, id).toContain(`| \`${id}\` |`);
  });
});
