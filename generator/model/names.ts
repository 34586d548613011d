// Identifier sanitization: every name the emitters declare is a valid, non-reserved TypeScript
// identifier, and distinct names in the spec stay distinct (deterministic numeric suffixes).

/** JavaScript reserved words, strict-mode words, and TypeScript type keywords. */
const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for " +
    "function if import in instanceof new null return super switch this throw true try typeof var void while with " +
    "as implements interface let package private protected public static yield await async of " +
    "any unknown never string number boolean symbol bigint object undefined type keyof readonly infer is asserts " +
    "declare namespace module require global arguments eval constructor prototype __proto__ z T"
  ).split(" "),
);

import { codeJson } from "../spec-text.ts";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function isIdentifier(name: string): boolean {
  return IDENTIFIER.test(name);
}

export function isReserved(name: string): boolean {
  return RESERVED.has(name);
}

// Keys every plain object inherits. zod reads a declared key with `in` and `[]`, so a property named
// `constructor` or `toString` sees the inherited function when the key is absent (and fails). __proto__
// is left out: zod skips a declared __proto__ altogether.
const PROTOTYPE_MEMBERS = new Set(Object.getOwnPropertyNames(Object.prototype).filter((n) => n !== "__proto__"));

/** True for names such as constructor, toString, hasOwnProperty, valueOf. */
export function isPrototypeMember(name: string): boolean {
  return PROTOTYPE_MEMBERS.has(name);
}

/** A property key as written in a type or object literal: bare when possible, else a JSON string. */
export function propertyKey(name: string): string {
  return isIdentifier(name) ? name : codeJson(name);
}

/** Alphanumeric words of a name: "repos/get-content" → ["repos","get","content"]. */
function words(raw: string): string[] {
  return raw.split(/[^A-Za-z0-9]+/).filter((w) => w.length > 0);
}

/**
 * A key in an object literal (zod shapes, records): like propertyKey, except that `__proto__`
 * must be computed, or the literal would set its prototype instead of a property.
 */
export function objectLiteralKey(name: string): string {
  return name === "__proto__" ? '["__proto__"]' : propertyKey(name);
}

/** "simple-user" → "SimpleUser"; "WalletBalance" stays; a leading digit gets "_". */
export function toPascalCase(raw: string): string {
  const joined = words(raw)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join("");
  if (joined === "") return "Unnamed";
  return /^[0-9]/.test(joined) ? `_${joined}` : joined;
}

/** "repos/get-content" → "reposGetContent"; "SCIMUser" → "scimUser"; valid names are kept as written. */
export function toCamelCase(raw: string): string {
  if (isIdentifier(raw) && !raw.includes("$")) return raw[0].toLowerCase() === raw[0] ? raw : lowerFirst(raw);
  const pascal = toPascalCase(raw);
  return pascal.startsWith("_") ? pascal : lowerFirst(pascal);
}

function lowerFirst(name: string): string {
  return name.replace(/^[A-Z]+(?=[A-Z][a-z]|[0-9_]|$)|^[A-Z]/, (m) => m.toLowerCase());
}

export function upperFirst(name: string): string {
  return name.startsWith("_") ? name : name[0].toUpperCase() + name.slice(1);
}

/**
 * Hands out unique names. `claim(base)` returns base, or base2, base3... when taken; `suffixes`
 * reserves companion names together (a type `Foo` also needs the zod const `FooSchema`). Names
 * reserved for custody (custody-names.ts) are never handed out: a base that would equal one becomes
 * base + `yieldSuffix` first (`ApiError` → `ApiErrorModel`), a name that does not depend on the
 * document's other names.
 */
export class NameRegistry {
  readonly #taken = new Set<string>();
  readonly #custody = new Set<string>();
  readonly #allowReserved: boolean;

  /** allowReserved: for member names (methods, keys), where `delete` or `default` are fine. */
  constructor(options: { allowReserved?: boolean } = {}) {
    this.#allowReserved = options.allowReserved === true;
  }

  reserve(...names: string[]): void {
    for (const name of names) this.#taken.add(name);
  }

  /** Names custody's own code exports: a claim that meets one yields with its suffix. */
  reserveForCustody(...names: string[]): void {
    for (const name of names) this.#custody.add(name);
    this.reserve(...names);
  }

  has(name: string): boolean {
    return this.#taken.has(name);
  }

  claim(base: string, suffixes: readonly string[] = [""], yieldSuffix = "Model"): string {
    const stem = suffixes.some((s) => this.#custody.has(base + s)) ? base + yieldSuffix : base;
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? stem : `${stem}${n}`;
      if (!this.#allowReserved && RESERVED.has(candidate)) continue;
      const all = suffixes.map((s) => candidate + s);
      if (all.some((name) => this.#taken.has(name))) continue;
      this.reserve(...all);
      return candidate;
    }
  }
}
