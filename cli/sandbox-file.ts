// The file a running `custody sandbox` writes its URLs and seeded credentials to, so that `custody
// request` and `custody trigger` (and scripts) can use them without copying. Path: $CUSTODY_SANDBOX_FILE,
// else $XDG_RUNTIME_DIR/custody/sandbox.json, else <tmpdir>/custody-<uid>/sandbox.json. The folder is
// made 0700 and the file 0600 (owner only); the sandbox removes it when it stops.
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { SandboxCredentials } from "../reference/sandbox.ts";
import { UsageError } from "./usage-error.ts";

/** The sandbox's credentials record, with the process that wrote it and its pages. */
export interface SandboxFile extends SandboxCredentials {
  pid: number;
  docs_url: string;
  console_url: string;
}

export function sandboxFilePath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CUSTODY_SANDBOX_FILE) return path.resolve(env.CUSTODY_SANDBOX_FILE);
  if (env.XDG_RUNTIME_DIR) return path.join(env.XDG_RUNTIME_DIR, "custody", "sandbox.json");
  const uid = typeof process.getuid === "function" ? process.getuid() : "user";
  return path.join(os.tmpdir(), `custody-${uid}`, "sandbox.json");
}

export function writeSandboxFile(file: string, content: SandboxFile): void {
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // A shared temp folder: never write credentials into a folder someone else made.
  const stat = lstatSync(dir);
  if (!stat.isDirectory() || (typeof process.getuid === "function" && stat.uid !== process.getuid())) {
    throw new Error(`${dir} is not a folder of this user; set CUSTODY_SANDBOX_FILE to another path`);
  }
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}

/** Removes the file if it is still the one this process wrote (another sandbox may have replaced it). */
export function removeSandboxFile(file: string): void {
  try {
    if ((readSandboxFile(file) as SandboxFile).pid === process.pid) rmSync(file);
  } catch {
    // already gone or unreadable: nothing to clean
  }
}

/** The running sandbox's file, or undefined when there is none. Throws when it exists but is not ours to read. */
export function readSandboxFile(file: string): SandboxFile | undefined {
  if (!existsSync(file)) return undefined;
  const parsed = JSON.parse(readFileSync(file, "utf8")) as SandboxFile;
  if (typeof parsed?.base_url !== "string" || typeof parsed.api_key !== "string")
    throw new Error(`${file} is not a sandbox file (no base_url/api_key)`);
  return parsed;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The running sandbox's file, or undefined; a file left by a sandbox that is gone is refused naming the fix. */
export function runningSandbox(env: NodeJS.ProcessEnv = process.env): SandboxFile | undefined {
  const file = sandboxFilePath(env);
  const found = readSandboxFile(file);
  if (found !== undefined && !pidAlive(found.pid)) {
    throw new UsageError(
      `${file} was written by a sandbox that is no longer running (pid ${found.pid}); start \`custody sandbox\` again`,
    );
  }
  return found;
}
