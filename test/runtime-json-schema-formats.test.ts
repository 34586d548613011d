// The formats generated validators assert, on the cases RFC 3339, RFC 3986 and RFC 4122/9562 decide.
import { describe, expect, it } from "vitest";
import {
  isDate,
  isDateTime,
  isEmail,
  isHostname,
  isIpv4,
  isIpv6,
  isTime,
  isUri,
  isUuid,
} from "../runtime/schema/formats.ts";
import { jsonEqual, lengthWithin, uniqueItems } from "../runtime/schema/json-schema.ts";

describe("RFC 3339", () => {
  it("time needs an offset; z may be lower case; a leap second only at 23:59:60 UTC", () => {
    expect(isTime("07:08:09Z")).toBe(true);
    expect(isTime("07:08:09.25z")).toBe(true);
    expect(isTime("07:08:09+05:30")).toBe(true);
    expect(isTime("07:08:09")).toBe(false);
    expect(isTime("07:08:09+0530")).toBe(false);
    expect(isTime("23:59:60Z")).toBe(true);
    expect(isTime("15:59:60-08:00")).toBe(true);
    expect(isTime("12:59:60Z")).toBe(false);
    expect(isTime("24:00:00Z")).toBe(false);
  });

  it("date-time: T, t or a space; real calendar days", () => {
    expect(isDateTime("2025-01-02T03:04:05Z")).toBe(true);
    expect(isDateTime("2025-01-02t03:04:05z")).toBe(true);
    expect(isDateTime("2025-01-02 03:04:05+01:00")).toBe(true);
    expect(isDateTime("2016-12-31T23:59:60Z")).toBe(true);
    expect(isDateTime("2025-01-02\t03:04:05Z")).toBe(false);
    expect(isDateTime("2025-02-29T00:00:00Z")).toBe(false);
    expect(isDateTime("2025-01-02T03:04:05")).toBe(false);
    expect(isDate("2024-02-29")).toBe(true);
    expect(isDate("1900-02-29")).toBe(false);
  });
});

describe("RFC 3986 and others", () => {
  it("uri: absolute, ASCII only, no whitespace", () => {
    expect(isUri("https://example.com/a?b=c#d")).toBe(true);
    expect(isUri("urn:isbn:0451450523")).toBe(true);
    expect(isUri("https://[2001:db8::1]:8443/x")).toBe(true);
    expect(isUri("https://example.com/\n")).toBe(false);
    expect(isUri("https://Ï")).toBe(false);
    expect(isUri("https://[zz]/")).toBe(false);
    expect(isUri("relative/path")).toBe(false);
    expect(isUri("http://a b/")).toBe(false);
  });

  it("uuid: any version and variant; hex only", () => {
    expect(isUuid("3f1c1e6e-6a4b-4b8e-9c0a-2f1d3c4b5a69")).toBe(true);
    expect(isUuid("3F1C1E6E-6A4B-1B8E-C90A-2F1D3C4B5A69")).toBe(true); // variant C (Microsoft)
    expect(isUuid("00000000-0000-0000-0000-000000000000")).toBe(true);
    expect(isUuid("3f1c1e6e-6a4b-4b8e-9c0a-2f1d3c4b5a6g")).toBe(false);
  });

  it("email, hostname, ipv4, ipv6", () => {
    expect(isEmail("first.last+tag@example.org")).toBe(true);
    expect(isEmail("a..b@c.de")).toBe(false);
    expect(isHostname("a-b.example")).toBe(true);
    expect(isHostname("-a.example")).toBe(false);
    expect(isIpv4("192.168.0.1")).toBe(true);
    expect(isIpv4("01.2.3.4")).toBe(false);
    expect(isIpv6("::ffff:192.0.2.1")).toBe(true);
    expect(isIpv6("1::2::3")).toBe(false);
    expect(isIpv6("1:2:3:4:5:6:7:8")).toBe(true);
    expect(isIpv6("1:2:3:4:5:6:7")).toBe(false);
  });
});

describe("keyword helpers", () => {
  it("JSON equality ignores key order; lengths count code points", () => {
    expect(jsonEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(
      uniqueItems([
        { a: 1, b: 2 },
        { b: 2, a: 1 },
      ]),
    ).toBe(false);
    expect(uniqueItems([1, "1"])).toBe(true);
    expect(lengthWithin("😀😀", 2, 2)).toBe(true);
  });
});
