// Small pure parts of the sandbox: amounts, CSV, key derivation, seeded values, receiver URL policy,
// backoff bounds.
import { privateKeyToAddress } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { seedValues } from "../reference/config.ts";
import { formatAmount, parseAmount, usdValue } from "../reference/domain/amounts.ts";
import { csvField, toCsv } from "../reference/domain/csv.ts";
import { deriveWalletAddress, deriveWalletPrivateKey } from "../reference/domain/key-derivation.ts";
import { maxRetryDelayMs, retryDelayMs } from "../reference/webhooks/backoff.ts";
import { SANDBOX_POLICY } from "../reference/webhooks/policy.ts";
import { checkWebhookUrl } from "../reference/webhooks/url-policy.ts";

describe("amounts", () => {
  it("parses plain decimals exactly and refuses everything else", () => {
    expect(parseAmount("0.5", 18)).toBe(500000000000000000n);
    expect(parseAmount("1", 18)).toBe(10n ** 18n);
    expect(parseAmount("0.000000000000000001", 18)).toBe(1n);
    for (const bad of ["", "1e18", "-1", "+1", ".5", "1.", "01", "0.0000000000000000001", "1,5", " 1"])
      expect(parseAmount(bad, 18)).toBeUndefined();
    expect(formatAmount(1500000000000000000n, 18)).toBe("1.5");
  });

  it("values in USD with two decimals", () => {
    expect(usdValue(1500000000000000000n, 18, "3000.00")).toBe("4500.00");
    expect(usdValue(1n, 18, "3000.00")).toBe("0.00");
    expect(usdValue(333333333333333333n, 18, "3000.00")).toBe("1000.00");
  });
});

describe("csv", () => {
  it("quotes commas, quotes and newlines, and defuses formulas", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField('a,"b"')).toBe('"a,""b"""');
    expect(csvField("line\nbreak")).toBe('"line\nbreak"');
    expect(csvField("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvField("-1.5")).toBe("-1.5");
    expect(
      toCsv(["a", "b"], [
        { a: "x", b: undefined },
        { a: 'q"', b: 2 },
      ] as { a: string; b?: unknown }[]),
    ).toBe('a,b\r\nx,\r\n"q""",2\r\n');
  });
});

describe("wallet key derivation", () => {
  it("is deterministic per seed and wallet, distinct otherwise", () => {
    const seed = Buffer.alloc(32, 7);
    const k = deriveWalletPrivateKey(seed, "wal_1");
    expect(k).toMatch(/^0x[0-9a-f]{64}$/);
    expect(deriveWalletPrivateKey(seed, "wal_1")).toBe(k);
    expect(deriveWalletPrivateKey(seed, "wal_2")).not.toBe(k);
    expect(deriveWalletPrivateKey(Buffer.alloc(32, 8), "wal_1")).not.toBe(k);
    expect(deriveWalletAddress(seed, "wal_1")).toBe(privateKeyToAddress(k));
  });
});

describe("seeded values", () => {
  it("are reproducible from a seed, random without one, and fixed values win", () => {
    expect(seedValues({}, "s")).toEqual(seedValues({}, "s"));
    expect(seedValues({}, "s").apiSecret).not.toBe(seedValues({}, "t").apiSecret);
    expect(seedValues({}, undefined).apiKey).not.toBe(seedValues({}, undefined).apiKey);
    expect(seedValues({ apiKey: "key_fixed", apiSecret: "fixed-secret-123" }, "s")).toMatchObject({
      apiKey: "key_fixed",
      apiSecret: "fixed-secret-123",
    });
    expect(() => seedValues({ faucetPrivateKey: "0x12" }, undefined)).toThrow(/faucet/);
    expect(() => seedValues({ apiKey: "has space" }, undefined)).toThrow(/api key/);
  });
});

describe("receiver URL policy", () => {
  it("allows http(s) incl. loopback in the sandbox, refuses other schemes and credentials", () => {
    expect(checkWebhookUrl("http://127.0.0.1:8080/h", { allowPrivateTargets: true })).toBeUndefined();
    expect(checkWebhookUrl("https://hooks.example.com/x", { allowPrivateTargets: false })).toBeUndefined();
    expect(checkWebhookUrl("file:///etc/passwd", { allowPrivateTargets: true })).toMatch(/only http and https/);
    expect(checkWebhookUrl("http://a:b@example.com/", { allowPrivateTargets: true })).toMatch(/credentials/);
    for (const host of ["127.0.0.1", "10.1.2.3", "192.168.0.1", "169.254.169.254", "[::1]", "localhost"]) {
      expect(checkWebhookUrl(`http://${host}/`, { allowPrivateTargets: false })).toMatch(/private/);
    }
  });
});

describe("backoff", () => {
  it("grows exponentially up to the cap, jitter only shortens", () => {
    const s = SANDBOX_POLICY.retry;
    expect([1, 2, 3, 4, 5].map((n) => maxRetryDelayMs(s, n))).toEqual([1000, 2000, 4000, 8000, 16000]);
    expect(maxRetryDelayMs(s, 20)).toBe(s.maxDelayMs);
    expect(retryDelayMs(s, 3, () => 0)).toBe(4000);
    expect(retryDelayMs(s, 3, () => 0.999999)).toBe(2000);
  });
});
