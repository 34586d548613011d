// Solana's numbers the sandbox follows, in one place (the runtime, the RPC and the wallet domain use them).

/**
 * Slots built on top of a slot before it is finalized: 31, so that a finalized slot has 32
 * confirmations counting its own (Solana's 32-vote lockout), the moment a SOL deposit counts.
 */
export const FINALIZED_DEPTH = 31;
/** Slots a blockhash stays usable (Solana's MAX_PROCESSING_AGE). */
export const BLOCKHASH_VALID_SLOTS = 150;
/** Base fee per signature (LiteSVM's default fee structure, the cluster's too). */
export const LAMPORTS_PER_SIGNATURE = 5000n;
export const LAMPORTS_PER_SOL = 1_000_000_000n;
/** Solana's target slot time. */
export const DEFAULT_SLOT_MS = 400;
