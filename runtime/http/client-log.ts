// The client's logger: a level (option, or the CUSTODY_LOG_LEVEL environment variable), and lines
// that never carry a secret. Headers that authenticate (ACCESS-SIGN, ACCESS-API-KEY, Authorization,
// Cookie) are shown as [redacted]; bodies are shown only when asked for, and then with every member
// whose name says it holds a secret (secret, password, private key, token, signature, mnemonic) redacted.

export type LogLevel = "off" | "error" | "warn" | "info" | "debug";

export interface ClientLogger {
  error(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  debug(message: string, fields?: Record<string, unknown>): void;
}

const RANK: Record<LogLevel, number> = { off: 0, error: 1, warn: 2, info: 3, debug: 4 };
export const LOG_LEVELS = Object.keys(RANK) as LogLevel[];
export const LOG_LEVEL_ENV = "CUSTODY_LOG_LEVEL";

/** The level from the option, else the environment (where the runtime has one), else "warn". */
export function resolveLogLevel(option: LogLevel | undefined): LogLevel {
  if (option !== undefined) {
    if (!(option in RANK)) throw new Error(`logLevel '${String(option)}' is not one of ${LOG_LEVELS.join(", ")}`);
    return option;
  }
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[LOG_LEVEL_ENV]
    ?.trim()
    .toLowerCase();
  if (env === undefined || env === "") return "warn";
  if (!(env in RANK)) throw new Error(`${LOG_LEVEL_ENV}='${env}' is not one of ${LOG_LEVELS.join(", ")}`);
  return env as LogLevel;
}

export function enabled(level: LogLevel, wanted: Exclude<LogLevel, "off">): boolean {
  return RANK[level] >= RANK[wanted];
}

const consoleLogger: ClientLogger = {
  error: (m, f) => console.error(m, f ?? ""),
  warn: (m, f) => console.warn(m, f ?? ""),
  info: (m, f) => console.info(m, f ?? ""),
  debug: (m, f) => console.debug(m, f ?? ""),
};

export function defaultClientLogger(): ClientLogger {
  return consoleLogger;
}

const SECRET_HEADERS = new Set([
  "access-sign",
  "access-api-key",
  "authorization",
  "proxy-authorization",
  "cookie",
  "set-cookie",
  "x-webhook-hmac-signature",
]);
const SECRET_MEMBER = /secret|password|passphrase|private_?key|mnemonic|seed|token|signature|api_?key/i;
export const REDACTED = "[redacted]";

/** Headers as they may be logged. */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    out[name] = SECRET_HEADERS.has(name.toLowerCase()) ? REDACTED : value;
  return out;
}

/** A JSON body as it may be logged: members named like secrets redacted at any depth; non-JSON text by length only. */
export function redactBody(text: string | undefined): unknown {
  if (text === undefined || text === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return `[${text.length} characters, not JSON]`;
  }
  return redactValue(value);
}

function redactValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactValue);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value))
    out[key] = SECRET_MEMBER.test(key) ? REDACTED : redactValue(member);
  return out;
}
