// Every example in spec/openapi.yaml (responses, request bodies, webhook events) validates against
// its schema, so that the Prism mock serves data a generated client accepts. Schemas are turned into
// validators with zod 4's z.fromJSONSchema (JSON Schema 2020-12, as OpenAPI 3.1 uses).

import { readFileSync } from "node:fs";
import SwaggerParser from "@apidevtools/swagger-parser";
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";

const raw: any = parse(readFileSync(new URL("../spec/openapi.yaml", import.meta.url), "utf8"), { maxAliasCount: -1 });
const METHODS = ["get", "put", "post", "delete", "patch"];

interface Sample {
  where: string;
  schema: unknown;
  value: unknown;
}

/** Every (schema, example) pair of one media-type object. */
function samplesOf(where: string, media: any): Sample[] {
  if (!media?.schema) return [];
  const values: [string, unknown][] = [];
  if (media.example !== undefined) values.push(["example", media.example]);
  for (const [name, ex] of Object.entries<any>(media.examples ?? {})) values.push([name, ex.value]);
  return values.map(([name, value]) => ({ where: `${where} (${name})`, schema: media.schema, value }));
}

/** Walks paths and webhooks of the dereferenced document. */
function collectSamples(api: any): Sample[] {
  const samples: Sample[] = [];
  for (const [group, items] of [
    ["paths", api.paths],
    ["webhooks", api.webhooks],
  ] as const) {
    for (const [key, item] of Object.entries<any>(items)) {
      for (const method of METHODS.filter((m) => item[m])) {
        const op = item[method];
        const at = `${group} ${method.toUpperCase()} ${key}`;
        samples.push(...samplesOf(`${at} request`, op.requestBody?.content?.["application/json"]));
        for (const [status, response] of Object.entries<any>(op.responses ?? {})) {
          samples.push(...samplesOf(`${at} ${status}`, response.content?.["application/json"]));
        }
      }
    }
  }
  return samples;
}

function problemsOf(sample: Sample): string | undefined {
  const result = z.fromJSONSchema(sample.schema as any).safeParse(sample.value);
  return result.success
    ? undefined
    : `${sample.where}: ${result.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}`;
}

describe("spec examples", () => {
  let api: any;
  let samples: Sample[];

  beforeAll(async () => {
    api = await SwaggerParser.dereference(structuredClone(raw));
    samples = collectSamples(api);
  });

  it("finds an example for every response, request body and webhook event", () => {
    // 29 operations with 4-8 responses each, 8 request bodies and 7 events.
    expect(samples.length).toBeGreaterThan(150);
    const webhookSamples = samples.filter((s) => s.where.startsWith("webhooks") && s.where.includes("request"));
    expect(webhookSamples).toHaveLength(7);
  });

  it("validates every example against its schema", () => {
    const problems = samples.map(problemsOf).filter(Boolean);
    expect(problems).toEqual([]);
  });

  it("validates the header and parameter examples", () => {
    const problems: string[] = [];
    for (const [name, param] of Object.entries<any>(api.components.parameters)) {
      if (param.example === undefined) continue;
      const p = problemsOf({ where: `parameter ${name}`, schema: param.schema, value: param.example });
      if (p) problems.push(p);
    }
    const header = api.components.headers.XRequestId;
    const h = problemsOf({ where: "header x-request-id", schema: header.schema, value: header.example });
    if (h) problems.push(h);
    expect(problems).toEqual([]);
  });

  it("rejects a wrong example (the check can fail)", () => {
    const overview = api.paths["/api/v1/wallets/{wallet_id}/overview"].get.responses["200"].content["application/json"];
    const bad = structuredClone(overview.examples.default.value);
    bad.data[0].network.chain_id = "11155111";
    bad.data[0].refreshed_at = "yesterday";
    const problem = problemsOf({ where: "broken overview", schema: overview.schema, value: bad });
    expect(problem).toMatch(/chain_id/);
    expect(problem).toMatch(/refreshed_at/);
  });

  it("keeps ids consistent: one workspace and the Treasury wallet everywhere", () => {
    const text = JSON.stringify(api.components.examples);
    const workspaces = new Set([...text.matchAll(/"workspace_id":"([^"]+)"/g)].map((m) => m[1]));
    expect([...workspaces]).toEqual(["12b4cc7d-d463-40aa-9d2c-0abf5533ac59"]);
    expect(text).toContain("73d83f0b-eb45-4250-abf0-af3ac8ae1e03");
    // Every id in the examples is a UUID v4, as the real service's SDK demands before sending.
    expect(text).not.toMatch(/\b(wal|ws|wdr|txn|ast|net|whk|dlv|evt)_[0-9A-Za-z]/);
  });
});
