// `custody certify`: its declaration (flags with their environment variables, help, config keys).
// The command is ../certify.ts; --fuzz and --har are parsed in ../certify-fuzz.ts and ../certify-har.ts.

import { GROUPS } from "../../conformance/checks/types.ts";
import { DEFAULT_CONCURRENCY, DEFAULT_TIMEOUT_MS } from "../../conformance/run/config.ts";
import { DEFAULT_MAX_BODY_BYTES } from "../../conformance/transport/probe.ts";
import { CONFIG_OPTION, type CommandSpec, HELP_OPTION } from "../options.ts";

const TARGET = "target (flag, config file, or environment variable)";
const FIXTURES = "seed-level fixtures (ids of existing records; each skipped check names the one it needs)";
const KEYS = "restricted keys (created with createApiKey at --level full when not given)";
const ISOLATION = "tenant isolation (a key of a second workspace; without it the isolation checks do not run)";
const WEBHOOKS = "webhooks";
const RUN = "run";
const BASELINE = "adopt gradually (docs/guides/certify-in-ci.md#adopt-gradually)";
const FUZZ = "fuzzing (schema-driven cases; docs/explanation/checks-proven-to-fail.md)";

export const CERTIFY_OPTIONS = {
  "base-url": {
    type: "string",
    value: "URL",
    env: "CUSTODY_BASE_URL",
    section: TARGET,
    description: "wallet API base (operation paths start with /api/v1)",
  },
  "rpc-url": {
    type: "string",
    value: "URL",
    env: "CUSTODY_RPC_URL",
    section: TARGET,
    description: "node access base (HTTP JSON-RPC at URL/rpc)",
  },
  "ws-url": {
    type: "string",
    value: "URL",
    env: "CUSTODY_WS_URL",
    section: TARGET,
    description: "WebSocket URL",
    default: "seed 4.1: wss://{host of --rpc-url}/ws",
  },
  "api-key": {
    type: "string",
    value: "KEY",
    env: "CUSTODY_API_KEY",
    section: TARGET,
    description: "HMAC key id (owner or admin)",
  },
  "api-secret": {
    type: "string",
    value: "SECRET",
    env: "CUSTODY_API_SECRET",
    secret: true,
    section: TARGET,
    description: "its secret (prefer the environment variable)",
  },
  "rpc-api-key": {
    type: "string",
    value: "KEY",
    env: "CUSTODY_RPC_API_KEY",
    secret: true,
    section: TARGET,
    description: "node access key",
  },
  "workspace-id": {
    type: "string",
    value: "ID",
    env: "CUSTODY_WORKSPACE_ID",
    section: TARGET,
    description: "the workspace of the keys",
  },
  sandbox: {
    type: "boolean",
    section: TARGET,
    description: "start the embedded reference deployment in-process and certify it",
  },
  target: {
    type: "string",
    value: "NAME",
    config: false,
    section: TARGET,
    description: "certify this target of the config file's `targets`",
  },
  "wallet-id": { type: "string", value: "ID", section: FIXTURES, description: "an existing wallet" },
  "asset-id": { type: "string", value: "ID", section: FIXTURES, description: "an asset attached to that wallet" },
  "withdrawal-id": { type: "string", value: "ID", section: FIXTURES, description: "an existing withdrawal" },
  "delivery-id": {
    type: "string",
    value: "ID",
    section: FIXTURES,
    description: "a webhook delivery of --webhook-id (requeued, then requeued again after that webhook is deleted)",
  },
  "webhook-id": {
    type: "string",
    value: "ID",
    section: FIXTURES,
    description: "a registered webhook, to --webhook-receiver-url (deleted at seed level)",
  },
  "create-fixtures": {
    type: "boolean",
    section: FIXTURES,
    description:
      "create the fixtures instead, through the spec's assumed operations (createWallet,\ncreateWebhook, ...); implied by --level full and by --sandbox",
  },
  "viewer-api-key": {
    type: "string",
    value: "KEY",
    env: "CUSTODY_VIEWER_API_KEY",
    section: KEYS,
    description: "a key with role viewer",
  },
  "viewer-api-secret": {
    type: "string",
    value: "SECRET",
    env: "CUSTODY_VIEWER_API_SECRET",
    secret: true,
    section: KEYS,
    description: "its secret",
  },
  "scoped-api-key": {
    type: "string",
    value: "KEY",
    env: "CUSTODY_SCOPED_API_KEY",
    section: KEYS,
    description: "a key limited to balances:read",
  },
  "scoped-api-secret": {
    type: "string",
    value: "SECRET",
    env: "CUSTODY_SCOPED_API_SECRET",
    secret: true,
    section: KEYS,
    description: "its secret",
  },
  "other-api-key": {
    type: "string",
    value: "KEY",
    env: "CUSTODY_OTHER_API_KEY",
    section: ISOLATION,
    description: "a key of a second workspace (owner or admin)",
  },
  "other-api-secret": {
    type: "string",
    value: "SECRET",
    env: "CUSTODY_OTHER_API_SECRET",
    secret: true,
    section: ISOLATION,
    description: "its secret",
  },
  "other-workspace-id": {
    type: "string",
    value: "ID",
    env: "CUSTODY_OTHER_WORKSPACE_ID",
    section: ISOLATION,
    description: "that workspace's id (its workspace paths are tried too)",
  },
  "faucet-private-key": {
    type: "string",
    value: "HEX",
    env: "CUSTODY_FAUCET_PRIVATE_KEY",
    secret: true,
    section: "deposits (lifecycle and money checks)",
    description:
      "a funded chain key; it sends 0.01 of the native coin to the deposit address, at --level seed too (the two seed-level deposit checks are MUSTs only with it)",
  },
  "solana-rpc-url": {
    type: "string",
    value: "URL",
    env: "CUSTODY_SOLANA_RPC_URL",
    section: "Solana (chains checks; the same node-access key, in api_key)",
    description: "the deployment's Solana JSON-RPC (SOL is funded by its requestAirdrop)",
  },
  "webhook-receiver-url": {
    type: "string",
    value: "URL",
    env: "CUSTODY_WEBHOOK_RECEIVER_URL",
    section: WEBHOOKS,
    description: "public URL of the runner's receiver",
  },
  "webhook-listen": {
    type: "string",
    value: "HOST:PORT",
    section: WEBHOOKS,
    description: "where the receiver listens",
    default: "127.0.0.1:0",
  },
  "webhook-profile": {
    type: "string",
    value: "PROFILE",
    section: WEBHOOKS,
    description: "require this signature profile: standard-webhooks or canonical-json",
    default: "either; at seed level any Ed25519 scheme certify can find (the report says which matched)",
  },
  level: {
    type: "string",
    value: "seed|full",
    section: RUN,
    description: "seed: only what the seed specifies; full: also drive assumed operations",
    default: "full",
  },
  plan: {
    type: "boolean",
    section: RUN,
    description:
      "print which checks a run would execute and, for each that would not, the flag or variable\nthat enables it; sends only the preflight's requests (exit 0 all MUST would run, 3 not)",
  },
  only: {
    type: "string",
    value: "GROUP,...",
    section: RUN,
    description: `run only these groups: ${GROUPS.join(", ")}`,
  },
  "timeout-ms": {
    type: "string",
    value: "N",
    section: RUN,
    description: "per-check time limit, also bounds each request",
    default: String(DEFAULT_TIMEOUT_MS),
  },
  concurrency: {
    type: "string",
    value: "N",
    section: RUN,
    description: "checks at a time",
    default: String(DEFAULT_CONCURRENCY),
  },
  "max-body-mib": {
    type: "string",
    value: "N",
    env: "CUSTODY_MAX_BODY_MIB",
    section: RUN,
    description:
      "response body limit; an answer over it is certify's limit, not the deployment's\nfailure: its checks are skipped (exit 3)",
    default: String(DEFAULT_MAX_BODY_BYTES / (1024 * 1024)),
  },
  baseline: {
    type: "string",
    value: "FILE",
    path: true,
    section: BASELINE,
    description:
      "known MUST failures: the run passes (exit 0) while only these fail, fails on any other or\nexpired one, and says which now pass",
  },
  "write-baseline": {
    type: "string",
    value: "FILE",
    path: true,
    section: BASELINE,
    description: "record this run's MUST failures in FILE (keeping reasons and expiry dates of --baseline)",
  },
  json: { type: "string", value: "FILE", path: true, section: "reports", description: "write the JSON report" },
  junit: {
    type: "string",
    value: "FILE",
    path: true,
    section: "reports",
    description: "write the JUnit XML report (only failed MUST checks are failures)",
  },
  html: { type: "string", value: "FILE", path: true, section: "reports", description: "write the HTML report" },
  har: {
    type: "string",
    value: "FILE",
    path: true,
    section: "reports",
    description: "write every HTTP exchange as HAR 1.2 (credentials and secrets redacted; bodies up to 4 KiB)",
  },
  quiet: { type: "boolean", section: "reports", description: "print failures only" },
  "no-color": { type: "boolean", section: "reports", description: "no colours on the console" },
  fuzz: {
    type: "string",
    value: "N",
    section: FUZZ,
    description: "N requests per operation drawn from the spec's schemas, valid and invalid",
  },
  seed: {
    type: "string",
    value: "S",
    section: FUZZ,
    description: "repeat a run's cases (the seed is printed)",
    default: "random",
  },
  "fuzz-time": { type: "string", value: "SECONDS", section: FUZZ, description: "stop drawing cases after this long" },
  "allow-writes": {
    type: "boolean",
    section: FUZZ,
    description:
      "also send valid cases to operations that move funds, sign, delete or create keys\n(only for test networks and sandboxes; --sandbox implies it)",
  },
  ...CONFIG_OPTION,
  ...HELP_OPTION,
} as const;

export const CERTIFY_COMMAND: CommandSpec<typeof CERTIFY_OPTIONS> = {
  name: "certify",
  summary: "certify a deployment (--sandbox: the embedded reference)",
  usage: [
    "custody certify --base-url U --rpc-url R [--ws-url W] --api-key K --api-secret S --rpc-api-key RK",
    "                [--workspace-id ID] [--level seed|full] [--only GROUP,...] [--timeout-ms N]",
    "                [--json FILE] [--junit FILE] [--html FILE] [--webhook-receiver-url PUBLIC_URL]",
    "custody certify --target NAME [options]      (a target of custody.config.yaml)",
    "custody certify --target NAME --plan         (what a run would execute, and what enables the rest)",
    "custody certify --sandbox [same report options]",
  ],
  options: CERTIFY_OPTIONS,
  notes: ["A flag wins over the config file, and the config file over the environment variable."],
  exitStatus:
    "0 certified: every MUST check of the level ran and passed; 1 a MUST check failed;\n             2 bad usage, or the preflight stopped the run; 3 no MUST check failed but some did not run;\n             130/143 stopped by SIGINT/SIGTERM (what ran is reported, what the run created removed)",
  configSection: "certify",
};
