// The environment variables that fix the sandbox's seeded values, in a module that imports nothing:
// `custody sandbox --help` lists them without loading the sandbox (config.ts reads them).

/** The values the sandbox seeds; each can be fixed by option or by its environment variable below. */
export interface SandboxCredentials {
  workspaceId?: string;
  apiKey?: string;
  apiSecret?: string;
  viewerApiKey?: string;
  viewerApiSecret?: string;
  scopedApiKey?: string;
  scopedApiSecret?: string;
  rpcApiKey?: string;
  /** 0x + 64 hex digits: the funded account of the embedded chain. */
  faucetPrivateKey?: string;
  /** 64 hex digits: master seed of the wallet keys. */
  walletMasterSeed?: string;
  /** 64 hex digits: Ed25519 secret of the workspace's webhook signatures. */
  webhookPrivateKey?: string;
  /** A second workspace with its own owner key (certify's tenant isolation checks use it). */
  otherWorkspaceId?: string;
  otherApiKey?: string;
  otherApiSecret?: string;
}

/** The environment variable that fixes each seeded value (custody sandbox --help lists them). */
export const CREDENTIAL_ENV = {
  workspaceId: "CUSTODY_SANDBOX_WORKSPACE_ID",
  apiKey: "CUSTODY_SANDBOX_API_KEY",
  apiSecret: "CUSTODY_SANDBOX_API_SECRET",
  viewerApiKey: "CUSTODY_SANDBOX_VIEWER_API_KEY",
  viewerApiSecret: "CUSTODY_SANDBOX_VIEWER_API_SECRET",
  scopedApiKey: "CUSTODY_SANDBOX_SCOPED_API_KEY",
  scopedApiSecret: "CUSTODY_SANDBOX_SCOPED_API_SECRET",
  rpcApiKey: "CUSTODY_SANDBOX_RPC_API_KEY",
  faucetPrivateKey: "CUSTODY_SANDBOX_FAUCET_PRIVATE_KEY",
  walletMasterSeed: "CUSTODY_SANDBOX_WALLET_MASTER_SEED",
  webhookPrivateKey: "CUSTODY_SANDBOX_WEBHOOK_PRIVATE_KEY",
  otherWorkspaceId: "CUSTODY_SANDBOX_OTHER_WORKSPACE_ID",
  otherApiKey: "CUSTODY_SANDBOX_OTHER_API_KEY",
  otherApiSecret: "CUSTODY_SANDBOX_OTHER_API_SECRET",
} as const satisfies Record<keyof SandboxCredentials, string>;
export const SEED_ENV = "CUSTODY_SANDBOX_SEED";
export const PROFILE_ENV = "CUSTODY_SANDBOX_WEBHOOK_PROFILE";
