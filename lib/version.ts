// custody's own package.json, read once for every part that names custody's version (`--version`, the
// sandbox's answers, generated package manifests and the install lines they need).
import { readFileSync } from "node:fs";
import { packagePath } from "./package-root.ts";

export interface CustodyManifest {
  version: string;
  engines?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

let manifest: CustodyManifest | undefined;

export function custodyManifest(): CustodyManifest {
  manifest ??= JSON.parse(readFileSync(packagePath(import.meta.url, "package.json"), "utf8")) as CustodyManifest;
  return manifest;
}

export function custodyVersion(): string {
  return custodyManifest().version;
}
