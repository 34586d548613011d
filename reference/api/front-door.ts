// What the sandbox's wallet API port serves besides the wallet API: the docs page (/docs), the
// console (/console, / redirects there) and the sandbox-only actions (/_sandbox/), with CORS on the
// API and the actions so that a frontend on another origin can call them from a browser.
import type { IncomingMessage, ServerResponse } from "node:http";
import { operationList } from "../../generated/operations.ts";
import { withCors } from "../../runtime/server/cors.ts";
import { type ConsoleConfig, createConsolePage } from "../../web/console-page.ts";
import { createDocsPage } from "../../web/docs-page.ts";
import type { ReferenceApp } from "../app.ts";
import { createSandboxAdmin, SANDBOX_ADMIN_PREFIX, SANDBOX_ADMIN_ROUTES } from "./sandbox-admin.ts";

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** True for the paths this module serves beside the wallet API (pages and sandbox actions). */
export function isFrontDoorPath(path: string): boolean {
  return path === "/" || /^\/(docs|console)(\/|$)/.test(path) || path.startsWith(SANDBOX_ADMIN_PREFIX);
}

export interface FrontDoorOptions {
  /** Allowed CORS origins; default any ("*"). */
  corsOrigins?: readonly string[];
  /** The key the console page acts with, and the faucet of the sandbox actions. */
  console: ConsoleConfig;
  faucetPrivateKey: string;
  embeddedChain: boolean;
  /** The host the sandbox listens on, to which the console hands its key besides loopback names. */
  host: string;
}

export function withFrontDoor(app: ReferenceApp, api: Listener, options: FrontDoorOptions): Listener {
  const docs = createDocsPage();
  const consolePage = createConsolePage({ operations: operationList, config: options.console, hosts: [options.host] });
  const admin = createSandboxAdmin(app, {
    faucetPrivateKey: options.faucetPrivateKey,
    embedded: options.embeddedChain,
  });
  const routes = [...operationList.map((op) => ({ method: op.method, path: op.path })), ...SANDBOX_ADMIN_ROUTES];
  const served = withCors(
    (req, res) => {
      if (!admin(req, res)) api(req, res);
    },
    routes,
    { origins: options.corsOrigins },
  );
  return (req, res) => {
    if (docs(req, res) || consolePage(req, res)) return;
    served(req, res);
  };
}
