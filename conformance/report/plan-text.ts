// certify --plan on the console: what a run would execute, and for each check that would not, the
// flag (its environment variable, its config key) that enables it.

import { GROUPS } from "../checks/types.ts";
import type { Plan } from "../run/plan.ts";
import type { PreflightStep } from "../run/preflight.ts";
import { RECEIVER_UNREACHED } from "../run/supply.ts";

/** How a flag can be set besides the command line: its environment variable, if it has one. */
export type FlagHint = (flag: string) => string | undefined;

export function renderPlan(plan: Plan, preflight: PreflightStep[], hint: FlagHint): string {
  const lines: string[] = [];
  const mode =
    plan.supply === "given"
      ? "fixtures from flags only"
      : "fixtures created by the run (it creates wallets, webhooks and keys, and moves test funds)";
  lines.push(`custody certify --plan: level ${plan.level}, ${mode}`);
  for (const step of preflight) lines.push(`  preflight ${step.step}: ${step.ok ? "ok" : "refused"} (${step.detail})`);
  const total = plan.checks.length;
  const runs = plan.checks.filter((c) => c.runs).length;
  const m = plan.must;
  lines.push(
    `${total} checks selected, ${m.in_scope} MUST checks in scope: ` +
      `${m.runs} MUST will run, ${m.not_run} MUST will not${notSelected(plan)}`,
  );
  lines.push(`will run (${runs}): ${groupCounts(plan)}`);
  if (plan.needs.length > 0) lines.push("will not run, and what enables them:");
  for (const need of plan.needs) {
    const count = need.must.length + need.should.length;
    const becomeMust = need.should.filter((id) => plan.checks.some((c) => c.id === id && c.mustOnceGiven)).length;
    lines.push(
      `  ${need.needs}${enabledBy(need.needs, hint)}: ${count} check${count === 1 ? "" : "s"}` +
        `${need.must.length ? ` (${need.must.length} MUST)` : ""}` +
        `${becomeMust ? ` (${becomeMust} SHOULD here, MUST once given)` : ""}`,
    );
    lines.push(`    ${[...need.must, ...need.should].join(", ")}`);
  }
  if (plan.needs.some((n) => n.prerequisite === "receiver" || n.prerequisite === "event")) {
    lines.push(
      "webhooks: the deployment must deliver to this run's receiver. " +
        RECEIVER_UNREACHED.reason.replace(/^.*?From CI: /, "From CI: "),
    );
  }
  lines.push(verdictLine(plan));
  return `${lines.join("\n")}\n`;
}

function notSelected(plan: Plan): string {
  return plan.must.not_selected > 0 ? `, ${plan.must.not_selected} MUST not selected (--only)` : "";
}

function groupCounts(plan: Plan): string {
  const counts = GROUPS.map((g) => [g, plan.checks.filter((c) => c.group === g && c.runs).length] as const).filter(
    ([, n]) => n > 0,
  );
  return counts.length > 0 ? counts.map(([g, n]) => `${g} ${n}`).join(", ") : "none";
}

/** The environment variables of the flags a `needs` phrase names, where they have one. */
function enabledBy(needs: string, hint: FlagHint): string {
  const flags = [...new Set(needs.match(/--[a-z][a-z-]*/g) ?? [])].filter((f) => f !== "--level");
  const vars = flags.map((f) => hint(f)).filter((v): v is string => v !== undefined);
  return vars.length > 0 ? ` [or ${vars.join(", ")}]` : "";
}

function verdictLine(plan: Plan): string {
  const notRun = plan.must.not_run + plan.must.not_selected;
  if (notRun === 0)
    return `every MUST check of level ${plan.level} will run: a run can certify (exit 0) or fail (exit 1)`;
  return (
    `${notRun} MUST checks will not run: a run without a failure ends incomplete (exit 3); ` +
    "each flag above enables its checks"
  );
}
