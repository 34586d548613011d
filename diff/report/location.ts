// `file#/pointer` for a change's side, or "—" when that side has no such thing.
import type { DiffReport } from "../types.ts";

export function location(file: string | undefined, pointer: string | undefined): string {
  if (pointer === undefined) return "—";
  return `${file ?? ""}#${pointer}`;
}

/** Which documents a change's pointers refer to: JSON-RPC changes point into the OpenRPC files. */
export function filesOf(report: DiffReport, where: string): { old?: string; new?: string } {
  return where.startsWith("rpc ")
    ? { old: report.old.rpc, new: report.new.rpc }
    : { old: report.old.openapi, new: report.new.openapi };
}

export function summaryLine(report: DiffReport): string {
  const s = report.summary;
  return `${s.breaking} breaking, ${s.warning} warning, ${s.info} info → semver ${s.semver}`;
}
