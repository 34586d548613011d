// certify --plan: which checks of the level a run would execute against this target, and for each one
// that would not, what enables it. Derived from the checks' declarations (requires, skipsWithout),
// the level table (levels.ts) and the supply table (supply.ts); it sends no request.
import type { Check } from "../checks/check.ts";
import type { Group, Level, Prerequisite, Severity } from "../checks/types.ts";
import type { RunOptions, Target } from "./config.ts";
import { selectChecks } from "./levels.ts";
import { needsOf, SUPPLY, type SupplyMode, supplyMode } from "./supply.ts";

/** Why a prerequisite is out of reach: the missing one at the root, and what would supply it. */
export interface Unmet {
  prerequisite: Prerequisite;
  needs: string;
  reason: string;
}

export interface PlannedCheck {
  id: string;
  group: Group;
  severity: Severity;
  runs: boolean;
  /** For one that will not run: what would let it. */
  unmet?: Unmet;
  /** A SHOULD here that is a MUST once its input is given (mustOnlyWith). */
  mustOnceGiven?: true;
}

/** Checks that will not run for the same missing input, and that input. */
export interface PlanNeed {
  needs: string;
  prerequisite: Prerequisite;
  must: string[];
  should: string[];
}

export interface Plan {
  level: Level;
  supply: SupplyMode;
  checks: PlannedCheck[];
  /** Checks of the level that --only leaves out. */
  notSelected: string[];
  must: { in_scope: number; runs: number; not_run: number; not_selected: number };
  needs: PlanNeed[];
}

/** The plan of a run of `catalog` at these options against this target. */
export function planRun(catalog: readonly Check[], target: Target, options: RunOptions): Plan {
  const supply = options.supply ?? supplyMode(options.level, false);
  const selection = selectChecks(catalog, options.level, options.only);
  const checks = selection.selected.map((check): PlannedCheck => {
    const unmet = unmetOf(check, target, supply);
    const severity = severityIn(check, options.level, target, supply);
    return {
      id: check.id,
      group: check.group,
      severity,
      runs: unmet === undefined,
      ...(unmet ? { unmet } : {}),
      ...(severity !== check.severity ? { mustOnceGiven: true as const } : {}),
    };
  });
  const must = checks.filter((c) => c.severity === "MUST");
  const notSelectedMust = selection.notSelected.filter(
    (c) => severityIn(c, options.level, target, supply) === "MUST",
  ).length;
  return {
    level: options.level,
    supply,
    checks,
    notSelected: selection.notSelected.map((c) => c.id),
    must: {
      in_scope: must.length + notSelectedMust,
      runs: must.filter((c) => c.runs).length,
      not_run: must.filter((c) => !c.runs).length,
      not_selected: notSelectedMust,
    },
    needs: needsOfPlan(checks),
  };
}

/**
 * The check's severity in a run: its own, except at --level seed for a check that is a MUST only with
 * an input (`mustOnlyWith`, e.g. --faucet-private-key) the run does not have: a SHOULD then, so its
 * skip names the flag without holding the verdict back.
 */
export function severityIn(check: Check, level: Level, target: Target, mode: SupplyMode): Severity {
  if (level !== "seed" || !check.mustOnlyWith) return check.severity;
  return unmetPrerequisite(check.mustOnlyWith, target, mode) ? "SHOULD" : check.severity;
}

/** The first prerequisite of the check that cannot be had, or undefined when it will run. */
export function unmetOf(check: Check, target: Target, mode: SupplyMode): Unmet | undefined {
  for (const name of check.requires ?? []) {
    const unmet = unmetPrerequisite(name, target, mode);
    if (unmet) return unmet;
  }
  for (const entry of check.skipsWithout ?? []) {
    const anyOf = Array.isArray(entry) ? entry : [entry];
    const unmet = anyOf.map((name) => unmetPrerequisite(name, target, mode));
    if (unmet.every((u) => u !== undefined)) return anyOf.length === 1 ? unmet[0] : oneOf(anyOf);
  }
  return undefined;
}

/** Why `name` cannot be had in this mode (walking what its provider needs first), or undefined. */
export function unmetPrerequisite(
  name: Prerequisite,
  target: Target,
  mode: SupplyMode,
  seen: Prerequisite[] = [],
): Unmet | undefined {
  const rule = SUPPLY[name];
  if (rule.given?.(target, mode)) return undefined;
  const deps =
    rule.setting && !rule.setting(target)
      ? undefined
      : mode === "create" && rule.creatable
        ? rule.from?.create
        : rule.from?.given;
  if (deps === undefined || seen.includes(name)) {
    const needs = needsOf(name, mode);
    return { prerequisite: name, needs, reason: `no ${rule.what}: pass ${needs}` };
  }
  for (const dep of deps) {
    const unmet = unmetPrerequisite(dep, target, mode, [...seen, name]);
    if (unmet) return unmet;
  }
  return undefined;
}

function oneOf(names: Prerequisite[]): Unmet {
  const flags = names.map((n) => SUPPLY[n].flag).filter((f): f is string => f !== undefined);
  // "a, b or c", as the checks' own skips say it.
  const needs =
    flags.length > 1 ? `${flags.slice(0, -1).join(", ")} or ${flags[flags.length - 1]}` : (flags[0] ?? "--level full");
  return {
    prerequisite: names[0],
    needs,
    reason: `none of ${names.map((n) => SUPPLY[n].what).join(", ")}: pass ${needs}`,
  };
}

function needsOfPlan(checks: PlannedCheck[]): PlanNeed[] {
  const byNeed = new Map<string, PlanNeed>();
  for (const c of checks) {
    if (c.runs || !c.unmet) continue;
    const entry = byNeed.get(c.unmet.needs) ?? {
      needs: c.unmet.needs,
      prerequisite: c.unmet.prerequisite,
      must: [],
      should: [],
    };
    (c.severity === "MUST" ? entry.must : entry.should).push(c.id);
    byNeed.set(c.unmet.needs, entry);
  }
  return [...byNeed.values()].sort((a, b) => b.must.length - a.must.length);
}
