// The generator on public OpenAPI documents shipped in npm packages: generate each (--lenient), compile
// the output with tsc --strict, check T.X ≡ z.infer<typeof XSchema> for every component, and compare
// the zod schemas with ajv (scripts/differential.ts). Prints a markdown table.
//   npm pack @scalar/galaxy @figma/rest-api-spec rclone-openapi @ideal-postcodes/openapi \
//     @blockfrost/openapi @digdir/dialogporten-schema @directus/openapi   (in DIR, then untar each)
//   node --import tsx scripts/world-specs.ts DIR
import { existsSync } from "node:fs";
import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { renderFiles, SpecError } from "../generator/index.ts";
import { typecheck } from "../generator/typecheck.ts";
import { differential } from "./differential.ts";
import { writeTypeMatch } from "./type-match.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Package directory prefix (as npm pack names the tarball) → the document inside it. */
const DOCUMENTS: [string, string, string][] = [
  ["Scalar Galaxy", "scalar-galaxy-", "package/dist/3.1.yaml"],
  ["Figma", "figma-rest-api-spec-", "package/openapi/openapi.yaml"],
  ["Rclone", "rclone-openapi-", "package/openapi.json"],
  ["Ideal Postcodes", "ideal-postcodes-openapi-", "package/dist/openapi.json"],
  ["Blockfrost", "blockfrost-openapi-", "package/openapi.yaml"],
  ["Dialogporten", "digdir-dialogporten-schema-", "package/swagger.verified.json"],
  ["Directus", "directus-openapi-", "package/dist/oas.json"],
];

async function main(dir: string): Promise<void> {
  const entries = await readdir(dir);
  const rows: string[] = [
    "| document | operations | components | warnings (repairs) | generate s | tsc --strict errors | T.X ≢ z.infer | instances | disagreements |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  const scratch = join(ROOT, ".tmp-world-specs");
  for (const [title, prefix, inner] of DOCUMENTS) {
    const folder = entries.find((e) => e.startsWith(prefix) && !e.endsWith(".tgz"));
    const spec = folder === undefined ? undefined : join(dir, folder, inner);
    if (spec === undefined || !existsSync(spec)) {
      rows.push(`| ${title} | not found in ${dir} |||||||`);
      continue;
    }
    const out = join(scratch, prefix.replace(/-$/, ""));
    try {
      const started = performance.now();
      const { model, files } = await renderFiles({ specPath: spec, outDir: out, lenient: true });
      const seconds = (performance.now() - started) / 1000;
      await rm(out, { recursive: true, force: true });
      await mkdir(out, { recursive: true });
      for (const f of files) {
        // The output vendors runtime/ (it lives outside custody), so files sit in subfolders.
        await mkdir(dirname(join(out, f.path)), { recursive: true });
        await writeFile(join(out, f.path), f.content);
      }
      await writeTypeMatch(
        out,
        model.schemas.map((s) => s.typeName),
      );
      const checked = await typecheck([out], { maxOldSpaceMb: 4096 });
      const errors = checked.output.split("\n").filter((l) => /error TS/.test(l));
      const mismatches = errors.filter((l) => l.includes("type-match.ts")).length;
      const schemas = await import(pathToFileURL(resolve(out, "schemas.ts")).href);
      const diff = differential(model, schemas, { seed: 1, perComponent: 60 });
      const name = `${folder!.slice(0, -1 - (folder!.split("-").pop()?.length ?? 0))}@${folder!.split("-").pop()}`;
      rows.push(
        `| ${title} (${name}) | ${model.operations.length} | ${model.schemas.length} | ${model.warnings.length + model.repairs.length} (${model.repairs.length}) | ${seconds.toFixed(2)} | ${errors.length - mismatches} | ${mismatches} | ${diff.instances} | ${diff.disagreements.length} |`,
      );
      for (const d of diff.disagreements.slice(0, 3)) console.error(`${title}: ${JSON.stringify(d).slice(0, 300)}`);
      for (const e of errors.slice(0, 3)) console.error(`${title}: ${e.slice(0, 300)}`);
    } catch (error) {
      rows.push(`| ${title} | ${error instanceof SpecError ? error.message.split("\n")[0] : String(error)} |||||||`);
    }
  }
  await rm(scratch, { recursive: true, force: true });
  console.log(rows.join("\n"));
}

const dir = process.argv[2];
if (dir === undefined) {
  console.error(
    "usage: node --import tsx scripts/world-specs.ts DIR (npm pack tarballs of the documents, unpacked there)",
  );
  process.exit(2);
}
await main(resolve(dir));
