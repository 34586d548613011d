// Serving a request listener on a port, with timeouts that keep slow or silent clients from holding
// connections forever, and a close() that does not wait for idle keep-alive sockets. Requests node's
// HTTP parser refuses (bad request line, invalid header bytes, oversized headers, broken chunking) and
// HTTP/1.1 requests without Host get the error envelope too, not node's bare status line.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { errorEnvelope } from "../envelope.ts";
import { JSON_CONTENT_TYPE, resolveRequestId, sendError } from "./respond.ts";
export function listen(handler, options = {}) {
    const host = options.host ?? "127.0.0.1";
    // Host is checked in requireHost so that its absence is answered with the envelope.
    const server = createServer({ requireHostHeader: false }, requireHost(handler));
    server.on("clientError", answerClientError);
    server.requestTimeout = options.requestTimeoutMs ?? 30_000;
    server.headersTimeout = options.headersTimeoutMs ?? 10_000;
    return new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(options.port ?? 0, host, () => {
            server.off("error", reject);
            const { port } = server.address();
            const shownHost = host.includes(":") ? `[${host}]` : host;
            resolve({
                url: `http://${shownHost}:${port}`,
                port,
                server,
                close: () => new Promise((done, fail) => {
                    server.close((error) => (error ? fail(error) : done()));
                    server.closeAllConnections();
                }),
            });
        });
    });
}
/** Why node's parser refused a request, by its error code; the answer says so in one line. */
const CLIENT_ERROR_REASONS = {
    HPE_HEADER_OVERFLOW: "request line and headers larger than the server accepts",
    ERR_HTTP_REQUEST_TIMEOUT: "the request did not arrive in time",
    ERR_HTTP_HEADERS_TIMEOUT: "the request headers did not arrive in time",
    HPE_INVALID_METHOD: "invalid method",
    HPE_INVALID_URL: "invalid request target",
    HPE_INVALID_HEADER_TOKEN: "invalid header",
    HPE_INVALID_CONTENT_LENGTH: "invalid content-length",
    HPE_UNEXPECTED_CONTENT_LENGTH: "content-length together with transfer-encoding",
    HPE_INVALID_CHUNK_SIZE: "invalid chunked encoding",
    HPE_INVALID_TRANSFER_ENCODING: "invalid transfer-encoding",
};
/** How long a refused connection may linger (the client reading the answer) before it is cut. */
const LINGER_MS = 5_000;
const answered = new WeakSet();
/**
 * Answers a request node's HTTP parser refused with a 400 error envelope, like every other answer
 * (node's default sends a bare status line). Nothing is written when an answer is already on its way on
 * that connection, so a pipelined response is never corrupted. The socket is ended, not destroyed, so
 * the client receives the answer before the connection closes.
 */
export function answerClientError(error, socket) {
    const inFlight = socket._httpMessage;
    if (answered.has(socket))
        return; // the parser reports once per chunk that still arrives
    answered.add(socket);
    if (error.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) {
        socket.destroy();
        return;
    }
    const reason = CLIENT_ERROR_REASONS[error.code ?? ""] ?? "malformed HTTP/1.1 request";
    const body = JSON.stringify(errorEnvelope(`bad HTTP request: ${reason}`, 400));
    const head = [
        "HTTP/1.1 400 Bad Request",
        `content-type: ${JSON_CONTENT_TYPE}`,
        `content-length: ${Buffer.byteLength(body)}`,
        `x-request-id: ${randomUUID()}`,
        "cache-control: no-store",
        "x-content-type-options: nosniff",
        "connection: close",
    ];
    socket.end(`${head.join("\r\n")}\r\n\r\n${body}`);
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once("close", () => clearTimeout(timer));
}
/** RFC 9112 3.2: an HTTP/1.1 request without Host is refused with 400, here with the envelope. */
function requireHost(handler) {
    return (req, res) => {
        if (req.httpVersion === "1.1" && req.headers.host === undefined) {
            return sendError(res, 400, "bad HTTP request: missing Host header", resolveRequestId(req), { close: true });
        }
        handler(req, res);
    };
}
//# sourceMappingURL=listen.js.map