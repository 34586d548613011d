// Security schemes, and the custody HMAC scheme (x-custody-hmac) the client signs with.

import { toPointer } from "../load/json-pointer.ts";
import type { SpecProblem } from "../load/spec-error.ts";
import type { HmacModel, SecurityModel } from "./types.ts";

type Obj = Record<string, unknown>;

/** What runtime/http/hmac.ts implements; a spec asking for something else must not get a client that signs wrongly. */
const SUPPORTED = {
  algorithm: "HMAC-SHA256",
  headers: { key: "ACCESS-API-KEY", timestamp: "ACCESS-TIMESTAMP", signature: "ACCESS-SIGN" },
};

export function buildSecurity(document: Obj, problems: SpecProblem[]): SecurityModel {
  const components = (document.components ?? {}) as Obj;
  const schemes = (components.securitySchemes ?? {}) as Obj;
  const model: SecurityModel = { schemes: [] };
  for (const name of Object.keys(schemes).sort()) {
    const scheme = schemes[name] as Obj;
    if (!scheme || typeof scheme !== "object") continue;
    model.schemes.push({
      name,
      type: String(scheme.type ?? ""),
      in: typeof scheme.in === "string" ? scheme.in : undefined,
      headerName: scheme.in === "header" && typeof scheme.name === "string" ? scheme.name : undefined,
      scheme: typeof scheme.scheme === "string" ? scheme.scheme : undefined,
    });
    const hmac = scheme["x-custody-hmac"];
    if (hmac && typeof hmac === "object" && model.hmac === undefined) {
      model.hmac = hmacModel(
        name,
        hmac as Obj,
        toPointer(["components", "securitySchemes", name, "x-custody-hmac"]),
        problems,
      );
    }
  }
  return model;
}

function hmacModel(schemeName: string, raw: Obj, pointer: string, problems: SpecProblem[]): HmacModel {
  const algorithm = String(raw.algorithm ?? SUPPORTED.algorithm);
  if (algorithm.toUpperCase() !== SUPPORTED.algorithm) {
    problems.push({
      pointer: `${pointer}/algorithm`,
      problem: `unsupported algorithm "${algorithm}" (runtime/http/hmac.ts implements ${SUPPORTED.algorithm})`,
    });
  }
  const headers = (raw.headers ?? {}) as Obj;
  const wanted = { ...SUPPORTED.headers };
  for (const key of ["key", "timestamp", "signature"] as const) {
    const declared = headers[key];
    if (declared !== undefined && String(declared).toLowerCase() !== wanted[key].toLowerCase()) {
      problems.push({
        pointer: `${pointer}/headers/${key}`,
        problem: `header "${String(declared)}" differs from ${wanted[key]} that runtime/http/hmac.ts sends`,
      });
    }
  }
  const window = Number(raw["timestamp-window-seconds"] ?? 300);
  return { schemeName, algorithm, headers: wanted, windowSeconds: Number.isFinite(window) ? window : 300, raw };
}
