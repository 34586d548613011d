// The chains group (full level): the contract's other address families (sol, tron), Solana signing,
// and SOL moving like ETH does in the lifecycle group. Checks that need the chain skip, naming
// --solana-rpc-url, when the run has no Solana RPC.
import type { Check } from "../check.ts";
import { solanaAddress, tronAddress, tronAddressSameKey } from "./addresses.ts";
import { solanaSignMessage, solanaSignTransaction } from "./signing.ts";
import {
  solanaDepositConfirmation,
  solanaDepositDetected,
  solanaSendTransaction,
  solanaWithdrawal,
} from "./solana-money.ts";

export const chainsChecks: readonly Check[] = [
  solanaAddress,
  tronAddress,
  tronAddressSameKey,
  solanaSignMessage,
  solanaSignTransaction,
  solanaDepositDetected,
  solanaDepositConfirmation,
  solanaSendTransaction,
  solanaWithdrawal,
];
