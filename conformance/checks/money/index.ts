// Money-path semantics at --level full, on a funded wallet of their own (so they run beside the
// lifecycle's withdrawal, and neither sees the other's holds): a withdrawal replayed
// with its Idempotency-Key is the same withdrawal; the key with another body is 409; identical
// submits at the same time make one withdrawal; an overdraft is refused with nothing held; reject
// releases the hold; and, last, identical submits approved make exactly one transfer on chain. Every
// other withdrawal made here waits for approval and is rejected, so nothing else leaves the wallet, and at every read the balance must be the chain balance of the deposit address
// at a recent block — the head, or as far back as the deployment's confirmation depth (holds change
// what is available, never what is there). The checks run one after the other:
// they read the same balance.
import type { Check } from "../check.ts";
import { overdraftRefused, rejectReleases } from "./holds.ts";
import { concurrentSubmits, sameKeyOtherBody, sameKeySameBody } from "./idempotency.ts";
import { oneTransferOnChain } from "./one-transfer.ts";

export const moneyChecks: Check[] = [
  sameKeySameBody,
  sameKeyOtherBody,
  concurrentSubmits,
  overdraftRefused,
  rejectReleases,
  oneTransferOnChain,
];
