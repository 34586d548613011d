// The reporters: JSON has the shape other tools read, JUnit is well-formed XML with one testsuite
// per group, the HTML page holds every check and escapes everything, the console prints a summary.
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { consoleReporter, summaryLines } from "../conformance/report/console.ts";
import { renderHtml } from "../conformance/report/html.ts";
import { renderJson } from "../conformance/report/json.ts";
import { renderJunit, xmlEscape } from "../conformance/report/junit.ts";
import type { Report } from "../conformance/report/model.ts";
import { type RunEvent, runSuite } from "../conformance/run/runner.ts";
import { fakeTargetConfig, startFakeTarget } from "./support/fake-target.ts";

const evidenceSchema = z
  .object({
    request: z
      .object({
        method: z.string(),
        url: z.string(),
        headers: z.record(z.string(), z.string()),
        body: z.string().optional(),
      })
      .optional(),
    response: z
      .object({
        status: z.number().optional(),
        headers: z.record(z.string(), z.string()).optional(),
        body: z.string().optional(),
        error: z.string().optional(),
      })
      .optional(),
    details: z.unknown().optional(),
  })
  .strict();

const reportSchema = z.object({
  summary: z.object({
    certified: z.boolean(),
    level: z.enum(["seed", "full"]),
    target: z.object({ base_url: z.string(), rpc_url: z.string(), ws_url: z.string() }),
    started_at: z.iso.datetime(),
    finished_at: z.iso.datetime(),
    duration_ms: z.number().int().nonnegative(),
    total: z.number().int(),
    passed: z.number().int(),
    failed: z.number().int(),
    skipped: z.number().int(),
    must_failed: z.number().int(),
    should_failed: z.number().int(),
    webhook_profile: z.string().nullable(),
    groups: z.array(z.object({ group: z.string(), passed: z.number(), failed: z.number(), skipped: z.number() })),
  }),
  checks: z.array(
    z.object({
      id: z.string(),
      group: z.string(),
      title: z.string(),
      severity: z.enum(["MUST", "SHOULD"]),
      status: z.enum(["passed", "failed", "skipped"]),
      seed_ref: z.string(),
      level: z.enum(["seed", "full"]),
      duration_ms: z.number().int().nonnegative(),
      message: z.string().nullable(),
      evidence: evidenceSchema.nullable(),
      profile: z.string().optional(),
      facts: z.record(z.string(), z.string()).optional(),
    }),
  ),
});

let report: Report;
const events: RunEvent["type"][] = [];
let consoleText = "";

beforeAll(async () => {
  // A real run with faults on, so there are passes, failures with evidence, and skips.
  const t = await startFakeTarget({
    faults: ["accept-stale-timestamp", "accept-milliseconds", "no-request-id", "rpc-no-batch"],
  });
  try {
    const print = consoleReporter({ write: (s) => (consoleText += s) });
    const result = await runSuite({
      target: fakeTargetConfig(t),
      options: { level: "full", timeoutMs: 4_000, concurrency: 8 },
      operations: t.operations,
      onEvent: (e) => {
        events.push(e.type);
        print(e);
      },
    });
    if (result.kind !== "completed") throw new Error(result.failure.lines.join(" "));
    report = result.report;
  } finally {
    await t.close();
  }
});

/** A small well-formedness check: balanced tags, quoted attributes, escaped text. */
function expectWellFormedXml(xml: string): void {
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, "");
  const stack: string[] = [];
  for (const [token] of body.matchAll(/<[^>]*>|[^<]+/g)) {
    if (!token.startsWith("<")) {
      expect(token, "text").not.toMatch(/&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/);
      continue;
    }
    const close = /^<\/([\w:-]+)>$/.exec(token);
    if (close) {
      expect(stack.pop(), `closing ${close[1]}`).toBe(close[1]);
      continue;
    }
    const open = /^<([\w:-]+)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>$/.exec(token);
    expect(open, `tag ${token.slice(0, 80)}`).not.toBeNull();
    for (const [, value] of open![2].matchAll(/="([^"]*)"/g))
      expect(value).not.toMatch(/&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/);
    if (open![3] !== "/") stack.push(open![1]);
  }
  expect(stack).toEqual([]);
}

