// Resource ids: a short type prefix (so a log line says what an id names) and 96 random bits.
import { randomBytes } from "node:crypto";

export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString("hex")}`;
}
