// Resource ids: UUID v4, as the real service issues them — its public SDK refuses any other id before
// sending (fystack/platform-sdk src/utils.ts, validateUUID).
import { randomUUID } from "node:crypto";

export function newId(): string {
  return randomUUID();
}

/** A UUID v4 derived from 16 bytes (the version and variant bits are set), for ids fixed by a seed. */
export function uuidFromBytes(bytes: Uint8Array): string {
  const b = Buffer.from(bytes.subarray(0, 16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
