// The closed-allof fixture's output with a vendored runtime, and shapes its types must accept or refuse
// (an unknown member: @ts-expect-error fails the check when the line compiles). Compiled in
// test/generator-compile.test.ts; test/generator-closed-allof.test.ts checks its validators.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generate } from "../../generator/index.ts";

export const CLOSED_ALLOF_SPEC = fileURLToPath(new URL("../fixtures/specs/closed-allof.yaml", import.meta.url));

export const ADDRESS = { name: "Ada", street1: "1 Main St", city: "Springfield", zip: "12345", country: "US" };

/** Generates the fixture into `out` (vendored runtime) and writes shapes.ts beside it. */
export async function writeClosedAllOfShapes(out: string): Promise<void> {
  await generate({ specPath: CLOSED_ALLOF_SPEC, outDir: out, runtime: "vendor" });
  const shapes = [
    'import type * as T from "./types.js";',
    `export const full: T.AddressCreateRequest = ${JSON.stringify(ADDRESS)};`,
    'export const address: T.Address = { id: "adr_1", country: "US", street1: "1 Main St" };',
    "export const parcel: T.Parcel = { length: 1, width: 2, weight: 3 };",
    "// @ts-expect-error an unknown member",
    'export const unknown: T.AddressCreateRequest = { street1: "1", country: "US", planet: "Mars" };',
  ];
  await writeFile(join(out, "shapes.ts"), `${shapes.join("\n")}\n`);
}
