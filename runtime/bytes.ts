// Byte helpers that run on every runtime (Node, Bun, Deno, browsers, edge): UTF-8, hex and base64
// without Buffer, so the modules that use them bundle for any platform.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function utf8Bytes(text: string): Uint8Array {
  return encoder.encode(text);
}

export function utf8Text(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

export function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

const HEX_DIGITS = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/** Lowercase hex. */
export function toHex(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i++) out += HEX_DIGITS[bytes[i]];
  return out;
}

/** Value of a hex digit's char code, or -1. */
function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  if (code >= 65 && code <= 70) return code - 55;
  return -1;
}

/** Bytes of an even-length hex string; undefined when it is not one. */
export function fromHex(hex: string): Uint8Array | undefined {
  if (hex.length % 2 !== 0) return undefined;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) {
    const high = hexValue(hex.charCodeAt(2 * i));
    const low = hexValue(hex.charCodeAt(2 * i + 1));
    if (high < 0 || low < 0) return undefined;
    out[i] = high * 16 + low;
  }
  return out;
}

/** Standard base64 with padding. */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
  return btoa(binary);
}

/** Bytes of standard base64 (padding optional); undefined when it is not base64. */
export function fromBase64(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return undefined;
  const padded = text.length % 4 === 0 ? text : text + "=".repeat(4 - (text.length % 4));
  let binary: string;
  try {
    binary = atob(padded);
  } catch {
    return undefined;
  }
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/**
 * Compares two strings in time that depends only on the length of `expected` (every code unit is
 * visited whatever differs); a different length compares `expected` with itself and fails.
 */
export function constantTimeEqualText(expected: string, actual: string): boolean {
  const other = actual.length === expected.length ? actual : expected;
  let diff = actual.length === expected.length ? 0 : 1;
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ other.charCodeAt(i);
  return diff === 0;
}
