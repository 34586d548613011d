// The reproducing request of a failure as a curl command (credentials stay redacted; the
// timestamp-bound signature would have to be recomputed anyway).
import type { RequestEvidence } from "../checks/types.ts";

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function curlOf(req: RequestEvidence): string {
  if (req.method.startsWith("GET (websocket")) return `websocat ${quote(req.url)}`;
  const parts = ["curl", "-X", req.method, quote(req.url)];
  for (const [name, value] of Object.entries(req.headers)) parts.push("-H", quote(`${name}: ${value}`));
  if (req.body !== undefined) parts.push("--data-raw", quote(req.body));
  return parts.join(" ");
}
