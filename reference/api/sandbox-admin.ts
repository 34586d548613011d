// Sandbox-only endpoints under /_sandbox/ that make chain events happen, for the console page and
// `custody trigger` (as `stripe trigger` does for Stripe's test mode). They are not part of the wallet
// API contract and exist only in this reference deployment. Every call is signed like a wallet API
// call (same HMAC headers) with a key of role admin or owner.
//   POST /_sandbox/faucet             {"address": "0x…", "amount": "1.5"}  sends native coin from the faucet
//                                     (a base58 address, or "chain": "sol", sends SOL from the Solana faucet)
//   POST /_sandbox/mine               {"blocks": 3}                       mines blocks now (embedded chain;
//                                     "chain": "sol" produces Solana slots)
//   POST /_sandbox/reverting-address  {}                                  an address whose transfers fail
import type { IncomingMessage, ServerResponse } from "node:http";
import { getContractAddress, type Hex } from "viem";
import { type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { addressBytes, isSolanaAddress } from "../../lib/solana/keys.ts";
import { serializeSuccess } from "../../runtime/envelope.ts";
import { unixSeconds } from "../../runtime/http/hmac.ts";
import { authenticate } from "../../runtime/server/auth.ts";
import { hasRole } from "../../runtime/server/authorize.ts";
import { EMPTY_BODY, hasBody, readBody } from "../../runtime/server/body.ts";
import { resolveRequestId, sendError, sendJson, sendUnauthorized } from "../../runtime/server/respond.ts";
import type { ReferenceApp } from "../app.ts";
import { TRANSFER_GAS } from "../chain/chain-client.ts";
import { SolanaTransactionRejected } from "../chain/solana/runtime.ts";
import { parseAmount } from "../domain/amounts.ts";

export const SANDBOX_ADMIN_PREFIX = "/_sandbox/";
/** The routes, for CORS preflights. */
export const SANDBOX_ADMIN_ROUTES = ["faucet", "mine", "reverting-address"].map((name) => ({
  method: "POST",
  path: `${SANDBOX_ADMIN_PREFIX}${name}`,
}));

const MAX_BODY_BYTES = 4096;
const MAX_BLOCKS = 100;
// Init code that deploys the one-byte runtime code 0xfd (REVERT with an empty stack: every call to it
// fails): PUSH1 0xfd PUSH1 0 MSTORE8 PUSH1 1 PUSH1 0 RETURN.
const REVERTING_INIT_CODE = "0x60fd60005360016000f3";
const DEPLOY_GAS = 100_000n;

class BadInput extends Error {}

export interface SandboxAdminOptions {
  faucetPrivateKey: string;
  /** True when the chain is the embedded one (evm_mine is available). */
  embedded: boolean;
}

type FaucetSend = (
  to: Hex | undefined,
  value: bigint,
  data?: Hex,
  gas?: bigint,
) => Promise<{ hash: Hex; nonce: number }>;
type Action = (body: Record<string, unknown>) => Promise<unknown>;

/** Returns a listener part: true when it answered the request (its path is under /_sandbox/). */
export function createSandboxAdmin(
  app: ReferenceApp,
  options: SandboxAdminOptions,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const faucet = privateKeyToAccount(options.faucetPrivateKey as Hex);
  const actions = sandboxActions(app, options, faucet.address, faucetSender(app, faucet));
  return (req, res) => {
    const path = (req.url ?? "").split("?")[0];
    if (!path.startsWith(SANDBOX_ADMIN_PREFIX)) return false;
    const requestId = resolveRequestId(req);
    const name = path.slice(SANDBOX_ADMIN_PREFIX.length);
    if (req.method !== "POST" || !Object.hasOwn(actions, name)) {
      sendError(
        res,
        404,
        "no such sandbox action (POST /_sandbox/faucet, /_sandbox/mine, /_sandbox/reverting-address)",
        requestId,
      );
      return true;
    }
    handle(app, actions[name], req, res, path, requestId).catch(() => {
      if (!res.headersSent) sendError(res, 500, "internal error", requestId);
    });
    return true;
  };
}

/** Sends an EVM transaction from the faucet account. */
function faucetSender(app: ReferenceApp, faucet: PrivateKeyAccount): FaucetSend {
  // Faucet transactions are signed one at a time so that two calls never take the same nonce.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };
  return async (to, value, data, gas = TRANSFER_GAS) =>
    serial(async () => {
      const nonce = await app.chain.pendingNonce(faucet.address);
      const fees = await app.chain.fees();
      const raw = await faucet.signTransaction({
        type: "eip1559",
        chainId: app.chain.chainId,
        nonce,
        ...(to !== undefined ? { to } : {}),
        value,
        ...(data !== undefined ? { data } : {}),
        gas,
        maxFeePerGas: fees.maxFeePerGas,
        maxPriorityFeePerGas:
          fees.maxPriorityFeePerGas < fees.maxFeePerGas ? fees.maxPriorityFeePerGas : fees.maxFeePerGas,
      });
      return { hash: await app.chain.sendRaw(raw), nonce };
    });
}

/** "sol" when the body names Solana (or gives a base58 address); else the EVM chain. */
function chainOf(app: ReferenceApp, body: Record<string, unknown>): "evm" | "sol" {
  if (body.chain !== undefined && body.chain !== "evm" && body.chain !== "sol")
    throw new BadInput('chain: "evm" or "sol"');
  const sol =
    body.chain === "sol" ||
    (body.chain === undefined && typeof body.address === "string" && isSolanaAddress(body.address));
  if (sol && !app.ctx.solana) throw new BadInput("chain: this sandbox runs without its Solana runtime");
  return sol ? "sol" : "evm";
}

function solanaFaucet(app: ReferenceApp, body: Record<string, unknown>) {
  const node = app.ctx.solana!;
  const to = typeof body.address === "string" ? addressBytes(body.address) : undefined;
  if (!to) throw new BadInput("address: a base58 Solana address (32 bytes) is required");
  const lamports = typeof body.amount === "string" ? parseAmount(body.amount, 9) : undefined;
  if (lamports === undefined || lamports <= 0n)
    throw new BadInput('amount: a positive decimal string with at most 9 decimals is required, e.g. "1.5"');
  try {
    return { tx_hash: node.airdrop(to, lamports), from: node.faucet.address, to: body.address, amount: body.amount };
  } catch (error) {
    // Refused by the runtime (below the rent-exempt minimum, say): the caller's to read, like a chain error.
    if (error instanceof SolanaTransactionRejected) throw new Error(error.message);
    throw error;
  }
}

/** The actions by route name. */
function sandboxActions(
  app: ReferenceApp,
  options: SandboxAdminOptions,
  faucetAddress: Hex,
  sendFromFaucet: FaucetSend,
): Record<string, Action> {
  let reverting: Promise<Hex> | undefined;
  return {
    async faucet(body) {
      if (chainOf(app, body) === "sol") return solanaFaucet(app, body);
      const address = body.address;
      if (typeof address !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(address))
        throw new BadInput("address: a 0x-prefixed 20-byte hex address is required");
      const amount = body.amount;
      const decimals = app.catalog.nativeAsset().decimals;
      const wei = typeof amount === "string" ? parseAmount(amount, decimals) : undefined;
      if (wei === undefined || wei <= 0n)
        throw new BadInput(
          `amount: a positive decimal string with at most ${decimals} decimals is required, e.g. "1.5"`,
        );
      const { hash } = await sendFromFaucet(address as Hex, wei);
      return { tx_hash: hash, from: faucetAddress, to: address, amount };
    },
    async mine(body) {
      const blocks = body.blocks ?? 1;
      if (typeof blocks !== "number" || !Number.isInteger(blocks) || blocks < 1 || blocks > MAX_BLOCKS)
        throw new BadInput(`blocks: an integer from 1 to ${MAX_BLOCKS}`);
      if (chainOf(app, body) === "sol") return { block_number: app.ctx.solana!.produceSlots(blocks) };
      if (!options.embedded)
        throw new BadInput("mining on demand needs the embedded chain; this sandbox forwards to an --upstream node");
      for (let i = 0; i < blocks; i++) await app.chain.backend.request({ method: "evm_mine", params: [] });
      return { block_number: Number(await app.chain.head()) };
    },
    async "reverting-address"() {
      reverting ??= (async () => {
        const { hash, nonce } = await sendFromFaucet(undefined, 0n, REVERTING_INIT_CODE, DEPLOY_GAS);
        void hash;
        return getContractAddress({ from: faucetAddress, nonce: BigInt(nonce) });
      })();
      reverting.catch(() => (reverting = undefined));
      return { address: await reverting };
    },
  };
}

/** Reads, authenticates (admin or owner) and runs one action; answers with its result or a declared error. */
async function handle(
  app: ReferenceApp,
  action: Action,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  requestId: string,
): Promise<void> {
  const read = hasBody(req) ? await readBody(req, MAX_BODY_BYTES) : EMPTY_BODY;
  if (!read.ok) {
    if (read.reason !== "aborted")
      sendError(res, 413, `body: larger than ${MAX_BODY_BYTES} bytes`, requestId, { close: true });
    return;
  }
  const auth = await authenticate({
    req,
    path,
    body: read.bytes,
    resolveKey: (id) => app.apiKeys.resolve(id),
    nowSeconds: unixSeconds(),
  });
  if (auth === undefined) return sendUnauthorized(res, requestId);
  if (!hasRole(auth.role, "admin")) return sendError(res, 403, "sandbox actions need an admin or owner key", requestId);
  const body = objectBody(read.bytes);
  if (body === undefined) return sendError(res, 400, "body: a JSON object is required", requestId);
  try {
    sendJson(res, 200, serializeSuccess(await action(body)), requestId);
  } catch (error) {
    if (error instanceof BadInput) return sendError(res, 400, error.message, requestId);
    const message =
      (error as { shortMessage?: string }).shortMessage ?? (error instanceof Error ? error.message : String(error));
    // Chain errors (e.g. the faucet has too little) are the caller's to read; they carry no secrets.
    sendError(res, 409, `the chain refused: ${message.split("\n")[0]}`, requestId, { code: "conflict" });
  }
}

/** The body as a JSON object ({} when empty), or undefined when it is not one. */
function objectBody(bytes: Uint8Array): Record<string, unknown> | undefined {
  if (bytes.length === 0) return {};
  try {
    const parsed: unknown = JSON.parse(Buffer.from(bytes).toString("utf8"));
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return undefined;
    return parsed as Record<string, unknown>;
  } catch {
    return undefined;
  }
}
