// The /web3 signing flow of the real service (fystack/platform-sdk src/api.ts, src/signer.ts):
// a request is accepted at once with a transaction_id and worked on right after; callers poll its
// status. Messages and typed data are signed with the wallet's EVM key, so the signature recovers to
// the wallet's address; raw transactions are completed (nonce, gas, fees), signed and broadcast.
// solana_* methods are signed with the wallet's Solana key (solana-web3.ts).
// Final states are reached within a second, well inside the SDK's 10 polls (src/utils/statusPoller.ts).
import { createHash } from "node:crypto";
import { type Hex, isAddress, isHex, type TypedDataDefinition } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type {
  Web3SignRawRequest,
  Web3SignRequest,
  Web3SignStatus,
  Web3TransactionStatus,
} from "../../generated/types.ts";
import { badRequest, conflict, notFound } from "../../runtime/errors.ts";
import { canonicalJson } from "../../runtime/webhooks/signature.ts";
import type { DomainContext } from "./context.ts";
import { newId } from "./ids.ts";
import { signRequestKeys } from "./indexes.ts";
import type { NonceAllocator } from "./nonce-allocator.ts";
import { type Actor, C, type SignRequestRecord } from "./records.ts";
import { isSolanaMethod, SolanaWeb3, solanaRawMethod } from "./solana-web3.ts";
import type { WalletService } from "./wallets.ts";

type Kind = SignRequestRecord["kind"];

export class Web3SigningService {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly solana: SolanaWeb3;

  constructor(
    private readonly ctx: DomainContext,
    private readonly wallets: WalletService,
    private readonly nonces: NonceAllocator,
  ) {
    this.solana = new SolanaWeb3(ctx, wallets);
  }

  requestSign(
    actor: Actor,
    walletId: string,
    body: Web3SignRequest,
    idempotencyKey?: string,
  ): { transaction_id: string } {
    if (body.method === "eth_signTypedData_v4" && !body.typed_data)
      throw badRequest("typed_data: required for eth_signTypedData_v4");
    return this.accept(actor, walletId, "sign", body.method, body, idempotencyKey);
  }

  signRaw(
    actor: Actor,
    walletId: string,
    body: Web3SignRawRequest,
    idempotencyKey?: string,
  ): { transaction_id: string } {
    const solana = solanaRawMethod(body);
    if (solana) {
      this.solana.checkRaw(this.wallets.readyWallet(actor, walletId, badRequest), body, solana);
      return this.accept(actor, walletId, "transaction", solana, body, idempotencyKey);
    }
    if (body.to != null && !isAddress(body.to)) throw badRequest("to: not an EVM address");
    return this.accept(actor, walletId, "transaction", "eth_signTransaction", body, idempotencyKey);
  }

  signStatus(actor: Actor, walletId: string, id: string): Web3SignStatus {
    const r = this.find(actor, walletId, id, "sign");
    return compact({
      status: r.status,
      signature: r.signature,
      transaction_id: r.id,
      created_at: r.created_at,
      updated_at: r.updated_at,
      approvals: [],
      failed_reason: r.failed_reason,
    });
  }

  /** Also answers a solana_signMessage request, with its signature in hash: the SolanaSigner polls here for it. */
  transactionStatus(actor: Actor, walletId: string, id: string): Web3TransactionStatus {
    const r = this.find(actor, walletId, id, "transaction");
    return compact({
      transaction_id: r.id,
      status: r.status,
      method: r.method,
      hash: r.hash ?? r.signature,
      created_at: r.created_at,
      updated_at: r.updated_at,
      approvals: [],
      failed_reason: r.failed_reason,
    });
  }

  /** Works on every request a previous run left pending (after a restart with --data). */
  resumePending(): void {
    for (const r of this.ctx.store.scan<SignRequestRecord>(C.signRequests, signRequestKeys.pending))
      this.schedule(r.id);
  }

