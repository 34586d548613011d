// Confirmed balances are cached per (block, address): one node read per block and address, a new head
// empties the cache, failures are not kept, and BalanceService still reads the head on every call, so
// an answer is never older than the chain's current confirmed block.
import { describe, expect, it } from "vitest";
import { BalanceCache } from "../reference/domain/balance-cache.ts";
import { BalanceService } from "../reference/domain/balances.ts";
import { Catalog, SANDBOX_ETH_ASSET_ID, SANDBOX_NETWORK_ID } from "../reference/domain/catalog.ts";
import type { DomainContext } from "../reference/domain/context.ts";
import { defineIndexes } from "../reference/domain/indexes.ts";
import type { WalletAssetRecord } from "../reference/domain/records.ts";
import { StateStore } from "../reference/store/state-store.ts";

const ADDRESS = "0x00000000000000000000000000000000000000aa";

function counter(value: bigint) {
  const calls: bigint[] = [];
  return { calls, read: (block: bigint) => () => (calls.push(block), Promise.resolve(value + block)) };
}

describe("BalanceCache", () => {
  it("reads a block and address once, shared by concurrent callers", async () => {
    const cache = new BalanceCache();
    const c = counter(100n);
    cache.seeHead(10n);
    const [a, b] = await Promise.all([
      cache.balanceAt(ADDRESS, 8n, c.read(8n)),
      cache.balanceAt(ADDRESS.toUpperCase().replace("0X", "0x"), 8n, c.read(8n)),
    ]);
    expect([a, b]).toEqual([108n, 108n]);
    expect(await cache.balanceAt(ADDRESS, 8n, c.read(8n))).toBe(108n);
    expect(c.calls).toEqual([8n]);
    expect(await cache.balanceAt(ADDRESS, 9n, c.read(9n))).toBe(109n);
    expect(c.calls).toEqual([8n, 9n]);
  });

  it("forgets everything when the head moves, either way", async () => {
    const cache = new BalanceCache();
    const c = counter(0n);
    cache.seeHead(10n);
    await cache.balanceAt(ADDRESS, 8n, c.read(8n));
    cache.seeHead(10n);
    expect(cache.size).toBe(1);
    cache.seeHead(11n);
    expect(cache.size).toBe(0);
    await cache.balanceAt(ADDRESS, 8n, c.read(8n));
    cache.seeHead(3n); // a chain reset reuses block numbers with other state
    await cache.balanceAt(ADDRESS, 8n, c.read(8n));
    expect(c.calls).toEqual([8n, 8n, 8n]);
  });

  it("does not keep a failed read", async () => {
    const cache = new BalanceCache();
    await expect(cache.balanceAt(ADDRESS, 1n, () => Promise.reject(new Error("node down")))).rejects.toThrow(
      "node down",
    );
    expect(cache.size).toBe(0);
    expect(await cache.balanceAt(ADDRESS, 1n, () => Promise.resolve(5n))).toBe(5n);
  });
});

describe("BalanceService with the cache", () => {
  function service() {
    const chain = { head: 20n, headReads: 0, balanceReads: [] as bigint[], wei: 10n ** 18n };
    const ctx = {
      store: StateStore.open(),
      now: () => new Date(0),
      catalog: new Catalog({ chainId: 1337, confirmationBlocks: 3 }),
      chain: {
        head: async () => (chain.headReads++, chain.head),
        balanceAt: async (_address: string, block: bigint) => (chain.balanceReads.push(block), chain.wei),
      },
    } as unknown as DomainContext;
    // The services read through the store's indexes, which the app defines first.
    defineIndexes(ctx.store);
    return { chain, balances: new BalanceService(ctx) };
  }
  const attached: WalletAssetRecord = {
    id: `w_1:${SANDBOX_ETH_ASSET_ID}`,
    workspace_id: "ws_1",
    wallet_id: "w_1",
    asset_id: SANDBOX_ETH_ASSET_ID,
    network_id: SANDBOX_NETWORK_ID,
    address: ADDRESS,
    created_at: new Date(0).toISOString(),
  };

  it("reads the head every time and the balance once per confirmed block", async () => {
    const { chain, balances } = service();
    const first = await balances.balanceOf(attached);
    expect(first.confirmed_block).toBe(18);
    expect(first.balance).toBe("1");
    await balances.balanceOf(attached);
    expect(chain.headReads).toBe(2);
    expect(chain.balanceReads).toEqual([18n]);

    // A new block: the very next call answers at the new confirmed block with the node's new value.
    chain.head = 21n;
    chain.wei = 2n * 10n ** 18n;
    const next = await balances.balanceOf(attached);
    expect(next.confirmed_block).toBe(19);
    expect(next.balance).toBe("2");
    expect(chain.balanceReads).toEqual([18n, 19n]);
  });

  it("answers an overview of several assets at one block with one head read", async () => {
    const { chain, balances } = service();
    expect(await balances.balancesOf([])).toEqual([]);
    expect(chain.headReads).toBe(0);
    const views = await balances.balancesOf([
      attached,
      { ...attached, wallet_id: "w_2", address: "0x00000000000000000000000000000000000000bb" },
    ]);
    expect(views.map((v) => v.confirmed_block)).toEqual([18, 18]);
    expect(chain.headReads).toBe(1);
    expect(chain.balanceReads).toEqual([18n, 18n]);
  });
});
