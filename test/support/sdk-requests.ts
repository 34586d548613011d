// A request exactly as the real service's SDK (github fystack/platform-sdk 0.1.15) sends it, and its
// status poller, written from its source as facts (no SDK code): src/api.ts composeAPIHeaders signs
// "method=M&path=P&timestamp=T&body=B" (P the URL pathname, B = JSON.stringify(body) or "" when the body
// has no keys) as base64(hex(HMAC-SHA256(secret, ...))); GET has no Content-Type, POST has
// application/json; a non-2xx answer or success false is an error. src/utils/statusPoller.ts gives up
// after 10 attempts.
import { createHmac } from "node:crypto";

export interface SdkTarget {
  base_url: string;
  api_key: string;
  api_secret: string;
}

/** One call as the SDK makes it; answers `data`, or throws like its get/post do. */
export async function sdkRequest(
  target: SdkTarget,
  method: "GET" | "POST",
  pathAndQuery: string,
  body?: Record<string, unknown>,
  extraHeaders: Record<string, string> = {},
): Promise<any> {
  const url = `${target.base_url}/api/v1${pathAndQuery}`;
  const timestamp = String(Math.floor(Date.now() / 1000));
  const raw = body !== undefined && Object.keys(body).length ? JSON.stringify(body) : "";
  const message = `method=${method}&path=${new URL(url).pathname}&timestamp=${timestamp}&body=${raw}`;
  const sign = Buffer.from(createHmac("sha256", target.api_secret).update(message).digest("hex")).toString("base64");
  const headers: Record<string, string> = {
    "ACCESS-API-KEY": target.api_key,
    "ACCESS-TIMESTAMP": timestamp,
    "ACCESS-SIGN": sign,
    ...extraHeaders,
  };
  const init: RequestInit =
    method === "GET"
      ? { method, headers }
      : { method, headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body ?? {}) };
  const response = await fetch(url, init);
  const data = (await response.json()) as { success: boolean; message?: string; data: unknown };
  if (!response.ok || !data.success) throw new Error(`${method} ${pathAndQuery}: ${response.status} ${data.message}`);
  return data.data;
}

/** The SDK's StatusPoller: 10 attempts (1 s growing by 1.5x there; 200 ms apart here). */
export async function sdkPoll<T>(
  read: () => Promise<T>,
  done: (r: T) => boolean,
  failed: (r: T) => boolean = () => false,
): Promise<T> {
  for (let attempt = 1; attempt <= 10; attempt++) {
    const r = await read();
    if (failed(r)) throw new Error(`polling failed: ${JSON.stringify(r)}`);
    if (done(r)) return r;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error("Maximum polling attempts (10) exceeded");
}
