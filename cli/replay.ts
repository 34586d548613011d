// `custody replay REPORT.json [--check ID]`: sends a failed check's recorded request again, signed
// afresh with the credentials given now (the report keeps no secret and its timestamp has expired),
// and shows the recorded answer beside the new one. Exit 0 when every chosen request was sent.
import { readFileSync } from "node:fs";
import type { RequestEvidence, ResponseEvidence } from "../conformance/checks/types.ts";
import type { Report } from "../conformance/report/model.ts";
import { authHeaders } from "../conformance/transport/api.ts";
import { REDACTED, Redactor } from "../conformance/transport/redact.ts";
import { REPLAY_COMMAND, REPLAY_OPTIONS } from "./commands/replay.ts";
import { parseFlags } from "./flags.ts";
import { helpText } from "./help.ts";
import { UsageError } from "./usage-error.ts";

export const REPLAY_USAGE = helpText(REPLAY_COMMAND);

const SIGNATURE_HEADERS = new Set([
  "access-api-key",
  "access-timestamp",
  "access-sign",
  "content-length",
  "host",
  "authorization",
]);

export interface ReplayIo {
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  env?: NodeJS.ProcessEnv;
}

export async function run(argv: string[], io: ReplayIo = {}): Promise<number> {
  const out = io.stdout ?? ((t: string) => void process.stdout.write(t));
  const err = io.stderr ?? ((t: string) => void process.stderr.write(t));
  const env = io.env ?? process.env;
  let parsed;
  try {
    parsed = parseFlags(argv, REPLAY_OPTIONS, { positionals: true });
  } catch (e) {
    err(`custody replay: ${(e as Error).message}\n${REPLAY_USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    out(`${REPLAY_USAGE}\n`);
    return 0;
  }
  try {
    if (positionals.length !== 1) throw new UsageError("give one JSON report (written by custody certify --json FILE)");
    const report = readReport(positionals[0]);
    const apiKey = values["api-key"] ?? env[REPLAY_OPTIONS["api-key"].env];
    const apiSecret = values["api-secret"] ?? env[REPLAY_OPTIONS["api-secret"].env];
    if ((apiKey === undefined) !== (apiSecret === undefined))
      throw new UsageError("--api-key and --api-secret go together");
    const rpcKey = values["rpc-api-key"] ?? env[REPLAY_OPTIONS["rpc-api-key"].env];
    const redactor = new Redactor();
    redactor.addSecret(apiSecret);
    redactor.addKeyId(apiKey);
    redactor.addSecret(rpcKey);
    const chosen = report.checks.filter((c) => (values.check ? c.id === values.check : c.status === "failed"));
    if (values.check && chosen.length === 0) throw new UsageError(`--check: the report has no check ${values.check}`);
    const withRequest = chosen.filter((c) => c.evidence?.request);
    if (withRequest.length === 0) {
      out(
        values.check ? `${values.check} recorded no request to replay\n` : "no failed check with a recorded request\n",
      );
      return 0;
    }
    for (const check of withRequest) {
      const recorded = check.evidence!.request!;
      out(`${check.id} (${check.status}) — ${check.message ?? ""}\n`);
      const { url, init, notes } = rebuild(
        recorded,
        values["base-url"],
        apiKey && apiSecret ? { apiKey, apiSecret } : undefined,
        rpcKey,
      );
      for (const note of notes) out(`  note:     ${note}\n`);
      out(`  request:  ${recorded.method} ${redactor.url(url)}\n`);
      out(`  recorded: ${answerLine(check.evidence!.response)}\n`);
      const now = await send(url, init);
      out(`  now:      ${redactor.text(answerLine(now))}\n`);
      if (check.evidence!.response?.status !== undefined) {
        out(
          `  ${now.status === check.evidence!.response.status ? "same status as recorded: the failure reproduces (compare the bodies)" : "another status than recorded"}\n`,
        );
      }
    }
    return 0;
  } catch (e) {
    err(`custody replay: ${(e as Error).message}${e instanceof UsageError ? `\n${REPLAY_USAGE}` : ""}\n`);
    return 2;
  }
}

function readReport(file: string): Report {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  try {
    const report = JSON.parse(text) as Report;
    if (!Array.isArray(report?.checks)) throw new Error("no checks");
    return report;
  } catch {
    throw new UsageError(`${file} is not a JSON report of custody certify (--json FILE)`);
  }
}

/** The request to send: recorded method, path, query and body; fresh signature; keys put back. */
function rebuild(
  recorded: RequestEvidence,
  baseUrl: string | undefined,
  creds: { apiKey: string; apiSecret: string } | undefined,
  rpcKey: string | undefined,
) {
  const notes: string[] = [];
  const url = new URL(recorded.url);
  if (baseUrl) {
    const base = new URL(baseUrl);
    url.protocol = base.protocol;
    url.host = base.host;
  }
  if (url.searchParams.get("api_key") !== null) {
    if (rpcKey) url.searchParams.set("api_key", rpcKey);
    else notes.push("the node access key was redacted: pass --rpc-api-key to send it");
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(recorded.headers ?? {}))
    if (!SIGNATURE_HEADERS.has(name.toLowerCase())) headers[name] = value;
  const body = recorded.body;
  if (body?.includes(REDACTED)) notes.push("the recorded body had a secret redacted; it is sent as recorded");
  const signed = Object.keys(recorded.headers ?? {}).some((h) => h.toLowerCase() === "access-sign");
  if (signed) {
    if (creds) Object.assign(headers, authHeaders(creds, recorded.method, url.pathname, body ?? ""));
    else notes.push("the recorded request was signed: pass --api-key/--api-secret to sign it again (sent unsigned)");
  }
  return {
    url: url.toString(),
    init: { method: recorded.method, headers, ...(body !== undefined && recorded.method !== "GET" ? { body } : {}) },
    notes,
  };
}

async function send(url: string, init: RequestInit): Promise<ResponseEvidence> {
  try {
    const res = await fetch(url, { ...init, redirect: "manual", signal: AbortSignal.timeout(30_000) });
    return { status: res.status, body: await res.text() };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

function answerLine(res: ResponseEvidence | undefined): string {
  if (!res) return "(none recorded)";
  if (res.error && res.status === undefined) return `no answer: ${res.error}`;
  const body = (res.body ?? "").replace(/\s+/g, " ").trim();
  return `HTTP ${res.status} ${body.length > 160 ? `${body.slice(0, 160)}…` : body}`;
}
