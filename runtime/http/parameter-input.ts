// Preprocessing the generated parameter schemas apply to raw request input before zod checks it:
// query strings arrive as strings (once) or arrays (repeated), and input objects may carry keys that
// collide with Object.prototype members.

/** A query value arrives once as a string, or repeated as an array. */
export function toArray(value: unknown): unknown {
  return value === undefined || Array.isArray(value) ? value : [value];
}

/** A non-exploded query array: one comma-separated value. */
export function splitCommas(value: unknown): unknown {
  return typeof value === "string" ? (value === "" ? [] : value.split(",")) : value;
}

/** The input without its prototype: a key named constructor or toString is then absent unless sent. */
export function ownProperties(value: unknown): unknown {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? Object.assign(Object.create(null), value)
    : value;
}
