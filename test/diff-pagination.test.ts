// custody diff on paged lists (x-custody-pagination): each change a caller of the list notices, with
// its class, and one line per change (the limit's default and maximum are not reported twice).

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import YAML from "yaml";
import { SpecDoc } from "../diff/document.ts";
import { diffDocuments } from "../diff/index.ts";
import { baseSpec, diffOf, lines } from "./diff/helpers.ts";

const LIST = "GET /wallets";

/** The base spec with GET /wallets paged by offset and limit (20 by default, at most 100). */
function paged() {
  const d = baseSpec();
  const op = d.paths["/wallets"].get;
  op.parameters = [
    { name: "offset", in: "query", schema: { type: "integer", minimum: 0, default: 0 } },
    { $ref: "#/components/parameters/Limit" },
  ];
  op["x-custody-pagination"] = { style: "offset-limit", offset: "offset", limit: "limit", items: "" };
  d.components.parameters = {
    Limit: { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 100, default: 20 } },
  };
  return d;
}

describe("custody diff: paged lists", () => {
  it("paging a list that answered everything is breaking (callers without limit now get one page)", () => {
    const r = diffOf((d) => Object.assign(d, paged()));
    expect(lines(r).filter((l) => l.includes(LIST))).toEqual([
      `breaking pagination-added ${LIST}`,
      `info new-optional-request-parameter ${LIST}`,
      `info new-optional-request-parameter ${LIST}`,
    ]);
    expect(r.changes.find((c) => c.id === "pagination-added")?.message).toContain(
      "the first 20 records instead of the whole list",
    );
    expect(r.summary.semver).toBe("major");
  });

  it("no longer paging it is breaking", () => {
    expect(lines(diffOf((d) => delete d.paths["/wallets"].get["x-custody-pagination"], paged()))).toEqual([
      `breaking pagination-removed ${LIST}`,
    ]);
  });

  it("a lower maximum is breaking, a higher one info, each reported once", () => {
    expect(lines(diffOf((d) => (d.components.parameters.Limit.schema.maximum = 50), paged()))).toEqual([
      `breaking pagination-max-page-size-decreased ${LIST}`,
    ]);
    expect(lines(diffOf((d) => (d.components.parameters.Limit.schema.maximum = 500), paged()))).toEqual([
      `info pagination-max-page-size-increased ${LIST}`,
    ]);
    expect(lines(diffOf((d) => delete d.components.parameters.Limit.schema.maximum, paged()))).toEqual([
      `info pagination-max-page-size-removed ${LIST}`,
    ]);
  });

  it("a changed default page size is breaking either way, reported once", () => {
    for (const value of [10, 50]) {
      const r = diffOf((d) => (d.components.parameters.Limit.schema.default = value), paged());
      expect(lines(r)).toEqual([`breaking pagination-default-page-size-changed ${LIST}`]);
      expect(r.changes[0].newPointer).toBe("/components/parameters/Limit/schema/default");
    }
  });

  it("renamed paging parameters or moved items are breaking", () => {
    expect(lines(diffOf((d) => (d.paths["/wallets"].get["x-custody-pagination"].items = "/data"), paged()))).toEqual([
      `breaking pagination-items-changed ${LIST}`,
    ]);
    const renamed = diffOf((d) => {
      d.paths["/wallets"].get.parameters[0].name = "skip";
      d.paths["/wallets"].get["x-custody-pagination"].offset = "skip";
    }, paged());
    expect(lines(renamed)).toContain(`breaking pagination-parameters-changed ${LIST}`);
  });

  it("keeps the generic parameter findings where the parameter is not a paged list's limit", () => {
    const d = paged();
    d.paths["/wallets"].get.parameters.push({
      name: "size",
      in: "query",
      schema: { type: "integer", maximum: 10, default: 5 },
    });
    const r = diffOf((n) => {
      n.paths["/wallets"].get.parameters[2].schema.maximum = 5;
      n.paths["/wallets"].get.parameters[2].schema.default = 3;
    }, d);
    expect(lines(r)).toEqual([
      `breaking request-parameter-default-value-changed ${LIST}`,
      `breaking request-parameter-max-decreased ${LIST}`,
    ]);
  });

  it("on our own spec: paging operation 4 as it was before is one breaking change", () => {
    const next = YAML.parse(readFileSync(new URL("../spec/openapi.yaml", import.meta.url), "utf8"));
    const old = structuredClone(next);
    const op = old.paths["/api/v1/wallets/{wallet_id}/withdrawals"].get;
    delete op["x-custody-pagination"];
    op.parameters = op.parameters.filter((p: { $ref?: string; name?: string }) => p.$ref?.includes("WalletId"));
    const r = diffDocuments({ openapi: { old: new SpecDoc(old, "old.yaml"), next: new SpecDoc(next, "new.yaml") } });
    expect(r.changes.filter((c) => c.level === "breaking").map((c) => `${c.id} ${c.where}`)).toEqual([
      "pagination-added GET /api/v1/wallets/{wallet_id}/withdrawals",
    ]);
  });
});
