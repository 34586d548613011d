// The wallet API of the sandbox: the generated server (routing, HMAC auth, roles/scopes, validation,
// envelopes) with the reference handlers, audited, listening on its own port.

import { operationList } from "../../generated/operations.ts";
import { createServer } from "../../generated/server.ts";
import { custodyVersion } from "../../lib/version.ts";
import { listen } from "../../runtime/server/listen.ts";
import type { ReferenceApp } from "../app.ts";
import { withAudit } from "./audit-calls.ts";
import { type FrontDoorOptions, withFrontDoor } from "./front-door.ts";
import { createHandlers } from "./handlers.ts";

export interface WalletApi {
  /** http://host:port, without /api/v1. */
  url: string;
  close(): Promise<void>;
}

export interface WalletApiOptions {
  host: string;
  port: number;
  logError: (message: string) => void;
  /** Docs, console, sandbox actions and CORS in front of the API; absent: the API alone. */
  frontDoor?: FrontDoorOptions;
}

const VERSION = custodyVersion();

export function createWalletApiListener(app: ReferenceApp, logError: (message: string) => void) {
  const handlers = withAudit(app, createHandlers(app, { version: VERSION }), operationList);
  return createServer(handlers, {
    resolveKey: (keyId) => app.apiKeys.resolve(keyId),
    // Internal errors by name and message only: no stacks, and our messages carry no secrets.
    logger: {
      error: (message, error) =>
        logError(error instanceof Error ? `${message} (${error.name}: ${error.message})` : message),
    },
  });
}

export async function startWalletApi(app: ReferenceApp, opts: WalletApiOptions): Promise<WalletApi> {
  const api = createWalletApiListener(app, opts.logError);
  const running = await listen(opts.frontDoor ? withFrontDoor(app, api, opts.frontDoor) : api, {
    host: opts.host,
    port: opts.port,
  });
  return { url: running.url, close: () => running.close() };
}
