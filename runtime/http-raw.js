// One raw HTTP exchange as the transport sees it, whatever carries it (the standard fetch by default,
// undici's dispatcher on Node when asked for): what goes in, what comes out, and the two ways it ends
// early. No Node API here, so the client path runs on every runtime.
/** The body is larger than maxBytes, declared or received (the caller words the error). */
export class BodyTooLarge extends Error {
    constructor(maxBytes) {
        super(`response body exceeds ${maxBytes} bytes`);
        this.name = "BodyTooLarge";
    }
}
/** The exchange's own deadline passed (the caller words the error). */
export class DeadlineExceeded extends Error {
    constructor(timeoutMs) {
        super(`no complete response within ${timeoutMs} ms`);
        this.name = "DeadlineExceeded";
    }
}
/** True when content-length announces more than `limit` bytes. */
export function declaresMoreThan(headers, limit) {
    const declared = headers["content-length"];
    return declared !== undefined && /^\d+$/.test(declared) && Number(declared) > limit;
}
/** Lower-case names, repeated headers joined with ", " (the shape TransportResponse promises). */
export function flattenHeaders(headers) {
    const out = {};
    for (const name in headers) {
        const value = headers[name];
        if (value === undefined || !Object.hasOwn(headers, name))
            continue;
        out[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
    }
    return out;
}
//# sourceMappingURL=http-raw.js.map