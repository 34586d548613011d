// A failed transaction's error as Solana's RPC writes it (the serde JSON of TransactionError:
// "BlockhashNotFound", {"InstructionError":[0,{"Custom":1}]}, {"InsufficientFundsForRent":
// {"account_index":1}}) and the sentence its RPC prints for it, from LiteSVM's native error values.
import type { NativeTransactionError } from "./litesvm-binding.ts";

export type TransactionErrorJson = string | Record<string, unknown>;

// Orders of litesvm 1.5.0's TransactionErrorFieldless and InstructionErrorFieldless enums.
const TRANSACTION_ERRORS = [
  "AccountInUse",
  "AccountLoadedTwice",
  "AccountNotFound",
  "ProgramAccountNotFound",
  "InsufficientFundsForFee",
  "InvalidAccountForFee",
  "AlreadyProcessed",
  "BlockhashNotFound",
  "CallChainTooDeep",
  "MissingSignatureForFee",
  "InvalidAccountIndex",
  "SignatureFailure",
  "InvalidProgramForExecution",
  "SanitizeFailure",
  "ClusterMaintenance",
  "AccountBorrowOutstanding",
  "WouldExceedMaxBlockCostLimit",
  "UnsupportedVersion",
  "InvalidWritableAccount",
  "WouldExceedMaxAccountCostLimit",
  "WouldExceedAccountDataBlockLimit",
  "TooManyAccountLocks",
  "AddressLookupTableNotFound",
  "InvalidAddressLookupTableOwner",
  "InvalidAddressLookupTableData",
  "InvalidAddressLookupTableIndex",
  "InvalidRentPayingAccount",
  "WouldExceedMaxVoteCostLimit",
  "WouldExceedAccountDataTotalLimit",
  "MaxLoadedAccountsDataSizeExceeded",
  "ResanitizationNeeded",
  "InvalidLoadedAccountsDataSizeLimit",
  "UnbalancedTransaction",
  "ProgramCacheHitMaxLimit",
  "CommitCancelled",
];
const INSTRUCTION_ERRORS = [
  "GenericError",
  "InvalidArgument",
  "InvalidInstructionData",
  "InvalidAccountData",
  "AccountDataTooSmall",
  "InsufficientFunds",
  "IncorrectProgramId",
  "MissingRequiredSignature",
  "AccountAlreadyInitialized",
  "UninitializedAccount",
  "UnbalancedInstruction",
  "ModifiedProgramId",
  "ExternalAccountLamportSpend",
  "ExternalAccountDataModified",
  "ReadonlyLamportChange",
  "ReadonlyDataModified",
  "DuplicateAccountIndex",
  "ExecutableModified",
  "RentEpochModified",
  "NotEnoughAccountKeys",
  "AccountDataSizeChanged",
  "AccountNotExecutable",
  "AccountBorrowFailed",
  "AccountBorrowOutstanding",
  "DuplicateAccountOutOfSync",
  "InvalidError",
  "ExecutableDataModified",
  "ExecutableLamportChange",
  "ExecutableAccountNotRentExempt",
  "UnsupportedProgramId",
  "CallDepth",
  "MissingAccount",
  "ReentrancyNotAllowed",
  "MaxSeedLengthExceeded",
  "InvalidSeeds",
  "InvalidRealloc",
  "ComputationalBudgetExceeded",
  "PrivilegeEscalation",
  "ProgramEnvironmentSetupFailure",
  "ProgramFailedToComplete",
  "ProgramFailedToCompile",
  "Immutable",
  "IncorrectAuthority",
  "AccountNotRentExempt",
  "InvalidAccountOwner",
  "ArithmeticOverflow",
  "UnsupportedSysvar",
  "IllegalOwner",
  "MaxAccountsDataAllocationsExceeded",
  "MaxAccountsExceeded",
  "MaxInstructionTraceLengthExceeded",
  "BuiltinProgramsMustConsumeComputeUnits",
  "BorshIoError",
];

// The sentences Solana's RPC prints for the errors a client meets most (solana-sdk TransactionError's Display).
const SENTENCES: Record<string, string> = {
  AccountNotFound: "Attempt to debit an account but found no record of a prior credit.",
  AlreadyProcessed: "This transaction has already been processed",
  BlockhashNotFound: "Blockhash not found",
  InsufficientFundsForFee: "Insufficient funds for fee",
  SignatureFailure: "Transaction did not pass signature verification",
};

export function transactionErrorJson(err: NativeTransactionError): TransactionErrorJson {
  if (typeof err === "number") return TRANSACTION_ERRORS[err] ?? `TransactionError${err}`;
  const name = err.constructor?.name ?? "";
  if (name.endsWith("InstructionError") && typeof err.err === "function") {
    const inner = err.err();
    const detail =
      typeof inner === "number"
        ? (INSTRUCTION_ERRORS[inner] ?? `InstructionError${inner}`)
        : "code" in inner
          ? { Custom: inner.code }
          : "BorshIoError";
    return { InstructionError: [err.index ?? 0, detail] };
  }
  if (name.endsWith("InsufficientFundsForRent"))
    return { InsufficientFundsForRent: { account_index: err.accountIndex ?? 0 } };
  if (name.endsWith("DuplicateInstruction")) return { DuplicateInstruction: err.index ?? 0 };
  if (name.endsWith("ProgramExecutionTemporarilyRestricted"))
    return { ProgramExecutionTemporarilyRestricted: { account_index: err.accountIndex ?? 0 } };
  return name.replace(/^TransactionError/, "") || "UnknownError";
}

/** One line for logs and RPC messages. */
export function transactionErrorText(json: TransactionErrorJson): string {
  if (typeof json === "string") return SENTENCES[json] ?? json;
  const [key, value] = Object.entries(json)[0] ?? ["UnknownError", undefined];
  if (key === "InstructionError" && Array.isArray(value)) {
    const [index, detail] = value as [number, unknown];
    const what =
      typeof detail === "string"
        ? detail
        : `custom program error: 0x${Number((detail as { Custom: number }).Custom).toString(16)}`;
    return `Error processing Instruction ${index}: ${what}`;
  }
  if (key === "InsufficientFundsForRent")
    return `Transaction results in an account (${(value as { account_index: number }).account_index}) with insufficient funds for rent`;
  return key;
}
