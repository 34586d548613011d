// The logic of custody's GitHub Action (action.yml), kept out of YAML so that it is tested
// (test/certify-action.test.ts). `plan` prints certify --plan for the inputs; `certify` runs the
// certification, writes the step's outputs and the job summary, and maps the exit status: 0 passes,
// 1 (a MUST check failed) and 2 (usage, preflight) fail, 3 (some MUST checks did not run) is a
// warning with the step passing when the input `incomplete` is "neutral" (default), a failure when "fail".
// Inputs arrive as environment variables (INPUT_* names below); secrets never reach a command line.
import { spawn } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Report } from "../conformance/report/model.ts";

/** The CUSTODY_* variables certify reads itself; an empty input must not reach it as an empty setting. */
const PASSED_THROUGH = [
  "CUSTODY_BASE_URL",
  "CUSTODY_RPC_URL",
  "CUSTODY_WS_URL",
  "CUSTODY_API_KEY",
  "CUSTODY_API_SECRET",
  "CUSTODY_RPC_API_KEY",
  "CUSTODY_WORKSPACE_ID",
  "CUSTODY_FAUCET_PRIVATE_KEY",
  "CUSTODY_WEBHOOK_RECEIVER_URL",
];

export interface ActionOutcome {
  /** The step's exit status. */
  exit: number;
  /** A workflow command for the log (::warning / ::error), or undefined. */
  annotation?: string;
  /** certified, failed, incomplete, known-failures-only, or stopped (exit 2). */
  verdict: string;
}

/** certify's arguments from the action's inputs. */
export function certifyArgs(env: NodeJS.ProcessEnv): string[] {
  const args: string[] = [];
  if (env.SANDBOX === "true") args.push("--sandbox");
  for (const [name, flag] of [
    ["TARGET", "--target"],
    ["LEVEL", "--level"],
    ["TIMEOUT_MS", "--timeout-ms"],
    ["BASELINE", "--baseline"],
  ] as const) {
    const value = env[name];
    if (value) args.push(flag, value);
  }
  return args;
}

/** The environment certify runs with: the inputs' CUSTODY_* variables, empty ones left out. */
export function certifyEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out = { ...env };
  for (const name of PASSED_THROUGH) if (out[name] === "") delete out[name];
  return out;
}

/** What the step does with certify's exit status. */
export function outcomeOf(code: number, incomplete: string, report?: Report): ActionOutcome {
  const notRun = report ? report.summary.must.skipped + report.summary.must.not_selected : undefined;
  if (code === 0)
    return {
      exit: 0,
      verdict: report?.summary.baseline?.outcome === "known_failures_only" ? "known-failures-only" : "certified",
    };
  if (code === 3) {
    const what =
      `NOT CERTIFIED (incomplete): ${notRun ?? "some"} MUST checks did not run; ` +
      "the job summary says how to enable them";
    if (incomplete === "fail")
      return { exit: 3, verdict: "incomplete", annotation: `::error title=custody certify::${what}` };
    return {
      exit: 0,
      verdict: "incomplete",
      annotation: `::warning title=custody certify::${what} (incomplete: neutral)`,
    };
  }
  if (code === 1)
    return {
      exit: 1,
      verdict: "failed",
      annotation: `::error title=custody certify::NOT CERTIFIED: ${
        report?.summary.must.failed ?? "a"
      } MUST check(s) failed`,
    };
  return {
    exit: code,
    verdict: "stopped",
    annotation:
      "::error title=custody certify::certify stopped before the checks (bad usage or the preflight): see the log",
  };
}

