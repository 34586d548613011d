// The wallet API's base URL as people paste it. Operation paths already start with /api/v1 (the spec's
// paths), so a base URL copied from a browser or a log with /api/v1 at its end would double it and
// every call would 404: that suffix is dropped here, the one place every caller goes through.
const API_PREFIX = "/api/v1";

/** `url` without trailing slashes and without a trailing /api/v1; origin and any other prefix kept. */
export function walletApiBaseUrl(url: string): string {
  let out = url.trim().replace(/\/+$/, "");
  if (out.toLowerCase().endsWith(API_PREFIX)) out = out.slice(0, -API_PREFIX.length).replace(/\/+$/, "");
  return out;
}
