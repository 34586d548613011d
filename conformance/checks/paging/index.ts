// Paged lists (x-custody-pagination, x-custody-limits.pagination): the default and maximum page sizes,
// pages that stay disjoint and complete while records are created between the reads, an empty page
// past the end of every list, and the documented 400 for a bad limit. All at --level full: the seed
// shows no paging (4, 8), so a seed deployment answering whole lists stays valid at --level seed.
//
// What the certifier creates: a page and one more of webhooks of its own to its receiver (subscribed to
// withdrawal.failed only, to stay quiet), so listWebhooks is longer than a page whatever else comes and
// goes, deleted at the end of the run; and three
// wallets while it pages listWallets (wallets have no delete: they stay, like the run's other wallets).
import type { Check } from "../check.ts";
import { badLimit } from "./bad-limit.ts";
import { disjointComplete } from "./disjoint-complete.ts";
import { everyList } from "./every-list.ts";
import { pageSizes } from "./page-sizes.ts";

export const pagingChecks: Check[] = [pageSizes, disjointComplete, everyList, badLimit];