/** The job summary (Markdown): the verdict, failures apart from known ones, what did not run and how to enable it. */
export function jobSummary(report: Report, outcome: ActionOutcome): string {
  const s = report.summary;
  const lines = [`## custody certify: ${outcome.verdict} (level ${s.level})`, "", `Target: ${s.target.base_url}`, ""];
  lines.push("| MUST checks | in scope | passed | failed | did not run |", "|---|---:|---:|---:|---:|");
  lines.push(
    `| | ${s.must.in_scope} | ${s.must.passed} | ${s.must.failed} | ${s.must.skipped + s.must.not_selected} |`,
    "",
  );
  const failures = report.checks.filter((c) => c.status === "failed" && c.severity === "MUST" && !c.known_failure);
  if (failures.length > 0)
    lines.push("### Failed", "", ...failures.map((c) => `- \`${c.id}\`: ${oneLine(c.message)}`), "");
  const known = report.checks.filter((c) => c.known_failure);
  if (known.length > 0) {
    lines.push(`### Known failures (baseline \`${s.baseline?.file}\`)`, "");
    lines.push(
      ...known.map(
        (c) => `- \`${c.id}\`: ${oneLine(c.message)}${c.known_failure?.reason ? ` (${c.known_failure.reason})` : ""}`,
      ),
      "",
    );
  }
  for (const [title, ids] of [
    ["Expired, still failing", s.baseline?.expired.map((k) => k.check)],
    ["Now passing: remove from the baseline", s.baseline?.now_passing],
  ] as const) {
    if (ids && ids.length > 0) lines.push(`### ${title}`, "", ...ids.map((id) => `- \`${id}\``), "");
  }
  if (s.skip_needs.length > 0 || s.other_skips > 0 || s.must.not_selected > 0)
    lines.push("### Did not run, and how to enable it", "");
  for (const need of s.skip_needs)
    lines.push(`- pass \`${need.needs}\`: ${[...need.must, ...need.should].map((id) => `\`${id}\``).join(", ")}`);
  for (const c of report.checks.filter((c) => c.status === "skipped" && !c.needs && c.severity === "MUST"))
    lines.push(`- \`${c.id}\`: ${oneLine(c.message)}`);
  if (s.must.not_selected > 0) lines.push(`- ${s.must.not_selected} MUST checks left out by --only`);
  return `${lines.join("\n")}\n`;
}

function oneLine(text: string | null | undefined): string {
  return (text ?? "").split("\n")[0].replace(/\|/g, "\\|");
}

/** Runs custody certify with these arguments, its output going to the log; resolves to its exit status. */
function custody(bin: string, args: string[], env: NodeJS.ProcessEnv, cwd?: string): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, "certify", ...args], { env, cwd, stdio: "inherit" });
    child.on("error", () => resolve(2));
    child.on("exit", (code) => resolve(code ?? 2));
  });
}

export async function main(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  log: (t: string) => void = (t) => void process.stdout.write(t),
  cwd?: string,
): Promise<number> {
  const bin = env.CUSTODY_BIN || fileURLToPath(new URL("../bin/custody.js", import.meta.url));
  const runEnv = certifyEnv(env);
  if (argv[0] === "plan") {
    const code = await custody(bin, [...certifyArgs(env), "--plan"], runEnv, cwd);
    return code === 2 ? 2 : 0; // the plan only informs; the certify step decides
  }
  if (argv[0] !== "certify") {
    log("usage: certify-action.ts plan|certify\n");
    return 2;
  }
  const reports = join(cwd ?? process.cwd(), env.REPORTS || "custody-reports");
  mkdirSync(reports, { recursive: true });
  const files = {
    json: join(reports, "certify.json"),
    junit: join(reports, "certify.xml"),
    html: join(reports, "certify.html"),
  };
  const code = await custody(
    bin,
    [...certifyArgs(env), "--json", files.json, "--junit", files.junit, "--html", files.html],
    runEnv,
    cwd,
  );
  const report = existsSync(files.json) ? (JSON.parse(readFileSync(files.json, "utf8")) as Report) : undefined;
  const outcome = outcomeOf(code, env.INCOMPLETE || "neutral", report);
  if (outcome.annotation) log(`${outcome.annotation}\n`);
  if (env.GITHUB_OUTPUT) {
    const outputs = { ...files, verdict: outcome.verdict, "exit-code": String(code) };
    appendFileSync(
      env.GITHUB_OUTPUT,
      Object.entries(outputs)
        .map(([k, v]) => `${k}=${v}\n`)
        .join(""),
    );
  }
  if (env.GITHUB_STEP_SUMMARY && report) appendFileSync(env.GITHUB_STEP_SUMMARY, jobSummary(report, outcome));
  return outcome.exit;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1])
  process.exitCode = await main(process.argv.slice(2));
