// Classic zod and zod/mini validators generated from one document, judged side by side: every instance
// both accept or both reject, parsed to the same value. Used by test/generator-zod-mini.test.ts (default
// counts, npm test) and test/generator-zod-mini.scale.test.ts (large counts, npm run test:scale).
import { pathToFileURL } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { expect } from "vitest";
import { mulberry32 } from "../../conformance/fuzz/prng.ts";
import type { SpecModel } from "../../generator/model/types.ts";
import { differential } from "../../scripts/differential.ts";

/** The fixture documents compared in both flavours (every keyword the generator expresses; two public APIs). */
export const MINI_FIXTURES = [
  ...["keywords", "keywords-30", "allof", "discriminator", "recursive", "nullable-30", "nullable-31"],
  ...["additional-properties", "mini-custody", "names", "default-only", "public-apis-30", "public-apis-31"],
];

export interface Parsed {
  success: boolean;
  data?: unknown;
}
export interface Checker {
  safeParse(value: unknown): Parsed;
}
export type Module = Record<string, unknown>;

/** How many instances: per component (differential), per parameter schema, drawn from the pool per other schema. */
export interface Counts {
  perComponent: number;
  perParameters: number;
  sample: number;
}

/** Every instance both sides judged differently (or parsed to different values). */
export class Agreement {
  readonly disagreements: { schema: string; instance: unknown; classic: Parsed; mini: Parsed }[] = [];
  readonly pool: unknown[] = [];
  compared = 0;

  judge(schema: string, classic: Checker, mini: Checker, instance: unknown): Parsed {
    const a = classic.safeParse(instance);
    const b = mini.safeParse(instance);
    this.compared++;
    if (a.success !== b.success || (a.success && !isDeepStrictEqual(a.data, b.data))) {
      const [classic, mini] = [a, b].map((r) => ({ success: r.success, data: r.data }));
      this.disagreements.push({ schema, instance, classic, mini });
    }
    return b;
  }

  /** The mini module's schemas, each also asking the classic one (for differential()). */
  paired(classic: Module, mini: Module): Record<string, Checker> {
    const out: Record<string, Checker> = {};
    for (const [name, schema] of Object.entries(mini)) {
      if (!isChecker(schema) || !isChecker(classic[name])) continue;
      out[name] = {
        safeParse: (value) => {
          this.pool.push(value);
          return this.judge(name, classic[name] as Checker, schema, value);
        },
      };
    }
    return out;
  }
}

export async function importModule(path: string): Promise<Module> {
  return (await import(pathToFileURL(path).href)) as Module;
}

function isChecker(value: unknown): value is Checker {
  return typeof (value as Checker | undefined)?.safeParse === "function";
}

/** Texts a parameter may arrive as: numbers, booleans, lists, formats, and what none of them accepts. */
const TEXTS: unknown[] = [
  ...["", "0", "1", "7", "-1", "1.5", "1e3", "20", "100", "101", "true", "false", "yes", "abc", "a,b", "1,2"],
  ...["3f1c2a9e-7b4d-4e0a-9c61-5d2b8f0e4a17", "2025-01-02T03:04:05Z", ["1", "2"], ["a"], []],
];

/** Objects of parameter texts for each operation's params/query/headers schema. */
function parameterInstances(model: SpecModel, random: () => number, count: number): Map<string, unknown[]> {
  const out = new Map<string, unknown[]>();
  for (const op of model.operations) {
    const locations = [
      [op.names.paramsSchema, op.params.path],
      [op.names.querySchema, op.params.query],
      [op.names.headersSchema, op.params.header],
    ] as const;
    for (const [name, params] of locations) {
      if (params.length === 0) continue;
      const instances = Array.from({ length: count }, () => {
        const value: Record<string, unknown> = {};
        for (const p of params) {
          const schema = typeof p.schema === "object" ? p.schema : {};
          const own = [...(Array.isArray(schema.enum) ? schema.enum : []), schema.default, schema.example];
          const choices = [...TEXTS, ...own.filter((v) => v !== undefined).map(String)];
          if (random() < 0.75) value[p.key] = choices[Math.floor(random() * choices.length)];
        }
        return value;
      });
      out.set(name, instances);
    }
  }
  return out;
}

/**
 * Both modules judged: the components through differential() (which also holds mini to ajv), then
 * every other exported schema (parameters, bodies, each status of a response record) on parameter
 * texts or on a sample of the components' instances.
 */
export function compare(
  model: SpecModel,
  classic: Module,
  mini: Module,
  counts: Counts,
): { agreement: Agreement; ajv: unknown[] } {
  const agreement = new Agreement();
  const result = differential(model, agreement.paired(classic, mini), { seed: 11, perComponent: counts.perComponent });
  const random = mulberry32(11);
  const texts = parameterInstances(model, random, counts.perParameters);
  const sample = () =>
    Array.from({ length: counts.sample }, () => agreement.pool[Math.floor(random() * agreement.pool.length)]);
  for (const [name, value] of Object.entries(classic)) {
    const other = mini[name];
    // A response record (status → schema) is compared status by status.
    const pairs: [string, Checker, Checker][] = isChecker(value)
      ? [[name, value, other as Checker]]
      : Object.entries((value ?? {}) as Module)
          .filter(([, s]) => isChecker(s))
          .map(([status, s]) => [`${name}.${status}`, s as Checker, (other as Module)[status] as Checker]);
    for (const [label, a, b] of pairs) {
      expect(isChecker(b), `${label} exists in both`).toBe(true);
      const instances = [...(texts.get(name) ?? []), ...sample(), undefined];
      for (const instance of instances) agreement.judge(label, a, b, instance);
    }
  }
  return { agreement, ajv: result.disagreements };
}