  close(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  /** Stores a pending request, or answers the one made before with the same idempotency key and body. */
  private accept(
    actor: Actor,
    walletId: string,
    kind: Kind,
    method: string,
    body: object,
    idempotencyKey?: string,
  ): { transaction_id: string } {
    const wallet = this.wallets.readyWallet(actor, walletId, badRequest);
    const requestHash = createHash("sha256")
      .update(canonicalJson({ kind, wallet_id: wallet.id, body }))
      .digest("hex");
    if (idempotencyKey !== undefined) {
      const previous = this.ctx.store.page<SignRequestRecord>(
        C.signRequests,
        signRequestKeys.byIdempotencyKey(actor.workspaceId, idempotencyKey),
        0,
        1,
      )[0];
      if (previous) {
        if (previous.request_hash !== requestHash)
          throw conflict("idempotencyKey was already used with a different request");
        return { transaction_id: previous.id };
      }
    }
    const now = this.ctx.now().toISOString();
    const record: SignRequestRecord = {
      id: newId(),
      workspace_id: actor.workspaceId,
      wallet_id: wallet.id,
      kind,
      method,
      body: body as Record<string, unknown>,
      status: "pending",
      request_hash: requestHash,
      ...(idempotencyKey !== undefined ? { idempotency_key: idempotencyKey } : {}),
      created_by: actor.keyId,
      created_at: now,
      updated_at: now,
    };
    this.ctx.store.transact((tx) => tx.put(C.signRequests, record));
    this.schedule(record.id);
    return { transaction_id: record.id };
  }

  private find(actor: Actor, walletId: string, id: string, kind: Kind): SignRequestRecord {
    const wallet = this.wallets.get(actor, walletId);
    const r = this.ctx.store.get<SignRequestRecord>(C.signRequests, id);
    const readable = r !== undefined && (r.kind === kind || (kind === "transaction" && isSolanaMethod(r.method)));
    if (!r || r.wallet_id !== wallet.id || !readable)
      throw notFound(`${kind === "sign" ? "signing request" : "transaction"} not found`);
    return r;
  }

  private schedule(id: string): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.work(id);
    }, 0);
    timer.unref?.();
    this.timers.add(timer);
  }

  private async work(id: string): Promise<void> {
    const r = this.ctx.store.get<SignRequestRecord>(C.signRequests, id);
    if (r?.status !== "pending") return;
    let update: Partial<SignRequestRecord>;
    try {
      if (isSolanaMethod(r.method))
        update =
          r.kind === "sign"
            ? { status: "confirmed", signature: this.solana.signMessage(r) }
            : { status: "completed", hash: this.solana.signRaw(r) };
      else
        update =
          r.kind === "sign"
            ? { status: "confirmed", signature: await this.sign(r) }
            : { status: "completed", hash: await this.send(r) };
    } catch (error) {
      update = {
        status: "failed",
        failed_reason: error instanceof Error ? error.message.split("\n")[0] : String(error),
      };
    }
    const latest = this.ctx.store.get<SignRequestRecord>(C.signRequests, id);
    if (latest?.status !== "pending") return;
    this.ctx.store.transact((tx) =>
      tx.put(C.signRequests, { ...latest, ...update, updated_at: this.ctx.now().toISOString() }),
    );
  }

  private account(r: SignRequestRecord) {
    return privateKeyToAccount(this.wallets.privateKeyOf(r.wallet_id));
  }

  /** EIP-191 personal_sign for eth_sign/personal_sign (0x-hex = bytes, else text); EIP-712 for typed data. */
  private async sign(r: SignRequestRecord): Promise<Hex> {
    const body = r.body as unknown as Web3SignRequest;
    const account = this.account(r);
    if (body.method === "eth_signTypedData_v4") return account.signTypedData(typedDataOf(body.typed_data as string));
    const raw = isHex(body.message, { strict: true }) && body.message.length % 2 === 0;
    return account.signMessage({ message: raw ? { raw: body.message as Hex } : body.message });
  }

  /** Fills nonce, gas and fees the caller left out, signs with the wallet key and broadcasts. */
  private async send(r: SignRequestRecord): Promise<Hex> {
    const body = r.body as unknown as Web3SignRawRequest;
    const account = this.account(r);
    const chainId = this.ctx.chain.chainId;
    if (body.chainId != null && Number(body.chainId) !== chainId)
      throw new Error(`chainId ${String(body.chainId)} is not this network's (${chainId})`);
    const to = (body.to ?? undefined) as Hex | undefined;
    const data = (body.data ?? undefined) as Hex | undefined;
    const value = big(body.value) ?? 0n;
    const fees = body.maxFeePerGas == null ? await this.ctx.chain.fees() : undefined;
    const maxFeePerGas = big(body.maxFeePerGas) ?? (fees as { maxFeePerGas: bigint }).maxFeePerGas;
    const maxPriorityFeePerGas = big(body.maxPriorityFeePerGas) ?? fees?.maxPriorityFeePerGas ?? maxFeePerGas;
    const gas =
      big(body.gasLimit) ?? (await this.ctx.chain.viem.estimateGas({ account: account.address, to, data, value }));
    const signAndSend = async (nonce: number) =>
      this.ctx.chain.sendRaw(
        await account.signTransaction({
          type: "eip1559",
          chainId,
          to,
          data,
          value,
          nonce,
          gas,
          maxFeePerGas,
          maxPriorityFeePerGas,
        }),
      );
    if (body.nonce != null) return signAndSend(Number(body.nonce));
    // The wallet's withdrawals take nonces from the same allocator: never one that a withdrawal holds.
    return this.nonces.exclusive(async () => signAndSend((await this.nonces.allocate(account.address, 1))[0]!));
  }
}

