// What generated output needs in the project that holds it: the packages its code imports (with the
// ranges custody itself is tested with) and what tsc needs to compile it. Decided here once, for the
// `--package` manifest and for the install lines `custody generate` prints.
import type { EmittedFile } from "./emit/context.ts";
import { importedPackages } from "./runtime-source.ts";

export interface Manifest {
  version: string;
  engines?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

export interface OutputNeeds {
  /** Packages the code imports at run time (custody itself with --runtime package). */
  dependencies: Record<string, string>;
  /**
   * What tsc needs: typescript, and @types/node for the runtime's Node parts (the server stubs'
   * node:http, process). No @types/ws: the runtime types what it uses of ws itself (rpc-socket.ts).
   */
  devDependencies: Record<string, string>;
}

export function outputNeeds(files: readonly EmittedFile[], custody: Manifest): OutputNeeds {
  const dependencies = sorted(
    Object.fromEntries(importedPackages(files).map((name) => [name, rangeOf(name, custody)])),
  );
  const devDependencies = sorted({
    typescript: rangeOf("typescript", custody),
    "@types/node": rangeOf("@types/node", custody),
  });
  return { dependencies, devDependencies };
}

/** The npm commands that install them (custody is left out: output that imports it lives in a project that has it). */
export function installLines(needs: OutputNeeds): string[] {
  const specs = (deps: Record<string, string>) =>
    Object.entries(deps)
      .filter(([name]) => name !== "custody")
      .map(([name, range]) => `${name}@${range}`);
  const runtime = specs(needs.dependencies);
  return [
    ...(runtime.length ? [`npm install ${runtime.join(" ")}`] : []),
    `npm install --save-dev ${specs(needs.devDependencies).join(" ")}`,
  ];
}

function rangeOf(name: string, custody: Manifest): string {
  if (name === "custody") return `^${custody.version}`;
  const range =
    custody.dependencies?.[name] ??
    custody.optionalDependencies?.[name] ??
    custody.peerDependencies?.[name] ??
    custody.devDependencies?.[name];
  if (range === undefined)
    throw new Error(`generated code imports '${name}', which custody's package.json does not list`);
  return range;
}

function sorted(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : 1)));
}
