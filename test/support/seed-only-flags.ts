// The certify flags for a seed-only deployment (A, B or C of test/support/seed-only-*.ts): what a service
// team passes for its own deployment at --level seed, written once for the tests that certify one.

/** What the seed-only deployments have in common: their URLs, keys and the records made by hand. */
export interface SeedOnlyDeployment {
  baseUrl: string;
  rpcUrl: string;
  owner: { apiKey: string; apiSecret: string };
  viewer: { apiKey: string; apiSecret: string };
  scoped: { apiKey: string; apiSecret: string };
  /** The owner key of a second workspace, which owns none of the records here. */
  other: { apiKey: string; apiSecret: string };
  otherWorkspaceId: string;
  rpcApiKey: string;
  workspaceId: string;
  walletId: string;
  assetId: string;
  withdrawalId: string;
  webhookId: string;
  deliveryId: string;
}

/** The records made by hand (what `custody init`'s fixture flags take), with the receiver its webhook calls. */
export function fixtureFlags(t: SeedOnlyDeployment, receiverUrl: string): string[] {
  return [
    "--workspace-id",
    t.workspaceId,
    "--wallet-id",
    t.walletId,
    "--asset-id",
    t.assetId,
    "--withdrawal-id",
    t.withdrawalId,
    "--webhook-id",
    t.webhookId,
    "--delivery-id",
    t.deliveryId,
    "--webhook-receiver-url",
    receiverUrl,
    "--other-workspace-id",
    t.otherWorkspaceId,
  ];
}

/** The URLs and every key: the owner's, the node access's, and the restricted and other-workspace keys. */
export function keyFlags(t: SeedOnlyDeployment): string[] {
  return [
    "--base-url",
    t.baseUrl,
    "--rpc-url",
    t.rpcUrl,
    "--api-key",
    t.owner.apiKey,
    `--api-secret=${t.owner.apiSecret}`,
    "--rpc-api-key",
    t.rpcApiKey,
    "--viewer-api-key",
    t.viewer.apiKey,
    `--viewer-api-secret=${t.viewer.apiSecret}`,
    "--scoped-api-key",
    t.scoped.apiKey,
    `--scoped-api-secret=${t.scoped.apiSecret}`,
    "--other-api-key",
    t.other.apiKey,
    `--other-api-secret=${t.other.apiSecret}`,
  ];
}

/** A quiet --level seed run with everything above; the receiver listens where the deployment sends. */
export function seedLevelFlags(t: SeedOnlyDeployment, receiverPort: number, timeoutMs: number): string[] {
  return [
    ...keyFlags(t),
    "--level",
    "seed",
    ...fixtureFlags(t, `http://127.0.0.1:${receiverPort}`),
    "--webhook-listen",
    `127.0.0.1:${receiverPort}`,
    "--timeout-ms",
    String(timeoutMs),
    "--no-color",
    "--quiet",
  ];
}
