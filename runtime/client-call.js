import { ApiPromise } from "./api-promise.ts";
import { apiErrorFor, ResponseValidationError } from "./errors.ts";
import { unwrapEnvelope } from "./http-answer.ts";
import { firstIssue } from "./schema-issue.ts";
/** One call: `await` it for the data, or `.withResponse()` for the data with status, headers and request id. */
export function callOperation(transport, op, input, options, kind) {
    return new ApiPromise(send(transport, op, input, options, kind));
}
async function send(transport, op, input, options, kind) {
    const headers = requestHeaders(op, input, options);
    const response = await transport.request({
        method: op.method,
        path: expandPath(op.path, input.params),
        query: input.query,
        headers,
        body: input.body,
        // A call carrying its idempotency key is safe to repeat: the service answers a repeat with the first answer.
        idempotent: op.idempotent || op.idempotencyHeader !== undefined,
        timeoutMs: options?.timeoutMs ?? options?.timeout,
        deadlineMs: options?.deadlineMs,
        maxRetries: options?.maxRetries,
        retry: options?.retry,
        signal: options?.signal,
        operationId: op.operationId,
    });
    const info = { status: response.status, headers: response.headers, requestId: response.requestId, attempts: response.attempts, url: response.request.url };
    const validate = options?.validateResponse ?? transport.validateResponses ?? true;
    if (op.envelope) {
        const data = unwrapEnvelope(response, op.successStatus);
        return { data: validate ? checked(op, response, data) : data, response: info };
    }
    if (response.status < 200 || response.status >= 300)
        throw httpError(response);
    const data = kind === "text" ? response.text : kind === "none" ? undefined : response.body;
    return { data: validate ? checked(op, response, data) : data, response: info };
}
/** The caller's headers, plus the idempotency key the operation declares (the caller's, or a new one). */
function requestHeaders(op, input, options) {
    const name = op.idempotencyHeader;
    if (name === undefined && input.headers === undefined && options?.headers === undefined)
        return undefined;
    const headers = { ...headerStrings(input.headers), ...options?.headers };
    if (name !== undefined) {
        const given = Object.keys(headers).find((key) => key.toLowerCase() === name.toLowerCase());
        if (options?.idempotencyKey !== undefined) {
            if (given !== undefined)
                delete headers[given];
            headers[name] = options.idempotencyKey;
        }
        else if (given === undefined || headers[given] === undefined) {
            if (given !== undefined)
                delete headers[given];
            headers[name] = uuidV4();
        }
    }
    return headers;
}
/** A random (version 4) UUID, on any runtime with Web Crypto (randomUUID needs a secure context in browsers). */
export function uuidV4() {
    const webCrypto = globalThis.crypto;
    if (typeof webCrypto.randomUUID === "function")
        return webCrypto.randomUUID();
    const bytes = webCrypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
// One entry per template the client calls: bounded by the operations of the spec.
const templates = new Map();
function pathTemplate(template) {
    let compiled = templates.get(template);
    if (compiled === undefined) {
        // split with a capturing group alternates literal, name, literal, ..., literal.
        const pieces = template.split(/\{([^}]+)\}/);
        compiled = { literals: pieces.filter((_, i) => i % 2 === 0), names: pieces.filter((_, i) => i % 2 === 1) };
        templates.set(template, compiled);
    }
    return compiled;
}
/** Fills the path template; each value is percent-encoded as one path segment. */
export function expandPath(template, params) {
    const values = (params ?? {});
    const { literals, names } = pathTemplate(template);
    let path = literals[0];
    for (let i = 0; i < names.length; i++)
        path += encodeURIComponent(String(values[names[i]])) + literals[i + 1];
    return path;
}
function headerStrings(headers) {
    const out = {};
    for (const [name, value] of Object.entries(headers ?? {}))
        if (value !== undefined && value !== null)
            out[name] = String(value);
    return out;
}
/** Validates what the response carries against the schema declared for its status. */
function checked(op, response, data) {
    const schemas = op.responseSchemas;
    const schema = schemas[response.status] ?? schemas[`${String(response.status)[0]}XX`] ?? schemas.default;
    if (schema === undefined)
        return data;
    const result = schema.safeParse(data);
    if (result.success)
        return result.data;
    const message = `${op.operationId}: the response does not match the spec at ${firstIssue(result.error)}`;
    const issues = result.error.issues.map((issue) => ({ path: issue.path, message: issue.message, code: issue.code }));
    throw new ResponseValidationError(response.status, message, { issues, rawBody: response.text, requestId: response.requestId, headers: response.headers, body: response.body ?? response.text });
}
/** A non-2xx answer without an envelope: code and message from the body when it has them. */
function httpError(response) {
    const body = (typeof response.body === "object" && response.body !== null ? response.body : {});
    const code = typeof body.code === "string" || typeof body.code === "number" ? body.code : `http_${response.status}`;
    const message = typeof body.message === "string" ? body.message : `HTTP ${response.status}`;
    return apiErrorFor(response.status, code, message, { requestId: response.requestId, body: response.body ?? response.text, headers: response.headers });
}
//# sourceMappingURL=client-call.js.map