describe("JSON report", () => {
  it("has the documented shape, with counts that add up", () => {
    const parsed = reportSchema.parse(JSON.parse(renderJson(report)));
    const s = parsed.summary;
    expect(s.passed + s.failed + s.skipped).toBe(s.total);
    expect(s.total).toBe(parsed.checks.length);
    expect(s.certified).toBe(false);
    expect(s.must_failed).toBeGreaterThan(0);
    expect(s.should_failed).toBe(report.checks.filter((c) => c.status === "failed" && c.severity === "SHOULD").length);
    expect(s.should_failed).toBeGreaterThan(0); // stale timestamps, no-request-id and rpc-no-batch break SHOULD rules
  });

  it("carries the reproducing request and the response of a failure", () => {
    const stale = report.checks.find((c) => c.id === "auth.stale-timestamp")!;
    expect(stale.status).toBe("failed");
    expect(stale.evidence?.request?.headers["ACCESS-SIGN"]).toBe("***redacted***");
    expect(stale.evidence?.response?.status).toBe(200);
  });

  it("reports the webhook profile on the check and in the summary", () => {
    expect(report.summary.webhook_profile).toBe("standard-webhooks");
    expect(report.checks.find((c) => c.id === "webhooks.delivery-signature")?.profile).toBe("standard-webhooks");
  });
});

describe("JUnit report", () => {
  it("is well-formed XML with one testsuite per group and one testcase per check", () => {
    const xml = renderJunit(report);
    expectWellFormedXml(xml);
    expect(xml.match(/<testsuite /g)?.length).toBe(report.summary.groups.length);
    expect(xml.match(/<testcase /g)?.length).toBe(report.checks.length);
    // Only failed MUST checks are <failure>s; a failed SHOULD check is a <skipped> "SHOULD failed: ..." (CI stays green).
    expect(xml.match(/<failure /g)?.length).toBe(report.summary.must_failed);
    expect(xml.match(/<skipped message="SHOULD failed: /g)?.length).toBe(report.summary.should_failed);
    expect(xml.match(/<skipped /g)?.length).toBe(report.summary.skipped + report.summary.should_failed);
    expect(xml).toContain("Reproduce: curl -X GET");
  });

  it("escapes markup and drops characters XML cannot carry", () => {
    expect(xmlEscape(`<a href="x">&'\u0001`)).toBe("&lt;a href=&quot;x&quot;&gt;&amp;&apos;\uFFFD");
    const hostile = withHostileMessage(report);
    expectWellFormedXml(renderJunit(hostile));
  });
});

describe("HTML report", () => {
  it("holds every check with its seed reference, and the request and response of failures", () => {
    const html = renderHtml(report);
    for (const c of report.checks) {
      expect(html).toContain(`id="check-${c.id}"`);
    }
    expect(html).toContain("seed §5 rule 1");
    expect(html).toContain("Request sent");
    expect(html).toContain("Response received");
    for (const g of report.summary.groups) expect(html).toContain(`id="group-${g.group}"`);
  });

  it("is self-contained and escapes everything a target sends", () => {
    const html = renderHtml(withHostileMessage(report));
    expect(html).not.toContain("<script>alert(1)</script>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).not.toMatch(/<(script|link|img|iframe)\b/i);
    expect(html).not.toMatch(/(src|href)="https?:/i);
  });
});

describe("console reporter", () => {
  it("prints progress per check, a line per finished group and a summary table", () => {
    expect(events[0]).toBe("start");
    expect(events.at(-1)).toBe("end");
    expect(events.filter((e) => e === "group-end").length).toBe(report.summary.groups.length);
    expect(consoleText).toMatch(/\[\s*1\/\d+\] (PASS|FAIL|SKIP)/);
    expect(consoleText).toContain("▸ auth:");
    expect(consoleText).toContain("reproduce: curl");
    expect(consoleText).toContain("NOT CERTIFIED");
    const lines = summaryLines(report);
    expect(lines.find((l) => l.trim().startsWith("total"))).toMatch(
      new RegExp(`${report.summary.passed}\\s+${report.summary.failed}\\s+${report.summary.skipped}`),
    );
  });
});

function withHostileMessage(r: Report): Report {
  const copy = structuredClone(r);
  const failed = copy.checks.find((c) => c.status === "failed")!;
  failed.message = `<script>alert(1)</script> & "quotes" \u0000\u0007 ]]>`;
  failed.evidence = {
    ...failed.evidence,
    response: { status: 200, headers: { "x-evil": "<b>" }, body: "<script>alert(1)</script>" },
  };
  return copy;
}
