// The sandbox console at /console/ (and / redirects there): a plain HTML page with ES modules that
// drives the wallet API from the browser, signing with the owner key the sandbox generated. The key
// is handed to the page by /console/config.json, which carries no CORS headers (other origins cannot
// read it) and answers only when the Host header names this sandbox (no DNS-rebinding reads).
import type { IncomingMessage, ServerResponse } from "node:http";
import { packageFile } from "./locate.ts";
import { redirect, sendAsset } from "./static.ts";

export interface ConsoleConfig {
  workspace_id: string;
  api_key: string;
  api_secret: string;
  key_role: string;
}

export interface ConsolePageOptions {
  /** operationId → method and path template: what the page's call() needs. */
  operations: ReadonlyArray<{ operationId: string; method: string; path: string }>;
  config: ConsoleConfig;
  /** Host names the config is handed to (besides localhost, 127.0.0.1 and ::1). */
  hosts?: readonly string[];
}

const FILES = ["index.html", "console.js", "adapter.js", "signing.js", "console.css"];

function hostName(hostHeader: string | undefined): string | undefined {
  if (hostHeader === undefined) return undefined;
  try {
    return new URL(`http://${hostHeader}`).hostname.replace(/^\[|\]$/g, "");
  } catch {
    return undefined;
  }
}

export function createConsolePage(options: ConsolePageOptions): (req: IncomingMessage, res: ServerResponse) => boolean {
  const hosts = new Set(["localhost", "127.0.0.1", "::1", ...(options.hosts ?? [])]);
  const operations = Buffer.from(
    JSON.stringify(
      Object.fromEntries(options.operations.map((o) => [o.operationId, { method: o.method, path: o.path }])),
    ),
  );
  const config = Buffer.from(JSON.stringify(options.config));
  return (req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    const target = (req.url ?? "").split("?")[0];
    if (target === "/" || target === "/console") {
      redirect(res, "/console/");
      return true;
    }
    if (!target.startsWith("/console/")) return false;
    const name = target.slice("/console/".length) || "index.html";
    if (name === "operations.json") sendAsset(res, req.method, name, operations);
    else if (name === "config.json") {
      if (!hosts.has(hostName(req.headers.host) ?? "")) {
        res.writeHead(403, { "content-type": "text/plain; charset=utf-8" });
        res.end("the console's key is handed out only to pages loaded from this sandbox's own host name\n");
        return true;
      }
      sendAsset(res, req.method, name, config, "no-store"); // a secret: never kept by a cache
    } else if (FILES.includes(name)) sendAsset(res, req.method, packageFile("web", "console", name));
    else return false;
    return true;
  };
}
