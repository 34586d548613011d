// Property-based fuzzing of the generated server with the reference handlers, over every operation of
// generated/operations.ts: malformed paths, percent-encodings, query strings, duplicate and huge headers,
// bodies of the wrong type, huge, deeply nested, not UTF-8 or not JSON, sent unauthenticated and
// correctly signed (over the exact bytes sent, so they reach validation and the handlers). Every answer
// must be a status the operation declares (404 when no operation matches), never a 5xx, the JSON
// envelope, no stack trace, within a time bound. Here 40 runs per operation (a random seed each run,
// so CI covers new cases every time); test/hardening-fuzz-server.scale.test.ts runs 300 per operation
// and scripts/fuzz.ts many more. CUSTODY_FUZZ_RUNS and CUSTODY_FUZZ_SEED change or reproduce a run.
import { describe, expect, it } from "vitest";
import { UNAUTHORIZED_BODY } from "../runtime/envelope.ts";
import { type RequestPlan, sendRaw, violations } from "./hardening-fuzz-kit.ts";
import { describeServerFuzz } from "./hardening-fuzz-suite.ts";

const fuzz = describeServerFuzz(40);

describe("requests node's HTTP parser refuses get the error envelope too (runtime/server/listen.ts)", () => {
  const cases: Record<string, string> = {
    "raw UTF-8 in the request target": "GET /api/v1/wallets/\u00fc HTTP/1.1\r\nHost: x\r\n\r\n",
    "a lower-case method": "get /api/v1/networks HTTP/1.1\r\nHost: x\r\n\r\n",
    "a control character in a header value": "GET /api/v1/networks HTTP/1.1\r\nHost: x\r\nX-A: a\u0001b\r\n\r\n",
    "headers over 16 KiB": `GET /api/v1/networks HTTP/1.1\r\nHost: x\r\nX-A: ${"a".repeat(20_000)}\r\n\r\n`,
    "two different content-lengths":
      "POST /api/v1/wallets HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
    "content-length with transfer-encoding":
      "POST /api/v1/wallets HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    "a broken chunk size": "POST /api/v1/wallets HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n\r\n",
    "HTTP/1.1 without Host": "GET /api/v1/networks HTTP/1.1\r\n\r\n",
  };
  for (const [name, request] of Object.entries(cases)) {
    it(name, async () => {
      const outcome = await sendRaw(fuzz().target.host, fuzz().target.port, Buffer.from(request, "latin1"), 5_000);
      expect(outcome.kind).toBe("answer");
      if (outcome.kind !== "answer") return;
      const header = (n: string) => outcome.answer.headers.filter(([k]) => k === n).map(([, v]) => v);
      expect(outcome.answer.status).toBe(400);
      expect(header("content-type")).toEqual(["application/json; charset=utf-8"]);
      expect(header("x-request-id")).toHaveLength(1);
      expect(header("connection")).toEqual(["close"]);
      const body = JSON.parse(outcome.answer.body.toString("utf8"));
      expect(body).toMatchObject({ success: false, code: 400, data: null });
      expect(body.message).toMatch(/^bad HTTP request: /);
    });
  }

  it("HTTP/1.0 without Host is still served (Host is required of HTTP/1.1 only)", async () => {
    const outcome = await sendRaw(
      fuzz().target.host,
      fuzz().target.port,
      Buffer.from("GET /api/v1/networks HTTP/1.0\r\n\r\n"),
      5_000,
    );
    expect(outcome.kind === "answer" && outcome.answer.status).toBe(401);
    expect(outcome.kind === "answer" && outcome.answer.body.toString()).toBe(UNAUTHORIZED_BODY);
  });
});

describe("the fuzz oracle: a signed request refused as unauthorized", () => {
  const answer401 = {
    kind: "answer" as const,
    answer: {
      status: 401,
      headers: [["content-type", "application/json; charset=utf-8"]] as [string, string][],
      body: Buffer.from(UNAUTHORIZED_BODY),
    },
  };
  const plan = (target: string): RequestPlan => ({
    method: "GET",
    target: Buffer.from(target, "latin1"),
    headers: [],
    body: Buffer.alloc(0),
    framing: "length",
    auth: "owner",
    operationId: "getWallet",
  });
  const refused = (target: string) =>
    violations(plan(target), answer401).includes("a correctly signed request was refused as unauthorized");

  it("is a violation for a target the server reads as it was sent", () => {
    expect(refused("/api/v1/wallets/w-1")).toBe(true);
  });

  // Seen with a random seed of the scale run (CUSTODY_FUZZ_SEED=125001927): the space ends the target
  // (RFC 9112 §3), so the server read `/api/v1/wallets/!` while the signature covered `! ` as well.
  it("is none when a space or tab ends the target early, and the signature covers bytes the server never read", () => {
    expect(refused("/api/v1/wallets/! ")).toBe(false);
    expect(refused("/api/v1/wallets/a\tb")).toBe(false);
  });
});
