// The one target resolver of the command line: `certify`, `request`, `trigger` and `mcp` all turn
// their flags into a Target (lib/target.ts) here. A value comes from, in this order: the flag, the
// config file (already merged under the flags by config-values.ts's withConfig), the flag's
// environment variable, and last a sandbox: the one `--sandbox` started, or the running sandbox's
// file. The sandbox is asked only when the wallet API's base URL, key or secret is still missing, so
// a deployment's own credentials are never mixed with a sandbox's. Every error names the flag.
import {
  type ApiTarget,
  type Credentials,
  defaultWsUrl,
  httpUrl,
  type OtherTenant,
  type Target,
  TargetError,
  wsUrl,
} from "../lib/target.ts";
import type { SandboxCredentials } from "../reference/sandbox.ts";
import { walletApiBaseUrl } from "../runtime/http/base-url.ts";
import type { Options } from "./options.ts";
import { runningSandbox, sandboxFilePath } from "./sandbox-file.ts";
import { UsageError } from "./usage-error.ts";

type FlagValue = string | boolean | string[] | undefined;

export interface TargetSources {
  /** The command's flag values, with the config file's target beneath them. */
  values: Readonly<Record<string, FlagValue>>;
  /** The command's declarations: the environment variable of each flag. */
  declared: Options;
  env: NodeJS.ProcessEnv;
  /** The sandbox to fall back on, asked only when needed (it may read a file, or throw naming why not). */
  sandbox?: () => SandboxCredentials | undefined;
  /** What the sandbox is called in messages ("--sandbox", the sandbox file's path). */
  sandboxSource?: string;
  /** Said after "missing …" when no sandbox filled the gap (e.g. "; or use --sandbox"). */
  missingHint?: string;
}

/** The wallet API part of a target: base URL, the owner's key, the workspace. */
export function resolveApiTarget(sources: TargetSources): ApiTarget {
  return asUsageError(() => {
    const read = reader(sources);
    const target = read.apiTarget();
    read.throwIfMissing();
    return target;
  });
}

/** Everything certify uses. At seed level a sandbox's restricted keys are given (full level creates its own). */
export function resolveTarget(sources: TargetSources, level: "seed" | "full"): Target {
  return asUsageError(() => fullTarget(reader(sources), level));
}

function fullTarget(read: Reader, level: "seed" | "full"): Target {
  const api = read.apiTarget(["rpc-url", "rpc-api-key"]);
  const sandbox = read.sandbox;
  const rawRpcUrl = read.required("rpc-url", sandbox?.rpc_url);
  const rpcApiKey = read.required("rpc-api-key", sandbox?.rpc_api_key);
  read.throwIfMissing();
  const rpcUrl = httpUrl(rawRpcUrl, "--rpc-url");
  const ws = read.pick("ws-url", sandbox?.ws_url);
  const restricted = sandbox && level === "seed" ? sandbox : undefined;
  const other = otherTenant(read, api.admin);
  if (other?.workspaceId !== undefined && other.workspaceId === api.workspaceId) {
    throw new TargetError("--other-workspace-id is the --workspace-id: tenant isolation needs another workspace");
  }
  const solana = read.pick("solana-rpc-url", sandbox?.solana_rpc_url);
  const receiver = read.pick("webhook-receiver-url");
  return {
    ...api,
    rpcUrl,
    wsUrl: ws ? wsUrl(ws, "--ws-url") : defaultWsUrl(rpcUrl),
    rpcApiKey,
    viewer: read.pair("viewer-api-key", "viewer-api-secret", restricted?.viewer_api_key, restricted?.viewer_api_secret),
    scoped: read.pair("scoped-api-key", "scoped-api-secret", restricted?.scoped_api_key, restricted?.scoped_api_secret),
    ...(other ? { other } : {}),
    faucetPrivateKey: read.pick("faucet-private-key", sandbox?.faucet_private_key),
    solanaRpcUrl: solana ? httpUrl(solana, "--solana-rpc-url") : undefined,
    fixtureIds: {
      walletId: read.pick("wallet-id"),
      assetId: read.pick("asset-id"),
      withdrawalId: read.pick("withdrawal-id"),
      deliveryId: read.pick("delivery-id"),
      webhookId: read.pick("webhook-id"),
    },
    webhookReceiverUrl: receiver ? httpUrl(receiver, "--webhook-receiver-url") : undefined,
    ...webhookListen(read.pick("webhook-listen")),
    webhookProfile: webhookProfile(read.pick("webhook-profile")),
  };
}

/** A key of a second workspace: the tenant isolation checks. It must not be the --api-key itself. */
function otherTenant(read: Reader, admin: Credentials): OtherTenant | undefined {
  const sandbox = read.sandbox;
  const credentials = read.pair("other-api-key", "other-api-secret", sandbox?.other_api_key, sandbox?.other_api_secret);
  const workspaceId = read.pick("other-workspace-id", sandbox?.other_workspace_id);
  if (!credentials) {
    if (workspaceId) throw new TargetError("--other-workspace-id needs --other-api-key and --other-api-secret");
    return undefined;
  }
  if (credentials.apiKey === admin.apiKey) {
    throw new TargetError("--other-api-key is the --api-key: tenant isolation needs a key of another workspace");
  }
  return { credentials, ...(workspaceId ? { workspaceId } : {}) };
}

