// Keeps secrets out of everything the suite shows: console, JSON, JUnit, HTML.
// Known secret values are replaced wherever they appear; credential headers, the api_key query
// parameter and JSON members named like secrets are masked whatever their value.
import type { Target } from "../../lib/target.ts";

export const REDACTED = "***redacted***";

// Secret-looking JSON member names (createApiKey answers with the secret once, for instance).
const SECRET_FIELD =
  /^(api[-_]?secret|secret|private[-_]?key|password|token|access[-_]?sign|signature[-_]?key|faucet[-_]?private[-_]?key)$/i;
const CREDENTIAL_FIELD = /^(proxy-)?authorization$/i;
const SECRET_HEADERS = new Set([
  "access-sign",
  "authorization",
  "proxy-authorization",
  "cookie",
  "set-cookie",
  "x-api-key",
]);
const KEY_ID_HEADERS = new Set(["access-api-key"]);
// Shorter strings are too likely to occur by chance in bodies; they are masked only by position.
const MIN_GLOBAL_SECRET_LENGTH = 6;

export class Redactor {
  private readonly secrets = new Set<string>();
  private readonly keyIds = new Set<string>();

  /** A secret value: replaced everywhere it appears. */
  addSecret(value: string | undefined): void {
    if (value && value.length >= MIN_GLOBAL_SECRET_LENGTH) this.secrets.add(value);
  }

  /** An API key id: may be shown partially (enough to tell keys apart), never whole. */
  addKeyId(value: string | undefined): void {
    if (value && value.length >= MIN_GLOBAL_SECRET_LENGTH) this.keyIds.add(value);
  }

  /** Replaces every known secret in a string (longest first, so a secret containing another goes whole). */
  text(input: string): string {
    let out = input;
    for (const secret of [...this.secrets].sort((a, b) => b.length - a.length)) out = out.split(secret).join(REDACTED);
    for (const keyId of [...this.keyIds].sort((a, b) => b.length - a.length))
      out = out.split(keyId).join(partialKeyId(keyId));
    return out;
  }

  url(input: string): string {
    return this.text(maskQueryKey(maskUserInfo(input)));
  }

  headers(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      const lower = name.toLowerCase();
      if (SECRET_HEADERS.has(lower)) out[name] = maskCredentialHeader(value);
      else if (KEY_ID_HEADERS.has(lower)) out[name] = partialKeyId(value);
      else out[name] = this.text(value);
    }
    return out;
  }

  /** A body: JSON members named like secrets are masked, then known secrets replaced. */
  body(input: string): string {
    return this.text(maskJsonSecretFields(input));
  }

  /**
   * The start of a large body, redacted, without parsing the rest: evidence keeps only a prefix, and a
   * list of tens of MiB should not be parsed a second time for it. The prefix is taken long enough that
   * a known secret crossing the first `chars` characters is replaced whole; secret members are masked
   * textually, one cut short at the end included.
   */
  bodyPrefix(input: string, chars: number): string {
    const longest = Math.max(0, ...[...this.secrets, ...this.keyIds].map((s) => s.length));
    const prefix = input.slice(0, chars + longest + 1);
    return this.text(maskSecretPairsText(prefix).replace(UNTERMINATED_SECRET_PAIR, `$1${REDACTED}`));
  }

  /** Deep redaction of any JSON-like value (report details). */
  value<T>(input: T): T {
    return this.walk(input, undefined) as T;
  }

  private walk(value: unknown, key: string | undefined): unknown {
    if (typeof value === "string") {
      if (key !== undefined && SECRET_FIELD.test(key)) return REDACTED;
      if (key !== undefined && CREDENTIAL_FIELD.test(key)) return maskCredentialHeader(value);
      return this.text(maskQueryKey(value));
    }
    if (Array.isArray(value)) return value.map((item) => this.walk(item, undefined));
    if (value !== null && typeof value === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = this.walk(v, k);
      return out;
    }
    return value;
  }
}

/** Shows the start of a key id so a reader can tell which key was used, never the whole id. */
export function partialKeyId(keyId: string): string {
  if (keyId.length < 10) return REDACTED;
  return `${keyId.slice(0, 4)}…${REDACTED}`;
}

function maskCredentialHeader(value: string): string {
  // `APIKEY <key>` keeps its scheme so the evidence still shows which form was used.
  const scheme = /^([A-Za-z]+) /.exec(value);
  return scheme ? `${scheme[1]} ${REDACTED}` : REDACTED;
}

/** api_key=<anything> in a URL or text becomes api_key=***redacted***. */
export function maskQueryKey(input: string): string {
  return input.replace(/([?&](?:api_key|apikey|api_secret|secret|token)=)[^&#\s"']*/gi, `$1${REDACTED}`);
}

function maskJsonSecretFields(input: string): string {
  const trimmed = input.trimStart();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return input;
  try {
    const parsed = JSON.parse(input) as unknown;
    if (!containsSecretField(parsed)) return input;
    return JSON.stringify(maskFields(parsed));
  } catch {
    return maskSecretPairsText(input);
  }
}

const SECRET_PAIR_NAMES = '"(?:api[-_]?secret|secret|private[-_]?key|password|token|access[-_]?sign|authorization)"';
/** A secret member whose string value the text cuts short. */
const UNTERMINATED_SECRET_PAIR = new RegExp(`(${SECRET_PAIR_NAMES}\\s*:\\s*")(?:[^"\\\\]|\\\\.)*$`, "i");

/** Not JSON (or truncated): `"secret":"…"` pairs masked textually. */
function maskSecretPairsText(input: string): string {
  return input.replace(new RegExp(`(${SECRET_PAIR_NAMES}\\s*:\\s*")(?:[^"\\\\]|\\\\.)*"`, "gi"), `$1${REDACTED}"`);
}

function containsSecretField(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(containsSecretField);
  if (value !== null && typeof value === "object") {
    return Object.entries(value as Record<string, unknown>).some(
      ([k, v]) =>
        ((SECRET_FIELD.test(k) || CREDENTIAL_FIELD.test(k)) && typeof v === "string") || containsSecretField(v),
    );
  }
  return false;
}

function maskFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskFields);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      out[k] =
        typeof v === "string" && SECRET_FIELD.test(k)
          ? REDACTED
          : typeof v === "string" && CREDENTIAL_FIELD.test(k)
            ? maskCredentialHeader(v)
            : maskFields(v);
    }
    return out;
  }
  return value;
}

/** http://user:pass@host → http://***redacted***@host */
export function maskUserInfo(input: string): string {
  return input.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@\s]+@/i, `$1${REDACTED}@`);
}

/** The redactor for a target: its secrets are masked everywhere evidence goes. */
export function redactorFor(target: Target): Redactor {
  const r = new Redactor();
  for (const creds of [target.admin, target.viewer, target.scoped, target.other?.credentials]) {
    if (!creds) continue;
    r.addSecret(creds.apiSecret);
    r.addKeyId(creds.apiKey);
  }
  r.addSecret(target.rpcApiKey);
  r.addSecret(target.faucetPrivateKey);
  r.addSecret(target.faucetPrivateKey?.replace(/^0x/, ""));
  return r;
}
