// The `format` values JSON Schema 2020-12 defines that generated schemas assert, each checked as its
// RFC defines it: date, time, date-time (RFC 3339 section 5.6, with its notes: lower-case t and z, a
// space separator, leap seconds only at 23:59:60 UTC), uri (RFC 3986 section 3: ASCII only), uuid
// (RFC 4122 / 9562 string form, any variant), email (RFC 5321 dot-atom), hostname (RFC 1123), ipv4,
// ipv6 (RFC 4291 section 2.2). No Node-only APIs.

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:(z)|([+-])(\d{2}):(\d{2}))$/i;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/** full-date: YYYY-MM-DD naming a day that exists. */
export function isDate(value: string): boolean {
  const m = DATE.exec(value);
  if (m === null) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= (month === 2 && isLeapYear(year) ? 29 : DAYS[month - 1]);
}

/** full-time: hh:mm:ss[.frac] with a required offset; second 60 only where it is 23:59 UTC. */
export function isTime(value: string): boolean {
  const m = TIME.exec(value);
  if (m === null) return false;
  const hour = Number(m[1]);
  const minute = Number(m[2]);
  const second = Number(m[3]);
  const sign = m[6] === "-" ? -1 : 1;
  const offsetHour = m[5] ? 0 : Number(m[7]);
  const offsetMinute = m[5] ? 0 : Number(m[8]);
  if (hour > 23 || minute > 59 || second > 60 || offsetHour > 23 || offsetMinute > 59) return false;
  if (second < 60) return true;
  // A leap second: the local time minus the offset must be 23:59 UTC.
  const utc = (((hour * 60 + minute - sign * (offsetHour * 60 + offsetMinute)) % 1440) + 1440) % 1440;
  return utc === 23 * 60 + 59;
}

/** date-time: full-date, T (or t, or a space), full-time. */
export function isDateTime(value: string): boolean {
  if (value.length < 11) return false;
  const separator = value[10];
  if (separator !== "T" && separator !== "t" && separator !== " ") return false;
  return isDate(value.slice(0, 10)) && isTime(value.slice(11));
}

const UUID = /^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;

/** uuid: 8-4-4-4-12 hex digits (any version and variant), optionally as a urn:uuid: URN. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

const OCTET = "(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
const IPV4 = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`);

export function isIpv4(value: string): boolean {
  return IPV4.test(value);
}

const HEX16 = /^[0-9a-f]{1,4}$/i;

/** RFC 4291 text form: eight groups, one `::` for a run of zero groups, an IPv4 tail allowed. */
export function isIpv6(value: string): boolean {
  const halves = value.split("::");
  if (halves.length > 2) return false;
  const groups = (text: string) => (text === "" ? [] : text.split(":"));
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  const all = [...head, ...tail];
  let count = all.length;
  const last = all[all.length - 1];
  if (last?.includes(".")) {
    if (!isIpv4(last)) return false;
    all.pop();
    count += 1; // an IPv4 tail fills two groups
  }
  if (!all.every((g) => HEX16.test(g))) return false;
  return halves.length === 2 ? count <= 7 : count === 8;
}

// RFC 3986 section 3 pieces, ASCII only (an IRI is not a URI).
const UNRESERVED = "A-Za-z0-9\\-._~";
const SUB_DELIMS = "!$&'()*+,;=";
const PCT = "%[0-9A-Fa-f]{2}";
const PCHAR = `(?:[${UNRESERVED}${SUB_DELIMS}:@]|${PCT})`;
const SEGMENT = `${PCHAR}*`;
const SEGMENT_NZ = `${PCHAR}+`;
const USERINFO = `(?:[${UNRESERVED}${SUB_DELIMS}:]|${PCT})*`;
const REG_NAME = `(?:[${UNRESERVED}${SUB_DELIMS}]|${PCT})*`;
const QUERY = `(?:${PCHAR}|[/?])*`;
const URI = new RegExp(
  `^[A-Za-z][A-Za-z0-9+\\-.]*:` +
    `(?://(?:${USERINFO}@)?(?:\\[([^\\]]*)\\]|${REG_NAME})(?::\\d*)?(?:/${SEGMENT})*` +
    `|/(?:${SEGMENT_NZ}(?:/${SEGMENT})*)?` +
    `|${SEGMENT_NZ}(?:/${SEGMENT})*` +
    `|)` +
    `(?:\\?${QUERY})?(?:#${QUERY})?$`,
);
const IPV_FUTURE = new RegExp(`^v[0-9A-Fa-f]+\\.[${UNRESERVED}${SUB_DELIMS}:]+$`);

/** uri: an absolute URI (scheme required) per RFC 3986; an IP-literal host must be IPv6 or IPvFuture. */
export function isUri(value: string): boolean {
  const m = URI.exec(value);
  if (m === null) return false;
  const literal = m[1];
  return literal === undefined || isIpv6(literal) || IPV_FUTURE.test(literal);
}

const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const LABEL = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?";
const EMAIL = new RegExp(`^${ATOM}(?:\\.${ATOM})*@(?:${LABEL}\\.)+${LABEL}$`);

/** email: a dot-atom local part at a domain of at least two labels. */
export function isEmail(value: string): boolean {
  return EMAIL.test(value);
}

const HOSTNAME = new RegExp(`^(?=.{1,253}\\.?$)${LABEL}(?:\\.${LABEL})*\\.?$`);

/** hostname: dot-separated labels of 1 to 63 letters, digits and inner hyphens, 253 characters at most. */
export function isHostname(value: string): boolean {
  return HOSTNAME.test(value);
}