function webhookListen(listen: string | undefined): Pick<Target, "webhookListenHost" | "webhookListenPort"> {
  if (!listen) return {};
  const m = /^(.+):(\d+)$/.exec(listen);
  if (!m) throw new TargetError(`--webhook-listen must be HOST:PORT, not "${listen}"`);
  return { webhookListenHost: m[1].replace(/^\[|\]$/g, ""), webhookListenPort: Number(m[2]) };
}

function webhookProfile(profile: string | undefined): Target["webhookProfile"] {
  if (profile === undefined || profile === "standard-webhooks" || profile === "canonical-json") return profile;
  throw new TargetError(`--webhook-profile must be standard-webhooks or canonical-json, not "${profile}"`);
}

interface Reader {
  /** The sandbox, once the wallet API's credentials needed it (undefined otherwise). */
  readonly sandbox: SandboxCredentials | undefined;
  pick(flag: string, fromSandbox?: string): string | undefined;
  required(flag: string, fromSandbox?: string): string;
  pair(keyFlag: string, secretFlag: string, key?: string, secret?: string): Credentials | undefined;
  apiTarget(alsoRequired?: string[]): ApiTarget;
  throwIfMissing(): void;
}

function reader(sources: TargetSources): Reader {
  const { values, declared, env } = sources;
  const envName = (flag: string): string | undefined => declared[flag]?.env;
  const given = (flag: string): string | undefined => {
    const value = values[flag];
    const text = typeof value === "string" ? value : undefined;
    const name = envName(flag);
    const found = text ?? (name ? env[name] : undefined);
    return found === "" ? undefined : found;
  };
  const missing: string[] = [];
  const order = Object.keys(declared);
  const setting = (flag: string) => (envName(flag) ? `--${flag} (or ${envName(flag)})` : `--${flag}`);
  const core = ["base-url", "api-key", "api-secret"];
  let sandbox: SandboxCredentials | undefined;
  let asked = false;
  const self: Reader = {
    get sandbox() {
      return sandbox;
    },
    pick: (flag, fromSandbox) => given(flag) ?? fromSandbox,
    required(flag, fromSandbox) {
      const value = self.pick(flag, fromSandbox);
      if (!value) missing.push(flag);
      return value ?? "";
    },
    pair(keyFlag, secretFlag, key, secret) {
      const apiKey = self.pick(keyFlag, key);
      const apiSecret = self.pick(secretFlag, secret);
      if (!apiKey && !apiSecret) return undefined;
      if (!apiKey || !apiSecret) throw new TargetError(`--${keyFlag} and --${secretFlag} go together`);
      return { apiKey, apiSecret };
    },
    apiTarget(alsoRequired = []) {
      if (!asked && [...core, ...alsoRequired].some((flag) => !given(flag))) {
        asked = true;
        sandbox = sources.sandbox?.();
      }
      const baseUrl = self.required("base-url", sandbox?.base_url);
      const apiKey = self.required("api-key", sandbox?.api_key);
      const apiSecret = self.required("api-secret", sandbox?.api_secret);
      if (missing.length === 0) httpUrl(baseUrl, "--base-url");
      const workspaceId = self.pick("workspace-id", sandbox?.workspace_id);
      const source = sandbox ? (sources.sandboxSource ?? "the sandbox") : "flags/environment";
      return {
        baseUrl: baseUrl && walletApiBaseUrl(baseUrl.replace(/\/+$/, "")),
        admin: { apiKey, apiSecret },
        workspaceId,
        source,
      };
    },
    throwIfMissing() {
      if (missing.length === 0) return;
      // Listed in the order the command declares its flags, whichever part of the target asked first.
      const settings = missing.sort((a, b) => order.indexOf(a) - order.indexOf(b)).map(setting);
      throw new TargetError(`missing ${settings.join(", ")}${sandbox ? "" : (sources.missingHint ?? "")}`);
    },
  };
  return self;
}

/** Errors of the target are usage errors: the command prints the one line and exits 2. */
function asUsageError<T>(resolve: () => T): T {
  try {
    return resolve();
  } catch (error) {
    if (error instanceof TargetError) throw new UsageError(error.message);
    throw error;
  }
}

/**
 * The target of a command that calls the wallet API (`request`, `trigger`, `mcp`): its flags and
 * environment, else the running sandbox's file.
 */
export function callTarget(
  values: TargetSources["values"],
  declared: TargetSources["declared"],
  env: NodeJS.ProcessEnv,
): ApiTarget {
  const file = sandboxFilePath(env);
  return resolveApiTarget({
    values,
    declared,
    env,
    sandbox: () => runningSandbox(env),
    sandboxSource: file,
    missingHint: `; or start \`custody sandbox\` (it writes ${file})`,
  });
}
