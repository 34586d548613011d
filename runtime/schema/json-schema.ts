// JSON Schema 2020-12 keywords zod has no primitive for, as plain predicates the generated schemas
// call from .refine(). Data is JSON (no undefined, functions or cycles). No Node-only APIs.

/** JSON Schema equality: numbers by value, objects by keys regardless of order, arrays by position. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => jsonEqual(item, other[i]));
  }
  const left = Object.keys(a);
  const right = b as Record<string, unknown>;
  if (left.length !== Object.keys(right).length) return false;
  return left.every((key) => Object.hasOwn(right, key) && jsonEqual((a as Record<string, unknown>)[key], right[key]));
}

/** uniqueItems: no two items are equal. */
export function uniqueItems(items: readonly unknown[]): boolean {
  for (let i = 1; i < items.length; i++) for (let j = 0; j < i; j++) if (jsonEqual(items[i], items[j])) return false;
  return true;
}

/** minLength/maxLength count code points, not UTF-16 units. */
export function lengthWithin(value: string, min: number, max: number): boolean {
  let count = 0;
  for (const _ of value) if (++count > max) return false;
  return count >= min;
}

/** multipleOf: the quotient is an integer. */
export function isMultipleOf(value: number, divisor: number): boolean {
  return Number.isInteger(value / divisor);
}

/** JSON Schema's integer: a number with no fractional part (any magnitude). */
export function isInteger(value: number): boolean {
  return Number.isInteger(value);
}

/** What a generated schema offers a keyword check: safeParse's success. */
export interface Checkable {
  safeParse(value: unknown): { success: boolean };
}

/** A JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export interface ObjectRule {
  minProperties?: number;
  maxProperties?: number;
  propertyNames?: Checkable;
  dependentRequired?: Readonly<Record<string, readonly string[]>>;
  dependentSchemas?: Readonly<Record<string, Checkable>>;
  /** patternProperties with the keys `properties` declares and what additionalProperties says of the rest. */
  patterns?: readonly (readonly [RegExp, Checkable])[];
  declared?: readonly string[];
  additional?: Checkable | false;
}

/**
 * The object keywords that need the value's own keys (the parsed output drops undeclared ones), as a
 * predicate on the raw value; values that are not objects pass, as JSON Schema says.
 */
export function objectRule(rule: ObjectRule): (value: unknown) => boolean {
  return (value) => {
    if (!isJsonObject(value)) return true;
    const keys = Object.keys(value);
    if (rule.minProperties !== undefined && keys.length < rule.minProperties) return false;
    if (rule.maxProperties !== undefined && keys.length > rule.maxProperties) return false;
    if (rule.propertyNames && !keys.every((key) => rule.propertyNames!.safeParse(key).success)) return false;
    for (const [key, names] of Object.entries(rule.dependentRequired ?? {})) {
      if (Object.hasOwn(value, key) && !names.every((name) => Object.hasOwn(value, name))) return false;
    }
    for (const [key, schema] of Object.entries(rule.dependentSchemas ?? {})) {
      if (Object.hasOwn(value, key) && !schema.safeParse(value).success) return false;
    }
    if (rule.patterns !== undefined) {
      for (const key of keys) {
        let matched = false;
        for (const [pattern, schema] of rule.patterns) {
          if (!pattern.test(key)) continue;
          matched = true;
          if (!schema.safeParse(value[key]).success) return false;
        }
        if (matched || rule.declared?.includes(key) || rule.additional === undefined) continue;
        if (rule.additional === false || !rule.additional.safeParse(value[key]).success) return false;
      }
    }
    return true;
  };
}

export interface ArrayRule {
  uniqueItems?: boolean;
  contains?: Checkable;
  minContains?: number;
  maxContains?: number;
}

/** uniqueItems and contains on the raw items (parsed items lose undeclared keys); non-arrays pass. */
export function arrayRule(rule: ArrayRule): (value: unknown) => boolean {
  return (value) => {
    if (!Array.isArray(value)) return true;
    if (rule.uniqueItems && !uniqueItems(value)) return false;
    if (rule.contains !== undefined) {
      let count = 0;
      for (const item of value) if (rule.contains.safeParse(item).success) count++;
      if (count < (rule.minContains ?? 1) || (rule.maxContains !== undefined && count > rule.maxContains)) return false;
    }
    return true;
  };
}

/** not: the value fails the schema. */
export function notRule(schema: Checkable): (value: unknown) => boolean {
  return (value) => !schema.safeParse(value).success;
}

/** if/then/else: `then` holds when `if` does, else `else` holds (an absent branch holds). */
export function conditionRule(
  condition: Checkable,
  then?: Checkable,
  otherwise?: Checkable,
): (value: unknown) => boolean {
  return (value) => {
    const branch = condition.safeParse(value).success ? then : otherwise;
    return branch === undefined || branch.safeParse(value).success;
  };
}

/** const or enum with object or array values: equal to one of them (key order aside). */
export function equalsOneOf(values: readonly unknown[]): (value: unknown) => boolean {
  return (value) => values.some((v) => jsonEqual(v, value));
}
