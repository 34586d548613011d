// Which receiver URLs a webhook may have: http or https only, no credentials in the URL, at most 2048
// characters. The sandbox accepts loopback and private addresses by default because it is for local
// development (a receiver on 127.0.0.1 is the normal case); `allowPrivateTargets: false` refuses IP
// literals and host names that point at loopback, link-local or private ranges, as a hosted deployment
// must (it only judges the URL; a hostile DNS name needs a check at connect time as well).
import { isIP } from "node:net";

export interface UrlPolicy {
  allowPrivateTargets: boolean;
}

/** Undefined when the URL is acceptable, else the reason. */
export function checkWebhookUrl(raw: string, policy: UrlPolicy): string | undefined {
  if (raw.length > 2048) return "url: at most 2048 characters";
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "url: not an absolute URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "url: only http and https receivers are allowed";
  if (url.username || url.password) return "url: must not contain credentials";
  if (!url.hostname) return "url: has no host";
  if (!policy.allowPrivateTargets && isPrivateHost(url.hostname))
    return "url: private, loopback and link-local targets are not allowed";
  return undefined;
}

export function isPrivateHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local") || host.endsWith(".internal"))
    return true;
  const family = isIP(host);
  if (family === 4) {
    const [a, b] = host.split(".").map(Number);
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 100 && b >= 64 && b <= 127)
    );
  }
  if (family === 6) {
    return (
      host === "::" ||
      host === "::1" ||
      host.startsWith("fc") ||
      host.startsWith("fd") ||
      host.startsWith("fe80") ||
      host.startsWith("::ffff:")
    );
  }
  return false;
}
