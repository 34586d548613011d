// JSON-RPC 2.0 over WebSocket (seed 4.1), on ws: requests, notifications, batches and subscriptions
// over one connection, answers matched by id.
import WebSocket from "ws";
import { RpcTransportError } from "./errors.ts";
import { applyRpcAuth, DEFAULT_RPC_TIMEOUT_MS, isRecord, makeRequest, outcomeOf, toJsonRpcError, unwrap } from "./jsonrpc-protocol.ts";
// Notifications that arrive before subscribe() has learnt its id are kept briefly, within bounds.
const MAX_BUFFERED_SUBSCRIPTIONS = 64;
const MAX_BUFFERED_PER_SUBSCRIPTION = 256;
export function wsRpc(options) {
    const { url, headers: authHeaders } = applyRpcAuth(options.url, options.apiKey, options.auth);
    const timeoutMs = options.timeoutMs ?? DEFAULT_RPC_TIMEOUT_MS;
    const socket = new WebSocket(url, {
        headers: { ...options.headers, ...authHeaders },
        handshakeTimeout: options.connectTimeoutMs ?? timeoutMs,
    });
    const pending = new Map();
    const subscriptions = new Map();
    const early = new Map();
    const listeners = new Set();
    let nextId = 1;
    let closedError;
    const ready = new Promise((resolve, reject) => {
        socket.once("open", () => resolve());
        socket.once("unexpected-response", (req, res) => {
            // The upgrade was refused (401 and its JSON-RPC body, for instance): report what the server said.
            const chunks = [];
            res.on("data", (chunk) => chunks.length < 64 && chunks.push(chunk));
            res.on("end", () => {
                const body = Buffer.concat(chunks).toString("utf8");
                let error = new RpcTransportError("http", `WebSocket upgrade refused with HTTP ${res.statusCode}`, { status: res.statusCode, body });
                try {
                    const parsed = JSON.parse(body);
                    if (isRecord(parsed) && isRecord(parsed.error))
                        error = toJsonRpcError(parsed.error);
                }
                catch {
                    // not JSON: keep the transport error
                }
                reject(error);
                req.destroy();
            });
            res.on("error", () => reject(new RpcTransportError("http", `WebSocket upgrade refused with HTTP ${res.statusCode}`, { status: res.statusCode })));
        });
        socket.once("error", (error) => reject(new RpcTransportError("network", `WebSocket ${new URL(options.url).origin} failed: ${error.message}`, { cause: error })));
        socket.once("close", () => reject(new RpcTransportError("closed", "WebSocket closed before it opened")));
    });
    // The caller may never await ready; its failure then surfaces through request().
    ready.catch(() => { });
    socket.on("close", (code) => {
        closedError = new RpcTransportError("closed", `WebSocket closed (code ${code})`);
        for (const [id, entry] of pending) {
            clearTimeout(entry.timer);
            entry.reject(closedError);
            pending.delete(id);
        }
    });
    socket.on("error", () => {
        // Surfaced through ready or the close handler; an unhandled 'error' would crash the process.
    });
    socket.on("message", (data) => {
        let parsed;
        try {
            parsed = JSON.parse(Buffer.isBuffer(data) ? data.toString("utf8") : Buffer.concat(data).toString("utf8"));
        }
        catch {
            return;
        }
        for (const message of Array.isArray(parsed) ? parsed : [parsed])
            if (isRecord(message))
                dispatch(message);
    });
    function dispatch(message) {
        if (typeof message.id === "number" && pending.has(message.id)) {
            const entry = pending.get(message.id);
            pending.delete(message.id);
            clearTimeout(entry.timer);
            entry.resolve(message);
            return;
        }
        if (typeof message.method !== "string" || "id" in message)
            return;
        for (const listener of listeners)
            listener(message.method, message.params);
        const params = message.params;
        if (!isRecord(params) || (typeof params.subscription !== "string" && typeof params.subscription !== "number"))
            return;
        const subId = String(params.subscription);
        const callback = subscriptions.get(subId);
        if (callback !== undefined)
            return callback(params.result);
        if (!early.has(subId) && early.size >= MAX_BUFFERED_SUBSCRIPTIONS)
            early.delete(early.keys().next().value);
        const buffered = early.get(subId) ?? [];
        if (buffered.length < MAX_BUFFERED_PER_SUBSCRIPTION)
            buffered.push(params.result);
        early.set(subId, buffered);
    }
    async function send(payload) {
        await ready;
        if (closedError !== undefined || socket.readyState !== WebSocket.OPEN)
            throw closedError ?? new RpcTransportError("closed", "WebSocket is not open");
        await new Promise((resolve, reject) => socket.send(JSON.stringify(payload), (error) => (error ? reject(new RpcTransportError("network", `send failed: ${error.message}`, { cause: error })) : resolve())));
    }
    function expect(id, method) {
        return new Promise((resolve, reject) => {
            const timer = setTimeout(() => {
                pending.delete(id);
                reject(new RpcTransportError("timeout", `${method} (id ${id}) got no answer within ${timeoutMs} ms`));
            }, timeoutMs);
            pending.set(id, { resolve, reject, timer });
        });
    }
    function forget(ids) {
        for (const id of ids) {
            const entry = pending.get(id);
            if (entry !== undefined)
                clearTimeout(entry.timer);
            pending.delete(id);
        }
    }
    async function request(method, params) {
        const id = nextId++;
        const answer = expect(id, method);
        try {
            await send(makeRequest(id, method, params));
        }
        catch (error) {
            forget([id]);
            answer.catch(() => { });
            throw error;
        }
        return unwrap(outcomeOf(await answer));
    }
    const client = {
        ready,
        request,
        async notify(method, params) {
            await send(makeRequest(undefined, method, params));
        },
        async batch(calls) {
            const ids = calls.map(() => nextId++);
            const answers = ids.map((id, i) => expect(id, calls[i].method));
            try {
                await send(calls.map((call, i) => makeRequest(ids[i], call.method, call.params)));
            }
            catch (error) {
                forget(ids);
                for (const answer of answers)
                    answer.catch(() => { });
                throw error;
            }
            return Promise.all(answers.map((answer) => answer.then(outcomeOf)));
        },
        async subscribe(params, onResult, subscribeOptions = {}) {
            const id = await request(subscribeOptions.subscribeMethod ?? "eth_subscribe", params);
            if (typeof id !== "string" && typeof id !== "number") {
                throw new RpcTransportError("invalid_response", `subscription id must be a string, got ${JSON.stringify(id)}`);
            }
            const subId = String(id);
            subscriptions.set(subId, onResult);
            for (const result of early.get(subId) ?? [])
                onResult(result);
            early.delete(subId);
            return {
                id: subId,
                async unsubscribe() {
                    subscriptions.delete(subId);
                    return request(subscribeOptions.unsubscribeMethod ?? "eth_unsubscribe", [id]);
                },
            };
        },
        onNotification(listener) {
            listeners.add(listener);
            return () => listeners.delete(listener);
        },
        close() {
            return new Promise((resolve) => {
                if (socket.readyState === WebSocket.CLOSED)
                    return resolve();
                socket.once("close", () => resolve());
                if (socket.readyState === WebSocket.CONNECTING)
                    socket.terminate();
                else
                    socket.close();
                // A peer that never completes the closing handshake must not hold close() forever.
                setTimeout(() => socket.terminate(), 1000).unref();
            });
        },
    };
    return client;
}
//# sourceMappingURL=jsonrpc-ws.js.map