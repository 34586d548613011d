const MAX_ISSUES_IN_MESSAGE = 3;
const MAX_MESSAGE_LENGTH = 500;
/** `body.items[0].amount` from a location and a zod issue path. */
export function fieldPath(location, path) {
    let out = location;
    for (const key of path)
        out += typeof key === "number" ? `[${key}]` : `.${String(key)}`;
    return out;
}
export function formatIssues(location, issues) {
    const shown = issues.slice(0, MAX_ISSUES_IN_MESSAGE).map((issue) => `${fieldPath(location, issue.path)}: ${issue.message}`);
    if (issues.length > MAX_ISSUES_IN_MESSAGE)
        shown.push(`and ${issues.length - MAX_ISSUES_IN_MESSAGE} more`);
    const message = shown.join("; ");
    return message.length > MAX_MESSAGE_LENGTH ? `${message.slice(0, MAX_MESSAGE_LENGTH - 1)}…` : message;
}
/** Query string as a record: a repeated key becomes an array (which a scalar schema then refuses). */
export function queryRecord(search) {
    if (search === "")
        return {};
    const out = new Map();
    for (const [key, value] of new URLSearchParams(search)) {
        const existing = out.get(key);
        if (existing === undefined)
            out.set(key, value);
        else
            out.set(key, Array.isArray(existing) ? [...existing, value] : [existing, value]);
    }
    // fromEntries defines own properties, so a key named __proto__ stays a plain key.
    return Object.fromEntries(out);
}
/** Request headers with lower-case names; a header sent more than once becomes an array. */
export function headersRecord(req) {
    return Object.fromEntries(Object.entries(req.headersDistinct).map(([name, values]) => [name, values && values.length === 1 ? values[0] : (values ?? [])]));
}
/**
 * The keys a schema reads when it is a zod object that drops unknown keys (the default mode): its
 * result then depends on those keys only, so the router hands it just them. Undefined for any other
 * schema (strict, loose, catchall, transformed), which gets every header.
 */
export function readKeys(schema) {
    const def = schema?._zod?.def;
    if (def?.type !== "object" || def.catchall !== undefined || def.shape === undefined)
        return undefined;
    const keys = Object.keys(def.shape);
    return keys.includes("__proto__") ? undefined : keys;
}
/**
 * headersRecord restricted to `names`: the same values for those names, without building the record
 * of every header (most operations read none, and then no header is looked at).
 */
export function headersSubset(req, names) {
    const out = {};
    if (names.length === 0)
        return out;
    const distinct = req.headersDistinct;
    for (const name of names) {
        const values = Object.hasOwn(distinct, name) ? distinct[name] : undefined;
        if (values !== undefined)
            out[name] = values.length === 1 ? values[0] : values;
    }
    return out;
}
/** Validates params, query, headers and body in that order; the first location that fails is reported. */
export function validateInput(op, raw) {
    const steps = [
        ["params", op.paramsSchema],
        ["query", op.querySchema],
        ["headers", op.headersSchema],
        ["body", op.bodySchema],
    ];
    const input = { params: undefined, query: undefined, headers: undefined, body: undefined };
    for (const [location, schema] of steps) {
        if (schema === undefined)
            continue;
        const result = schema.safeParse(raw[location]);
        if (!result.success)
            return { ok: false, message: formatIssues(location, result.error.issues), location };
        input[location] = result.data;
    }
    return { ok: true, input };
}
//# sourceMappingURL=validate.js.map