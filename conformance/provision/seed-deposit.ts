// The deposit the seed-level deposit checks judge (lifecycle.seed-deposit-*, seed §3 rules 2 and 3).
// The address comes from getDepositAddress in the form §4 shows, the path alone (its payload is not
// shown, so any address of the network in the answer will do; the real service's ?asset_id= only
// where the path alone gives none). The deposit is a native transfer from --faucet-private-key
// through the node access. Operation 1 is read before it and then every block (the head read right
// after each answer), until the balance moved and one more block passed beyond its confirmations, or
// until the confirmations passed and the deployment had --timeout-ms more to show it.
import { expectEnvelope, expectSuccess } from "../checks/expect.ts";
import { CheckFailed, CheckSkipped } from "../checks/outcome.ts";
import { assetIdOf, balanceOf, decimalToUnits, NATIVE_DECIMALS, sameAmount } from "../checks/units.ts";
import { CHAIN_POLL_MS, pollUntil, type Suite } from "../run/context.ts";
import { sendNativeTransfer } from "../transport/deposit-sender.ts";
import { attachNativeAsset } from "./asset.ts";
import { blockNumber, DEPOSIT_AMOUNT, waitForReceiptBlock } from "./deposit.ts";
import type { SeedBalanceRead, SeedDepositFixture } from "./registry.ts";
import { createWalletAndWait } from "./wallet.ts";

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

type Json = Record<string, unknown>;

export async function provideSeedDeposit(suite: Suite): Promise<SeedDepositFixture> {
  const faucet = await suite.fixtures.need("faucet");
  const { walletId, assetId } = await depositWallet(suite);
  const answer = await depositAddress(suite, walletId, assetId);
  const first = await readBalance(suite, walletId, assetId);
  await expectNativeCoinOfTheNode(suite, first.entry);
  const confirmationBlocks = confirmationBlocksIn(first.entry) ?? confirmationBlocksIn(answer.data);
  const sent = await sendDeposit(suite, faucet, answer.address);
  // The balance just before the send is the one the deposit must leave alone until it is confirmed.
  const fixture: SeedDepositFixture = {
    walletId,
    assetId,
    address: answer.address,
    addressForm: answer.form,
    txHash: sent.hash,
    txBlock: sent.block,
    amount: DEPOSIT_AMOUNT,
    amountUnits: decimalToUnits(DEPOSIT_AMOUNT, NATIVE_DECIMALS)!,
    ...(confirmationBlocks !== undefined ? { confirmationBlocks } : {}),
    confirmedHead: sent.block + (confirmationBlocks ?? 1) - 1,
    graceMs: suite.options.timeoutMs,
    before: first.read,
    observations: [],
  };
  await observe(suite, fixture);
  return fixture;
}

/** --wallet-id/--asset-id at seed level; when the run creates fixtures, a wallet of its own, so no other deposit or withdrawal of the run moves it. */
async function depositWallet(suite: Suite): Promise<{ walletId: string; assetId: string }> {
  if (suite.supply === "given") return suite.fixtures.need("asset");
  const wallet = await createWalletAndWait(suite, suite.marker.name("seed-deposit-wallet"));
  return attachNativeAsset(suite, wallet.walletId);
}

/** The deposit address: the path alone first (§4's form), then with ?asset_id=; a skip when neither names one. */
async function depositAddress(
  suite: Suite,
  walletId: string,
  assetId: string,
): Promise<{ address: string; form: string; data: unknown }> {
  const forms: Array<[string, Record<string, string> | undefined]> = [
    ["the path alone", undefined],
    [`?asset_id=${assetId}`, { asset_id: assetId }],
  ];
  const tried: string[] = [];
  for (const [form, query] of forms) {
    const ex = await suite.call("getDepositAddress", { params: { wallet_id: walletId }, ...(query ? { query } : {}) });
    if (ex.response.status < 200 || ex.response.status > 299) {
      tried.push(`${form}: HTTP ${ex.response.status}`);
      continue;
    }
    const data = expectEnvelope(ex).data;
    const picked = depositAddressIn(data);
    if (typeof picked !== "string") {
      tried.push(`${form}: ${picked.why}`);
      continue;
    }
    return { address: picked, form, data };
  }
  throw new CheckSkipped(
    `getDepositAddress of wallet ${walletId} named no EVM address to deposit to (${tried.join("; ")}): the deposit checks need the asset's address on the node's network`,
    undefined,
    "inapplicable",
  );
}

/**
 * The one EVM address of the answer (the seed shows no payload: any member, at any depth, will do),
 * a token's contract address left out; among several, the one whose member names a deposit or is
 * `address`. More than that is not a choice certify can make.
 */
export function depositAddressIn(data: unknown): string | { why: string } {
  const found: Array<{ key: string; value: string }> = [];
  const walk = (value: unknown, key: string): void => {
    if (typeof value === "string" && EVM_ADDRESS.test(value) && !/contract/i.test(key)) found.push({ key, value });
    else if (Array.isArray(value)) for (const item of value) walk(item, key);
    else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) walk(v, k);
  };
  walk(data, "");
  const distinct = (list: typeof found) => [...new Set(list.map((f) => f.value.toLowerCase()))];
  if (distinct(found).length === 1) return found[0].value;
  if (found.length === 0) return { why: "no EVM address in the answer" };
  const marked = found.filter((f) => /deposit/i.test(f.key) || f.key === "address");
  if (distinct(marked).length === 1) return marked[0].value;
  return { why: `${distinct(found).length} EVM addresses and no one member naming the deposit address` };
}

