// Lifecycle (full level; seed 1 and 3): a wallet is created asynchronously, a deposit is reported
// on detection and reaches the balance only once confirmed, a withdrawal's receipt matches the chain.
// The slow parts (creation, confirmations) are prerequisites started at the beginning of the run,
// so their waits overlap with the other groups.
import type { Check } from "../check.ts";
import { balanceMatchesChain, depositAddress, depositConfirmation, depositDetected } from "./deposits.ts";
import { seedDepositConfirmation, seedDepositNoApproval } from "./seed-deposits.ts";
import { transactionsExport } from "./transactions-export.ts";
import { walletCreatedEvent, walletCreation } from "./wallet-creation.ts";
import { walletToWallet, withdrawalIdempotency, withdrawalReceipt } from "./withdrawals.ts";

export const lifecycleChecks: Check[] = [
  walletCreation,
  walletCreatedEvent,
  depositAddress,
  depositDetected,
  depositConfirmation,
  balanceMatchesChain,
  seedDepositConfirmation,
  seedDepositNoApproval,
  withdrawalIdempotency,
  withdrawalReceipt,
  walletToWallet,
  transactionsExport,
];
