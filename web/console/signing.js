// Signed calls from the browser, with WebCrypto: the same HMAC scheme as every client (x-custody-hmac
// in the spec): ACCESS-SIGN = base64(lowercase hex(HMAC-SHA256(secret, "method=M&path=P&timestamp=T&body=B"))).
const encoder = new TextEncoder();

async function signature(secret, method, path, timestamp, body) {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const mac = new Uint8Array(
    await crypto.subtle.sign(
      "HMAC",
      key,
      encoder.encode(`method=${method}&path=${path}&timestamp=${timestamp}&body=${body}`),
    ),
  );
  const hex = Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("");
  return btoa(hex);
}

/** One signed request to this sandbox; resolves with the envelope's data or throws with status and message. */
export async function signedFetch(config, method, path, { query, headers, body } = {}) {
  const text = body === undefined ? "" : JSON.stringify(body);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const search = query && Object.keys(query).length > 0 ? `?${new URLSearchParams(query)}` : "";
  const res = await fetch(path + search, {
    method,
    headers: {
      "ACCESS-API-KEY": config.api_key,
      "ACCESS-TIMESTAMP": timestamp,
      "ACCESS-SIGN": await signature(config.api_secret, method, path, timestamp, text),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: text }),
  });
  const envelope = await res.json().catch(() => undefined);
  if (res.ok && envelope && envelope.success !== false) return envelope.data;
  const error = new Error(envelope?.message ?? `HTTP ${res.status}`);
  error.status = res.status;
  throw error;
}

/** The adapter's call(operationId, …): the operation's method and path from the generated table. */
export function operationCaller(config, operations) {
  return (operationId, { params = {}, query, headers, body } = {}) => {
    const op = operations[operationId];
    if (!op) throw new Error(`this sandbox has no operation ${operationId}`);
    const path = op.path.replace(/\{([^}]+)\}/g, (_, name) =>
      encodeURIComponent(params[name] ?? (name === "workspace_id" ? config.workspace_id : "")),
    );
    return signedFetch(config, op.method, path, { query, headers, body });
  };
}

/** A sandbox action (/_sandbox/faucet, /_sandbox/mine), signed like the API. */
export function sandboxAction(config, name, body) {
  return signedFetch(config, "POST", `/_sandbox/${name}`, { body });
}
