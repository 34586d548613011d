// custody replay and certify --har: a failed check's recorded request is sent again signed with the
// current credentials, beside the recorded answer; the HAR file holds every exchange, secrets masked.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { run as certify } from "../cli/certify.ts";
import { run as replay } from "../cli/replay.ts";
import { fuzzChecks } from "../conformance/checks/fuzz/index.ts";
import { HarRecorder } from "../conformance/report/har.ts";
import { renderJson } from "../conformance/report/json.ts";
import { REDACTED, redactorFor } from "../conformance/transport/redact.ts";
import { envelope, runBehindProxy } from "./support/deep-target.ts";
import type { ProxiedRequest, ProxiedResponse } from "./support/fake-proxy.ts";

const dir = mkdtempSync(join(tmpdir(), "custody-replay-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("custody replay", () => {
  it("re-sends a failed check's request signed now, beside the recorded answer; --base-url retargets", async () => {
    const accepts = {
      response: (q: ProxiedRequest, s: ProxiedResponse) =>
        q.method === "POST" && s.status === 400 ? envelope(201, null) : s,
    };
    let viaProxy = "";
    let direct = "";
    await runBehindProxy({
      hooks: () => accepts,
      catalog: (ops) =>
        fuzzChecks(
          ops.filter((o) => o.operationId === "createWebhook"),
          { cases: 40, seed: "9", allowWrites: false },
        ),
      then: async ({ report, target, sandboxUrl }) => {
        expect(report.checks[0].status).toBe("failed");
        const file = join(dir, "report.json");
        writeFileSync(file, renderJson(report));
        const creds = ["--api-key", target.admin.apiKey, "--api-secret", target.admin.apiSecret];
        const code = await replay([file, "--check", "fuzz.createWebhook", ...creds], {
          stdout: (t) => (viaProxy += t),
          stderr: (t) => (viaProxy += t),
        });
        expect(code).toBe(0);
        await replay([file, ...creds, "--base-url", sandboxUrl], {
          stdout: (t) => (direct += t),
          stderr: (t) => (direct += t),
        });
        expect(viaProxy + direct).not.toContain(target.admin.apiSecret);
      },
    });
    expect(viaProxy).toMatch(/recorded: HTTP 201/);
    expect(viaProxy).toMatch(/now: +HTTP 201/);
    expect(viaProxy).toContain("the failure reproduces");
    // The deployment itself refuses the invalid body: the fault was the proxy's.
    expect(direct).toMatch(/now: +HTTP 400/);
    expect(direct).toContain("another status than recorded");
  });

  it("says what is wrong with its input in one line", async () => {
    let err = "";
    expect(await replay([join(dir, "missing.json")], { stderr: (t) => (err += t) })).toBe(2);
    expect(err).toMatch(/cannot read .*missing\.json: ENOENT/);
    writeFileSync(join(dir, "not-a-report.json"), "{}");
    err = "";
    expect(await replay([join(dir, "not-a-report.json")], { stderr: (t) => (err += t) })).toBe(2);
    expect(err).toContain("is not a JSON report of custody certify");
  });
});

describe("certify --har", () => {
  it("is written by the command, with the count of exchanges", async () => {
    const file = join(dir, "run.har");
    let out = "";
    await certify(["--sandbox", "--only", "envelope", "--har", file, "--no-color", "--quiet"], {
      stdout: (t) => (out += t),
      stderr: (t) => (out += t),
    });
    expect(out).toMatch(/HAR \(\d+ exchanges\) written to /);
    const log = (JSON.parse(readFileSync(file, "utf8")) as { log: { entries: unknown[] } }).log;
    expect(log.entries.length).toBeGreaterThan(10);
  });

  it("records every exchange as HAR 1.2 with credentials and secrets masked", async () => {
    const har = new HarRecorder();
    const { target } = await runBehindProxy({
      onExchange: har.record,
      catalog: (ops) =>
        fuzzChecks(
          ops.filter((o) => ["createApiKey", "listWallets"].includes(o.operationId)),
          { cases: 15, seed: "3", allowWrites: true },
        ),
    });
    const text = har.render(redactorFor(target), "test");
    const log = (
      JSON.parse(text) as {
        log: {
          version: string;
          entries: Array<{
            request: { headers: Array<{ name: string; value: string }> };
            response: { status: number; content: { text: string } };
          }>;
        };
      }
    ).log;
    expect(log.version).toBe("1.2");
    expect(log.entries.length).toBeGreaterThanOrEqual(30);
    expect(text).not.toContain(target.admin.apiSecret);
    for (const e of log.entries) {
      const sign = e.request.headers.find((h) => h.name.toLowerCase() === "access-sign");
      if (sign) expect(sign.value).toBe(REDACTED);
    }
    // createApiKey answers carry a new key's secret: masked too.
    const created = log.entries.filter(
      (e) => e.response.status === 201 && e.response.content.text.includes('"secret"'),
    );
    expect(created.length).toBeGreaterThan(0);
    for (const e of created) expect(e.response.content.text).toMatch(/"secret":"\*\*\*redacted\*\*\*"/);
  });
});
