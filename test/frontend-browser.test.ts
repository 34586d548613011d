// The console and the docs page in a real browser: Debian's Chromium driven by playwright-core (which
// downloads nothing). A test creates a wallet, sends a test deposit, sees it go pending → confirmed and
// the balance change, approves a withdrawal and resends a webhook delivery; screenshots go to
// test-output/. Without /usr/bin/chromium (or $CUSTODY_CHROMIUM) the tests are skipped with the reason.
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CustodialWalletServiceClient } from "../generated/client.ts";
import { operationList } from "../generated/operations.ts";
import { type Sandbox, startSandbox } from "../reference/sandbox.ts";
import { OUTER_BOUND_MS, type Receiver, startReceiver, waitFor } from "./reference-helpers.ts";

const CHROMIUM = process.env.CUSTODY_CHROMIUM ?? "/usr/bin/chromium";
const OUTPUT = path.resolve(import.meta.dirname, "../test-output");
const available = existsSync(CHROMIUM);
if (!available)
  console.warn(
    `frontend-browser: skipped, no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CUSTODY_CHROMIUM)`,
  );

describe.skipIf(!available)("console and docs in Chromium", () => {
  let sandbox: Sandbox;
  let browser: Browser;
  let page: Page;
  let receiver: Receiver;
  const problems: string[] = [];

  beforeAll(async () => {
    mkdirSync(OUTPUT, { recursive: true });
    // Endpoints are disabled after 1.5 s of failures here (10 minutes by default), so the console can show it.
    sandbox = await startSandbox({
      env: {},
      seed: "browser",
      blockTimeSeconds: 0.5,
      solanaSlotMs: 50,
      webhookRetry: { initialDelayMs: 50, maxDelayMs: 100, maxAttempts: 2 },
      webhookDelivery: { breaker: { openAfterFailures: 2, probeDelaysMs: [100] }, disableAfterMs: 1_500 },
    });
    receiver = await startReceiver();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      timeout: OUTER_BOUND_MS,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    // Every wait of a page (navigation, a selector) waits for its event; OUTER_BOUND_MS only bounds a hung
    // one. Playwright's default, 30 s, was once exceeded by the docs page's first load on a machine busy
    // enough to run the suite at half its speed.
    page.setDefaultTimeout(OUTER_BOUND_MS);
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(`console: ${m.text()}`);
    });
  });

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await sandbox?.close();
  });

  it("loads the console, which names the key it acts with", async () => {
    await page.goto(`${sandbox.base_url}/`);
    expect(page.url()).toBe(`${sandbox.base_url}/console/`);
    expect(await page.title()).toBe("custody sandbox console");
    await page.waitForSelector("body[data-refreshed]");
    expect(await page.textContent("#key-note")).toContain(`owner key ${sandbox.api_key}`);
  });

  it("creates a wallet, sends a test deposit and sees pending → confirmed and the balance change", async () => {
    await page.fill("#create-webhook input[name=url]", receiver.url);
    await page.click("#create-webhook button");
    await page.waitForSelector("#status:has-text('done')");
    await page.fill("#create-wallet input[name=name]", "browser wallet");
    await page.click("#create-wallet button");
    const row = page.locator("#wallets tbody tr", { hasText: "browser wallet" });
    await row.locator(".wallet-status.status-success").waitFor();
    await row.locator(".address", { hasText: /^0x[0-9a-fA-F]{40}$/ }).waitFor();
    expect(await row.locator(".balance").textContent()).toMatch(/^0 ETH/);

    await row.locator("input.amount").first().fill("1.25");
    await row.locator("button.send-deposit").click();
    const deposit = page.locator("#deposits tbody tr", { hasText: "1.25 ETH" });
    await deposit.locator(".d-status.status-pending, .d-status.status-confirmed").waitFor();
    await deposit.locator(".d-status.status-confirmed").waitFor();
    await row.locator(".balance", { hasText: "1.25 ETH" }).waitFor();
    await page.screenshot({ path: path.join(OUTPUT, "console.png"), fullPage: true });
  });

  it("requests a withdrawal and approves it", async () => {
    const row = page.locator("#wallets tbody tr", { hasText: "browser wallet" });
    const inputs = row.locator("td").nth(5).locator("input");
    await inputs.nth(0).fill("0.1");
    await inputs.nth(1).fill("0x000000000000000000000000000000000000dEaD");
    await row.locator("td").nth(5).locator("button").click();
    const w = page.locator("#withdrawals tbody tr", { hasText: "0.1 ETH" });
    await w.locator(".w-status.status-pending_approval, .w-status.status-pending").waitFor();
    await w.locator("button.approve").click();
    await w.locator(".w-status.status-completed").waitFor();
  });

  it("shows a wallet's Solana side: picks SOL, sends a SOL test deposit and sees it confirmed", async () => {
    const row = page.locator("#wallets tbody tr", { hasText: "browser wallet" });
    // Balances answered a second late: the row must not show SOL's address beside ETH's balance meanwhile.
    const overview = /\/api\/v1\/wallets\/[^/]+\/overview/;
    await page.route(overview, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await route.continue().catch(() => undefined); // the page may have moved on
    });
    await row.locator("select.chain").selectOption({ label: "SOL" });
    await row.locator(".address", { hasText: /^[1-9A-HJ-NP-Za-km-z]{32,44}$/ }).waitFor();
    expect(await row.locator(".balance").textContent()).toMatch(/^0 SOL/);
    await page.unroute(overview);
    await row.locator("input.amount").first().fill("2");
    await row.locator("button.send-deposit").click();
    const deposit = page.locator("#deposits tbody tr", { hasText: "2 SOL" });
    await deposit.locator(".d-status.status-confirmed").waitFor();
    await row.locator(".balance", { hasText: "2 SOL" }).waitFor();
  });

  it("shows the webhook delivery log with payloads and resends a delivery", async () => {
    const created = page.locator("#deliveries tbody tr", { hasText: "wallet.created" });
    await created.locator(".dl-status.status-delivered").waitFor();
    await created.locator("summary").click();
    expect(await created.locator("pre").textContent()).toContain('"event": "wallet.created"');
    const before = receiver.received.filter((r) => r.event.event === "wallet.created").length;
    await created.locator("button", { hasText: "Resend" }).click();
    await waitFor(
      "the resent wallet.created",
      () => receiver.received.filter((r) => r.event.event === "wallet.created").length > before,
    );
    await page.screenshot({ path: path.join(OUTPUT, "console-full.png"), fullPage: true });
    expect(problems).toEqual([]);
  });

  it("shows an endpoint's state, re-enables a disabled one and requeues what it missed", async () => {
    const down = await startReceiver(503);
    try {
      const client = new CustodialWalletServiceClient({
        baseUrl: sandbox.base_url,
        apiKey: sandbox.api_key,
        apiSecret: sandbox.api_secret,
      });
      await client.createWebhook({
        params: { workspace_id: sandbox.workspace_id },
        body: { url: down.url, event_types: ["wallet.created"] },
      });
      const row = page.locator("#endpoints tbody tr", { hasText: down.url });
      // Events keep coming while the receiver is down, until the endpoint is disabled.
      await waitFor(
        "the endpoint shown disabled",
        async () => {
          if ((await row.locator(".ep-state.status-disabled").count()) > 0) return true;
          await client.createWallet({ body: { name: "console while down" } });
          return false;
        },
        OUTER_BOUND_MS,
        300,
      );
      expect(await row.locator(".ep-health").textContent()).toMatch(/every attempt failed for \d+ s/);
      await page.screenshot({ path: path.join(OUTPUT, "console-endpoint-disabled.png"), fullPage: true });
      down.status = 200;
      await row.locator("button.enable").click();
      await row.locator(".ep-state.status-healthy").waitFor();
      expect(await row.locator("button.enable").isHidden()).toBe(true);
      await row.locator("button.requeue").click();
      await page.waitForSelector("#status:has-text('requeued')");
      expect(await page.textContent("#status")).toMatch(/: [1-9]\d* requeued/);
      await waitFor("the missed events, delivered", () => down.received.some((r) => r.answeredWith === 200));
      expect(problems).toEqual([]);
    } finally {
      await down.close();
    }
  });

  it("loads the docs page, rendered offline from the spec", async () => {
    const docs = await browser.newPage();
    const external: string[] = [];
    docs.on("request", (r) => {
      if (!r.url().startsWith(sandbox.base_url) && !r.url().startsWith("data:")) external.push(r.url());
    });
    await docs.goto(`${sandbox.base_url}/docs`);
    expect(await docs.title()).toBe("Custodial Wallet Service API reference");
    await docs.locator(".swagger-ui .info .title").waitFor();
    expect(await docs.locator(".swagger-ui .info .title").textContent()).toMatch(/Custodial Wallet Service/);
    await docs.locator(".opblock").first().waitFor();
    // Every operation (and the spec's webhooks) gets its block.
    expect(await docs.locator(".opblock").count()).toBeGreaterThanOrEqual(operationList.length);
    expect(
      await docs.locator(".opblock-summary-path", { hasText: "/api/v1/wallets/{wallet_id}/overview" }).count(),
    ).toBe(1);
    await docs.screenshot({ path: path.join(OUTPUT, "docs.png") });
    expect(external).toEqual([]);
    await docs.close();
  });
});
