// The summary: counts per level and the semver bump the changes imply for the generated SDK.
// major: anything breaking. minor: the SDK gains surface (an operation, parameter, property, status,
// event, method or alternative added) or a warning. patch: any other change reported.
import type { Change, DiffReport, Semver } from "./types.ts";

const ADDS = /(^|-)(added|new)(-|$)/;

export function summarize(changes: readonly Change[]): DiffReport["summary"] {
  const count = (level: Change["level"]): number => changes.filter((c) => c.level === level).length;
  const breaking = count("breaking");
  const warning = count("warning");
  const info = count("info");
  let semver: Semver = "none";
  if (breaking > 0) semver = "major";
  else if (warning > 0 || changes.some((c) => ADDS.test(c.id))) semver = "minor";
  else if (info > 0) semver = "patch";
  return { breaking, warning, info, semver };
}
