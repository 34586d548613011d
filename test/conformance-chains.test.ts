// The chains checks can fail: faults injected by a rewriting proxy in front of the reference
// deployment's wallet API (and in front of the runner's webhook receiver) are each caught by the check
// for their rule. Faults that touch different checks' evidence share a run. The clean deployment passes
// every chains check in test/conformance-reference.test.ts (custody certify --sandbox).

import { sha256 } from "@noble/hashes/sha2.js";
import { base58, createBase58check } from "@scure/base";
import { describe, expect, it } from "vitest";
import type { Target } from "../conformance/run/config.ts";
import { loadGeneratedOperations } from "../conformance/run/operations.ts";
import { runSuite } from "../conformance/run/runner.ts";
import { keypairFromSeed, signBytes } from "../lib/solana/keys.ts";
import { SANDBOX_SOL_ASSET_ID } from "../reference/domain/catalog.ts";
import { startSandbox } from "../reference/sandbox.ts";
import {
  type ProxiedRequest,
  type ProxiedResponse,
  type ProxyHooks,
  rewriteData,
  startFaultProxy,
} from "./support/fake-proxy.ts";
import { freePort } from "./support/free-port.ts";

const stranger = keypairFromSeed(new Uint8Array(32).fill(77));
/** A well-formed signature by another key: right shape, wrong signer. */
const foreignSignature = () => base58.encode(signBytes(crypto.getRandomValues(new Uint8Array(16)), stranger.seed));
const isStatusRead = (r: ProxiedRequest) =>
  r.method === "GET" && /^\/api\/v1\/web3\/transaction\/[^/]+\/[^/]+$/.test(r.path);

function statusOf(method: string): ProxyHooks["response"] {
  return rewriteData(isStatusRead, (d) => {
    if (d.method === method && typeof d.hash === "string") d.hash = foreignSignature();
  });
}

function all(...rewrites: ProxyHooks["response"][]): ProxyHooks["response"] {
  return (req: ProxiedRequest, res: ProxiedResponse) => rewrites.reduce((r, f) => (f ? f(req, r) : r), res);
}

interface ChainsRun {
  name: string;
  /** check id → why it must fail */
  failing: Record<string, string>;
  api: ProxyHooks;
  deliveries?: ProxyHooks;
}

const RUNS: ChainsRun[] = [
  {
    name: "wrong addresses, foreign signatures, an unsent transaction, a wrong slot, a lost deposit.pending",
    failing: {
      "chains.solana-address": "the /web3 wallet detail names another key than getDepositAddress",
      "chains.tron-address": "the tron address has a broken checksum",
      "chains.solana-sign-message": "the message signature is another key's",
      "chains.solana-sign-transaction": "the transaction signature is another key's",
      "chains.solana-send-transaction": "the answered signature never landed",
      "chains.solana-withdrawal": "the withdrawal reports another slot than the chain",
      "chains.solana-deposit-detected": "deposit.pending never reaches the receiver",
    },
    api: {
      response: all(
        rewriteData(
          (r) =>
            r.method === "GET" &&
            r.path.startsWith("/api/v1/web3/wallet-detail/") &&
            r.path.includes("address_type=sol"),
          (d) => (d.address = stranger.address),
        ),
        rewriteData(
          (r) => r.method === "GET" && /\/deposit-address\?address_type=tron$/.test(r.path),
          (d) => (d.address = `${String(d.address).slice(0, -1)}${String(d.address).endsWith("A") ? "B" : "A"}`),
        ),
        statusOf("solana_signMessage"),
        statusOf("solana_signTransaction"),
        statusOf("solana_signAndSendTransaction"),
        rewriteData(
          (r) => r.method === "GET" && /^\/api\/v1\/withdrawals\//.test(r.path),
          (d) =>
            d.status === "completed" &&
            d.asset_id === SANDBOX_SOL_ASSET_ID &&
            (d.block_number = Number(d.block_number) + 1),
        ),
      ),
    },
    deliveries: { request: (r) => (r.body.includes('"deposit.pending"') ? null : r) },
  },
  {
    name: "a balance that shows the deposit at once, a Tron address of another key",
    failing: {
      "chains.solana-deposit-confirmation": "the SOL balance shows the deposit before its confirmations",
      "chains.tron-address-same-key": "the tron address is not the evm key's",
    },
    api: {
      response: all(
        rewriteData(
          (r) => r.method === "GET" && r.path.endsWith(`/balance/${SANDBOX_SOL_ASSET_ID}`),
          (d) => d.balance === "0" && (d.balance = "0.5"),
        ),
        rewriteData(
          (r) => r.method === "GET" && /\/deposit-address\?address_type=tron$/.test(r.path),
          (d) =>
            (d.address = createBase58check(sha256).encode(
              Uint8Array.from([0x41, ...crypto.getRandomValues(new Uint8Array(20))]),
            )),
        ),
      ),
    },
  },
];

describe.concurrent("faults injected in front of the reference deployment's Solana side", () => {
  it.each(RUNS)("$name", async (run) => {
    const sandbox = await startSandbox({ env: {}, solanaSlotMs: 50, walletCreationDelayMs: 50 });
    const closers: Array<() => Promise<void>> = [() => sandbox.close()];
    try {
      const api = await startFaultProxy(sandbox.base_url, run.api);
      closers.push(() => api.close());
      const target: Target = {
        baseUrl: api.url,
        rpcUrl: sandbox.rpc_url,
        wsUrl: sandbox.ws_url,
        admin: { apiKey: sandbox.api_key, apiSecret: sandbox.api_secret },
        rpcApiKey: sandbox.rpc_api_key,
        workspaceId: sandbox.workspace_id,
        solanaRpcUrl: sandbox.solana_rpc_url,
        fixtureIds: {},
      };
      if (run.deliveries) {
        const receiverPort = await freePort();
        const proxy = await startFaultProxy(`http://127.0.0.1:${receiverPort}`, run.deliveries);
        closers.push(() => proxy.close());
        target.webhookReceiverUrl = proxy.url;
        target.webhookListenPort = receiverPort;
      }
      const result = await runSuite({
        target,
        options: { level: "full", timeoutMs: 5_000, concurrency: 8, only: ["chains"] },
        operations: await loadGeneratedOperations(),
      });
      if (result.kind !== "completed") throw new Error(result.failure.lines.join(" "));
      const statusOfCheck = Object.fromEntries(
        result.report.checks.map((c) => [c.id, `${c.status}: ${c.message ?? ""}`]),
      );
      for (const [id, why] of Object.entries(run.failing))
        expect(statusOfCheck[id], `${id} (${why})`).toMatch(/^failed: /);
      if (process.env.SHOW_FAULTS)
        for (const id of Object.keys(run.failing)) console.log(`${id} => ${statusOfCheck[id]}`);
      expect(result.report.summary.certified).toBe(false);
    } finally {
      for (const close of closers.reverse()) await close();
    }
  });
});
