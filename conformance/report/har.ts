// `certify --har FILE`: every HTTP exchange of the run as HAR 1.2, built from the probe's evidence,
// which is redacted when captured (credential headers, api_key, known secrets) and redacted again
// when written, so secrets learned during the run (a created key's secret) are masked too. Bodies
// are the evidence's: the first 4 KiB. WebSocket traffic is not included.
import type { RecordedExchange } from "../transport/probe.ts";
import type { Redactor } from "../transport/redact.ts";

const STATUS_TEXT: Record<number, string> = {
  200: "OK",
  201: "Created",
  202: "Accepted",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  413: "Payload Too Large",
  500: "Internal Server Error",
};

export class HarRecorder {
  private readonly entries: RecordedExchange[] = [];

  readonly record = (exchange: RecordedExchange): void => {
    this.entries.push(exchange);
  };

  get size(): number {
    return this.entries.length;
  }

  render(redactor: Redactor, version: string): string {
    const har = {
      log: {
        version: "1.2",
        creator: { name: "custody certify", version },
        entries: this.entries.map((e) => entry(e)),
      },
    };
    return redactor.text(JSON.stringify(har, null, 2));
  }
}

function pairs(headers: Record<string, string> | undefined): Array<{ name: string; value: string }> {
  return Object.entries(headers ?? {}).map(([name, value]) => ({ name, value }));
}

function entry(e: RecordedExchange) {
  const req = e.evidence.request;
  const res = e.evidence.response;
  const url = req?.url ?? "";
  let queryString: Array<{ name: string; value: string }> = [];
  try {
    queryString = [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    queryString = [];
  }
  const status = res?.status ?? 0;
  return {
    startedDateTime: e.startedAt.toISOString(),
    time: e.durationMs,
    request: {
      method: req?.method ?? "GET",
      url,
      httpVersion: "HTTP/1.1",
      headers: pairs(req?.headers),
      queryString,
      cookies: [],
      headersSize: -1,
      bodySize: req?.body ? Buffer.byteLength(req.body) : 0,
      ...(req?.body !== undefined
        ? { postData: { mimeType: req.headers["content-type"] ?? "application/json", text: req.body } }
        : {}),
    },
    response: {
      status,
      statusText: STATUS_TEXT[status] ?? "",
      httpVersion: "HTTP/1.1",
      headers: pairs(res?.headers),
      cookies: [],
      content: {
        size: res?.body ? Buffer.byteLength(res.body) : 0,
        mimeType: res?.headers?.["content-type"] ?? "",
        text: res?.body ?? "",
      },
      redirectURL: "",
      headersSize: -1,
      bodySize: -1,
      ...(e.error ? { _error: e.error } : {}),
    },
    cache: {},
    timings: { send: 0, wait: e.durationMs, receive: 0 },
  };
}
