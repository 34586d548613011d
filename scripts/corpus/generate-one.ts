// One corpus document, in a child process of scripts/corpus.ts (a document that blows up memory or
// hangs takes only its child down): custody generate (strict, then --lenient when strict refuses) and
// openapi-typescript's Node API, each timed in-process, outputs written for the batched tsc; with
// --differential, the generated zod schemas compared with ajv (scripts/differential.ts).
//   node --import tsx scripts/corpus/generate-one.ts DOC OUT [--ots-first] [--differential] [--no-ots]
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { renderFiles, SpecError } from "../../generator/index.ts";
import type { SpecModel } from "../../generator/model/types.ts";
import { importedPackages } from "../../generator/runtime-source.ts";
import { differential } from "../differential.ts";

export interface CustodyOutcome {
  /** generated: strict mode took it; lenient: only --lenient did; refused: both refused; crashed: an exception that is not a SpecError. */
  status: "generated" | "lenient" | "refused" | "crashed";
  ms?: number;
  /** Strict mode's first problem (for lenient and refused), or the crash message. */
  reason?: string;
  /** --lenient's first problem, when it refused too. */
  lenientReason?: string;
  repairs?: string[];
  operations?: number;
  schemas?: number;
  bytes?: number;
  /** Packages the generated files import, read from their syntax (with the local runtime: zod alone). */
  imports?: string[];
}

export interface OtsOutcome {
  /** skipped: --no-ots (a run about custody alone, at a quarter of the cost). */
  status: "generated" | "failed" | "skipped";
  ms?: number;
  reason?: string;
}

export interface DocumentReport {
  custody: CustodyOutcome;
  ots: OtsOutcome;
  differential?: { components: number; instances: number; disagreements: number; examples: unknown[] };
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n")[0].slice(0, 300);
}

async function runCustody(doc: string, out: string): Promise<{ outcome: CustodyOutcome; model?: SpecModel }> {
  let strictReason: string | undefined;
  for (const lenient of [false, true]) {
    const started = performance.now();
    try {
      const { model, files } = await renderFiles({ specPath: doc, outDir: out, lenient, runtime: "local" });
      const ms = performance.now() - started;
      let bytes = 0;
      for (const f of files) {
        await mkdir(dirname(join(out, f.path)), { recursive: true });
        await writeFile(join(out, f.path), f.content);
        bytes += Buffer.byteLength(f.content);
      }
      const repairs = model.repairs.map((r) => `${r.pointer}: ${r.problem}`);
      const status = lenient ? "lenient" : "generated";
      const imports = importedPackages(files);
      return {
        outcome: {
          status,
          ms,
          reason: strictReason,
          repairs,
          operations: model.operations.length,
          schemas: model.schemas.length,
          bytes,
          imports,
        },
        model,
      };
    } catch (error) {
      if (!(error instanceof SpecError)) return { outcome: { status: "crashed", reason: firstLine(error) } };
      if (!lenient) strictReason = firstLine(error);
      else return { outcome: { status: "refused", reason: strictReason, lenientReason: firstLine(error) } };
    }
  }
  throw new Error("unreachable");
}

async function runOts(doc: string, out: string): Promise<OtsOutcome> {
  const started = performance.now();
  try {
    const { default: openapiTS, astToString } = await import("openapi-typescript");
    const text = astToString(await openapiTS(pathToFileURL(doc), { silent: true }));
    const ms = performance.now() - started;
    await mkdir(out, { recursive: true });
    await writeFile(join(out, "types.ts"), text);
    return { status: "generated", ms };
  } catch (error) {
    return { status: "failed", reason: firstLine(error) };
  }
}

async function main(argv: string[]): Promise<void> {
  const [doc, out] = argv.map((a) => resolve(a));
  const otsFirst = argv.includes("--ots-first");
  let custody: Awaited<ReturnType<typeof runCustody>> | undefined;
  let ots: OtsOutcome | undefined = argv.includes("--no-ots") ? { status: "skipped" } : undefined;
  if (otsFirst && !ots) ots = await runOts(doc, join(out, "ots"));
  custody = await runCustody(doc, join(out, "custody"));
  if (!ots) ots = await runOts(doc, join(out, "ots"));
  const report: DocumentReport = { custody: custody.outcome, ots: ots as OtsOutcome };
  if (argv.includes("--differential") && custody.model) {
    const schemas = await import(pathToFileURL(join(out, "custody", "schemas.ts")).href);
    const diff = differential(custody.model, schemas, { seed: 1, perComponent: 20 });
    report.differential = {
      components: diff.components,
      instances: diff.instances,
      disagreements: diff.disagreements.length,
      examples: diff.disagreements.slice(0, 5),
    };
  }
  process.stdout.write(`\n@@report ${JSON.stringify(report)}\n`);
}

await main(process.argv.slice(2));