/** A JSON number or decimal string (the SDK sends bigints as strings) as a bigint; null/absent → undefined. */
function big(x: unknown): bigint | undefined {
  if (x === null || x === undefined || x === "") return undefined;
  if (typeof x === "number" || (typeof x === "string" && /^(0x[0-9a-fA-F]+|[0-9]+)$/.test(x))) return BigInt(x);
  throw new Error(`not an integer: ${JSON.stringify(x)}`);
}

/**
 * typed_data as the SDK sends it: JSON of {domain, types, message} (src/signer.ts signTypedData), with
 * bigints as strings. The primary type is the one no other type refers to, as EIP-712 tools derive it.
 */
export function typedDataOf(json: string): TypedDataDefinition {
  let parsed: {
    domain?: Record<string, unknown>;
    types?: Record<string, { name: string; type: string }[]>;
    message?: Record<string, unknown>;
    primaryType?: string;
  };
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new Error("typed_data is not JSON");
  }
  const types = { ...(parsed.types ?? {}) };
  delete types.EIP712Domain;
  const referenced = new Set(
    Object.values(types).flatMap((fields) => fields.map((f) => f.type.replace(/\[\d*\]$/, ""))),
  );
  const primaryType = parsed.primaryType ?? Object.keys(types).find((t) => !referenced.has(t));
  if (!primaryType || !types[primaryType]) throw new Error("typed_data has no primary type");
  const domain = { ...(parsed.domain ?? {}) };
  if (domain.chainId !== undefined) domain.chainId = BigInt(domain.chainId as string);
  return {
    domain,
    types,
    primaryType,
    message: normalize(primaryType, parsed.message ?? {}, types),
  } as unknown as TypedDataDefinition;
}

/** Integer members given as strings become bigints, at every depth, so the EIP-712 encoder takes them. */
function normalize(type: string, value: unknown, types: Record<string, { name: string; type: string }[]>): unknown {
  const array = /^(.*)\[\d*\]$/.exec(type);
  if (array) return Array.isArray(value) ? value.map((v) => normalize(array[1], v, types)) : value;
  if (types[type] && value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const f of types[type]) out[f.name] = normalize(f.type, (value as Record<string, unknown>)[f.name], types);
    return out;
  }
  if (/^u?int\d*$/.test(type) && (typeof value === "string" || typeof value === "number")) return BigInt(value);
  return value;
}

function compact<T extends object>(o: T): T {
  for (const k of Object.keys(o) as (keyof T)[]) if (o[k] === undefined) delete o[k];
  return o;
}
