// Solana's numbers the sandbox follows, in one place (the runtime, the RPC and the wallet domain use them).

/** Slots between the head and the finalized slot (Solana's 32-vote lockout). */
export const FINALIZED_DEPTH = 32;
/** Slots a blockhash stays usable (Solana's MAX_PROCESSING_AGE). */
export const BLOCKHASH_VALID_SLOTS = 150;
/** Base fee per signature (LiteSVM's default fee structure, the cluster's too). */
export const LAMPORTS_PER_SIGNATURE = 5000n;
export const LAMPORTS_PER_SOL = 1_000_000_000n;
/** Solana's target slot time. */
export const DEFAULT_SLOT_MS = 400;
