// What `custody diff` reports: each change a client of the API would notice, classified for that client.

export type Level = "breaking" | "warning" | "info";
export type Semver = "major" | "minor" | "patch" | "none";

export interface Change {
  /** Stable check id (kebab-case, named like oasdiff's where the meaning is the same). */
  id: string;
  level: Level;
  /** The operation, webhook or JSON-RPC method it reaches: "GET /wallets", "webhook wallet.created", "rpc eth_call". */
  where: string;
  /** JSON pointer in the old document ("" = the document), or undefined when the thing is new. */
  oldPointer?: string;
  /** JSON pointer in the new document, or undefined when the thing is gone. */
  newPointer?: string;
  /** One sentence. */
  message: string;
}

export interface DiffReport {
  /** Names of the compared documents as given on the command line. */
  old: { openapi?: string; rpc?: string };
  new: { openapi?: string; rpc?: string };
  changes: Change[];
  summary: { breaking: number; warning: number; info: number; semver: Semver };
}

export const LEVEL_RANK: Record<Level, number> = { info: 0, warning: 1, breaking: 2 };
