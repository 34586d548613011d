// `custody trigger`: its declaration (flags, help); the command is ../trigger.ts.
import { type CommandSpec, HELP_OPTION } from "../options.ts";
import { CREDENTIAL_OPTIONS } from "./signed-call.ts";

export const TRIGGER_OPTIONS = {
  chain: {
    type: "string",
    value: "C",
    description:
      "evm or sol: deposits of SOL from the Solana faucet, Solana slots for `block`\n(withdrawal.failed is evm only: a SOL transfer to a valid address does not fail)",
    default: "evm",
  },
  wallet: {
    type: "string",
    value: "ID",
    description: "the wallet to use",
    default: "the first ready wallet, created when there is none",
  },
  amount: {
    type: "string",
    value: "X",
    description: "amount of a deposit or withdrawal",
    default: "1 for deposits, 0.01 for withdrawal.failed",
  },
  blocks: { type: "string", value: "N", description: "blocks to mine for `block` (1 to 100)", default: "1" },
  ...CREDENTIAL_OPTIONS,
  ...HELP_OPTION,
} as const;

export const TRIGGER_COMMAND: CommandSpec<typeof TRIGGER_OPTIONS> = {
  name: "trigger",
  summary: "make a deposit, withdrawal failure, block… happen on a running sandbox",
  usage: ["custody trigger <event> [--chain evm|sol] [--wallet ID] [--amount X] [--blocks N]"],
  arguments: [
    {
      name: "deposit",
      description:
        "send X native coin from the faucet to the wallet's deposit address and mine a block:\ndeposit.pending follows",
    },
    { name: "deposit.confirmed", description: "the same, then mine the confirmation blocks and wait for the balance" },
    {
      name: "withdrawal.failed",
      description:
        "fund the wallet, request a withdrawal of X to an address whose transfers revert,\napprove it: withdrawal.executed, then withdrawal.failed",
    },
    { name: "block", description: "mine N blocks now" },
    { name: "wallet.created", description: "create a wallet and wait until it is ready" },
  ],
  options: TRIGGER_OPTIONS,
  exitStatus: "0 the event happened, 2 bad usage or a step that failed (the reason is printed)",
};
