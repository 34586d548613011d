// certify --plan: prints what a run would execute against the target and what enables the rest,
// after the preflight (the only requests it sends). Exit 0 every MUST check of the level would run,
// 3 some would not, 2 the preflight stopped.

import { EXIT } from "../conformance/report/model.ts";
import { renderPlan } from "../conformance/report/plan-text.ts";
import type { RunOptions, Target } from "../conformance/run/config.ts";
import { planRun } from "../conformance/run/plan.ts";
import { preflight } from "../conformance/run/preflight.ts";
import { HttpProbe } from "../conformance/transport/probe.ts";
import { redactorFor } from "../conformance/transport/redact.ts";
import { CERTIFY_OPTIONS } from "./commands/certify.ts";

export async function printPlan(
  target: Target,
  options: RunOptions,
  out: (t: string) => void,
  err: (t: string) => void,
): Promise<number> {
  const { CATALOG } = await import("../conformance/checks/catalog.ts");
  const plan = planRun(CATALOG, target, options);
  const redactor = redactorFor(target);
  const http = new HttpProbe({ timeoutMs: options.timeoutMs, maxBodyBytes: options.maxBodyBytes, redactor });
  try {
    const checked = await preflight({
      target,
      http,
      redactor,
      timeoutMs: options.timeoutMs,
      nodeAccess: plan.checks.some((c) => c.group === "rpc" && c.runs),
    });
    if (checked.failure) {
      err(checked.failure.lines.map((l) => `custody certify: ${l}\n`).join(""));
      return EXIT.usageOrPreflight;
    }
    out(redactor.text(renderPlan(plan, checked.steps, envOfFlag)));
  } finally {
    await http.close();
  }
  return plan.must.not_run + plan.must.not_selected > 0 ? EXIT.incomplete : EXIT.certified;
}

/** The environment variable of a certify flag, when it has one. */
function envOfFlag(flag: string): string | undefined {
  const option = (CERTIFY_OPTIONS as Record<string, { env?: string }>)[flag.replace(/^--/, "")];
  return option?.env;
}