/** network.confirmation_blocks (seed 2.4) wherever the answer carries a Network. */
export function confirmationBlocksIn(value: unknown): number | undefined {
  if (Array.isArray(value)) {
    for (const item of value) {
      const n = confirmationBlocksIn(item);
      if (n !== undefined) return n;
    }
    return undefined;
  }
  if (!value || typeof value !== "object") return undefined;
  const own = (value as Json).confirmation_blocks;
  if (Number.isSafeInteger(own) && (own as number) > 0) return own as number;
  for (const v of Object.values(value as Json)) {
    const n = confirmationBlocksIn(v);
    if (n !== undefined) return n;
  }
  return undefined;
}

/** certify sends the node's native coin: an entry that shows a token, another family or another chain is not one it can fund. */
async function expectNativeCoinOfTheNode(suite: Suite, entry: Json | undefined): Promise<void> {
  const asset = (entry?.asset ?? {}) as Json;
  const network = (entry?.network ?? asset.network ?? {}) as Json;
  const inapplicable = (why: string): never => {
    throw new CheckSkipped(
      `${why}: certify deposits the native coin of the node access's network; name that asset with --asset-id`,
      undefined,
      "inapplicable",
    );
  };
  if (asset.is_native === false) inapplicable("operation 1 shows the asset with is_native false");
  if (typeof asset.contract_address === "string" && asset.contract_address)
    inapplicable(`operation 1 shows the asset as a token (contract_address ${asset.contract_address})`);
  if (network.is_evm === false) inapplicable("operation 1 shows the asset's network with is_evm false");
  if (typeof network.chain_id === "number") {
    const node = await suite
      .rpc()
      .resultHttp("eth_chainId")
      .catch(() => undefined);
    if (typeof node === "string" && /^0x[0-9a-f]+$/i.test(node) && Number(BigInt(node)) !== network.chain_id)
      inapplicable(`the asset's network has chain_id ${network.chain_id}, the node access ${Number(BigInt(node))}`);
  }
}

/** The transfer and the block that mined it; a node access that does not take it is certify's limit (§4.1 shows no such method). */
async function sendDeposit(suite: Suite, faucet: string, address: string): Promise<{ hash: string; block: number }> {
  try {
    const sent = await sendNativeTransfer(suite.rpc(), faucet, address, DEPOSIT_AMOUNT, NATIVE_DECIMALS);
    return { hash: sent.hash, block: await waitForReceiptBlock(suite, sent.hash) };
  } catch (err) {
    if (!(err instanceof CheckFailed)) throw err;
    throw new CheckSkipped(
      `the deposit could not be sent through the node access (${err.message}); §4.1 shows no method to send or follow a transaction, so this is certify's limit, not the deployment's failure`,
      undefined,
      "inapplicable",
    );
  }
}

/** Operation 1's entry for the asset, then the head; an asset not listed reads as a balance of 0. */
async function readBalance(
  suite: Suite,
  walletId: string,
  assetId: string,
): Promise<{ read: SeedBalanceRead; entry?: Json }> {
  const ex = await suite.call("getWalletOverview", { params: { wallet_id: walletId } });
  const data = expectSuccess(ex, suite.operation("getWalletOverview"));
  const head = await blockNumber(suite);
  const entry = entryOf(data, assetId);
  const text = (v: unknown) => (typeof v === "string" ? v : undefined);
  const read: SeedBalanceRead = {
    atMs: Date.now(),
    balance: entry ? (balanceOf(entry) ?? "") : "0",
    listed: entry !== undefined,
    head,
    evidence: ex.evidence,
  };
  const onHold = text(entry?.on_hold);
  const available = text(entry?.available_balance);
  if (onHold !== undefined) read.onHold = onHold;
  if (available !== undefined) read.available = available;
  return { read, ...(entry ? { entry } : {}) };
}

/** The overview's entry of the asset (asset_id or asset.id; the only entry when none names an asset). */
function entryOf(data: unknown, assetId: string): Json | undefined {
  const items = (Array.isArray(data) ? data : []).filter((i): i is Json => !!i && typeof i === "object");
  const named = items.find((i) => assetIdOf(i) === assetId);
  if (named) return named;
  const anonymous = items.filter((i) => assetIdOf(i) === undefined);
  return items.length === 1 && anonymous.length === 1 ? anonymous[0] : undefined;
}

/** Reads operation 1 every CHAIN_POLL_MS (at least once per block of a fast sandbox) until the balance moved and a block passed its confirmations, or the grace after them ran out. */
async function observe(suite: Suite, fixture: SeedDepositFixture): Promise<void> {
  let confirmedAt: number | undefined;
  let movedAt: number | undefined;
  await pollUntil(
    async () => {
      const { read } = await readBalance(suite, fixture.walletId, fixture.assetId);
      fixture.observations.push(read);
      if (read.head >= fixture.confirmedHead) confirmedAt ??= read.atMs;
      if (movedAt === undefined && !sameAmount(read.balance, fixture.before.balance)) movedAt = read.head;
      if (movedAt !== undefined && read.head > Math.max(movedAt, fixture.confirmedHead)) return true;
      return confirmedAt !== undefined && read.atMs - confirmedAt > fixture.graceMs ? true : undefined;
    },
    3 * suite.options.timeoutMs,
    CHAIN_POLL_MS,
    suite.signal,
  );
}
