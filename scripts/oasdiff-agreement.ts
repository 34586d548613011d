// `node --import tsx scripts/oasdiff-agreement.ts <oasdiff checkout>`: runs `custody diff` on every spec
// pair oasdiff's checker tests load from files (data/…, base then revision, no in-code edits) and
// compares the breaking verdict with the one those tests expect (an expected check id whose level is
// ERR in oasdiff's checker/rules.go). Pairs whose checks we do not implement are counted apart.
// The pairs and expectations are read as facts; oasdiff is Apache-2.0. Get a checkout with e.g.
//   git clone --depth 1 https://github.com/oasdiff/oasdiff /tmp/oasdiff
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { diffDocuments } from "../diff/index.ts";
import { loadSide } from "../diff/source.ts";

/** oasdiff checks on JSON Schema keywords or features custody diff does not compare. */
const UNCOVERED =
  /contains|dependent|-if-|-then-|-else-|pattern-propert|property-names|prefix-items|unevaluated|content-schema|content-media|content-encoding|discriminator|(body|property)-default-value|extensible-enum|all-of|media-type-schema|component|stability|sunset|deprecat|operation-id|tag-|loosely|comment|header-property/;
/** Tests about keywords we do not descend into (if/then/else, not, contains, …). */
const UNCOVERED_TESTS = /SubSchemaTraversal/;

export interface PairResult {
  test: string;
  base: string;
  revision: string;
  oasdiffIds: string[];
  oasdiffBreaking: boolean;
  oursBreaking: boolean;
  ours: string[];
}

function readRules(root: string): { levels: Map<string, string>; ids: Map<string, string> } {
  const levels = new Map<string, string>();
  const ids = new Map<string, string>();
  const rules = readFileSync(join(root, "checker/rules.go"), "utf8");
  for (const m of rules.matchAll(/newBackwardCompatibilityRule\((\w+Id),\s*(ERR|WARN|INFO)/g)) levels.set(m[1], m[2]);
  for (const f of readdirSync(join(root, "checker")).filter((f) => f.endsWith(".go"))) {
    for (const m of readFileSync(join(root, "checker", f), "utf8").matchAll(/(\w+Id)\s*=\s*"([a-z0-9-]+)"/g))
      ids.set(m[1], m[2]);
  }
  return { levels, ids };
}

export async function agreement(root: string): Promise<{ covered: PairResult[]; uncovered: number }> {
  const { levels, ids } = readRules(root);
  const covered: PairResult[] = [];
  let uncovered = 0;
  for (const f of readdirSync(join(root, "checker"))
    .filter((f) => f.endsWith("_test.go"))
    .sort()) {
    const src = readFileSync(join(root, "checker", f), "utf8");
    for (const m of src.matchAll(/\nfunc (Test\w+)\(t \*testing\.T\) \{\n([\s\S]*?)\n\}\n/g)) {
      const [, test, body] = m;
      const files = [...body.matchAll(/open\("\.\.\/(data\/[^"]+)"\)/g)].map((x) => x[1]);
      if (files.length !== 2 || files[0] === files[1]) continue;
      if (/\bs[12]\.Spec\b|\.Value\(|Delete\(|= *"/.test(body)) continue; // the test edits a loaded spec
      if (!body.includes("singleCheckConfig") && !body.includes("allChecksConfig")) continue;
      const expected = [...body.matchAll(/checker\.(\w+Id)\b/g)].map((x) => x[1]);
      const empty = /require\.Empty\(t, errs\)|require\.Len\(t, errs, 0\)/.test(body);
      if (expected.length === 0 && !empty) continue; // asserts something else
      const expectedIds = expected.map((e) => ids.get(e) ?? e);
      if (expectedIds.some((id) => UNCOVERED.test(id)) || UNCOVERED_TESTS.test(test)) {
        uncovered++;
        continue;
      }
      const explicit = [...body.matchAll(/Level:\s*checker\.(ERR|WARN|INFO)/g)].map((x) => x[1]);
      const oasdiffBreaking = expected.some((e) => levels.get(e) === "ERR") || explicit.includes("ERR");
      const report = diffDocuments({
        openapi: {
          old: await loadSide(join(root, files[0]), "openapi"),
          next: await loadSide(join(root, files[1]), "openapi"),
        },
      });
      const ours = report.changes.map((c) => `${c.level} ${c.id}`);
      covered.push({
        test,
        base: files[0],
        revision: files[1],
        oasdiffIds: expectedIds,
        oasdiffBreaking,
        oursBreaking: report.summary.breaking > 0,
        ours,
      });
    }
  }
  return { covered, uncovered };
}

async function main(root: string | undefined): Promise<number> {
  if (!root) {
    console.error("usage: node --import tsx scripts/oasdiff-agreement.ts <oasdiff checkout>");
    return 2;
  }
  const { covered, uncovered } = await agreement(root);
  const agree = covered.filter((p) => p.oasdiffBreaking === p.oursBreaking);
  console.log(
    `${agree.length}/${covered.length} test cases agree on the breaking verdict (${((100 * agree.length) / covered.length).toFixed(1)}%); ${uncovered} more test checks custody diff does not implement`,
  );
  for (const p of covered.filter((x) => x.oasdiffBreaking !== x.oursBreaking)) {
    console.log(
      `- ${p.test}: oasdiff ${p.oasdiffBreaking ? "breaking" : "not breaking"} (${p.oasdiffIds.join(", ") || "no change"}), ours ${p.oursBreaking ? "breaking" : "not breaking"} (${[...new Set(p.ours)].join(", ") || "no change"})`,
    );
  }
  return 0;
}

if (process.argv[1]?.endsWith("oasdiff-agreement.ts")) process.exitCode = await main(process.argv[2]);
