// Which test files run in a fresh process each (vitest's isolation) and which share a worker process with
// other files. Sharing saves each file the start of a process and the loading of custody's modules again
// (about a second of CPU per file); a file may share only when it leaves nothing behind in the process.
// test/architecture.test.ts holds the list to the rule: a file that mocks a module or sets a global or an
// environment variable by hand must be listed here (vi.stubEnv and vi.stubGlobal need not: the shared
// project undoes them, vitest.config.ts).

/** Files that change what the whole process sees, or that failed when sharing one. */
export const FRESH_PROCESS_FILES = [
  // vi.mock of a module other files use (node:crypto), and a file that also sets CUSTODY_SANDBOX_FILE.
  // A vi.spyOn (of console, of fetch) does not keep a file apart: the shared project restores every spy
  // before each test (restoreMocks in vitest.config.ts).
  "test/hardening-auth.test.ts",
  "test/frontend-cli.test.ts",
  // An environment variable the sandbox reads when it first loads LiteSVM, which another file of a shared
  // process may have done already.
  "test/reference-solana-absent.test.ts",
  // Globals, set by the scripts this file writes, in their own processes (which the rule cannot tell apart).
  "test/sdk-runtimes.test.ts",
  // a @solana/web3.js Connection reconnects its WebSocket for the life of the process (its API has no close)
  "test/sdk-solana.test.ts",
  "test/solana-rpc.test.ts",
  // SIGKILLs the sandbox it started and waits for its chain node to stop: kept alone in its process (it
  // failed once, in a shared worker, with withdrawals its restart reported as failed; cause not found)
  "test/reference-crash.test.ts",
  // A certify run and the deployment it judges share the file's event loop, judged by time-bound waits.
  // Until 2026-11-28 every conformance-* and certify-* file ran apart: two of three CI runs with them
  // shared had failed on such a wait, in these two files (webhooks.delete-stops-delivery seeing an event
  // after its fixed 2 s in-flight grace). That grace now follows the deployment's own delivery lag
  // (conformance/checks/webhooks/after-delete.ts), and the other files of the families share (a fresh
  // process cost each about 1.6 CPU-s of starting and loading custody's modules again); these two stay
  // apart until they too have passed shared under load.
  "test/certify-first-run.test.ts",
  "test/certify-baseline.test.ts",
];

/** The include patterns of the fresh project (vitest.config.ts). */
export const FRESH_PROCESS_GLOBS = FRESH_PROCESS_FILES;

/** True when `file` (test/….test.ts) runs in a fresh process. */
export function runsFresh(file: string): boolean {
  return FRESH_PROCESS_FILES.includes(file);
}

/** What makes a file leave something behind in its process (the rule above). */
export const PROCESS_WIDE =
  /vi\.(mock|doMock)\(|globalThis\.[A-Za-z]+ *=[^=]|process\.env(\.[A-Z_]+|\[[^\]]+\]) *=[^=]|delete process\.env|process\.chdir\(|setGlobalDispatcher\(|new Connection\(/;

/** Lines the rule must tell apart (here, not in the test, whose text the rule reads). */
export const PROCESS_WIDE_EXAMPLES: [line: string, leavesSomething: boolean][] = [
  ['vi.mock("node:crypto", async () => ({}))', true],
  ['vi.spyOn(console, "log")', false],
  ['vi.stubEnv("CUSTODY_LOG_LEVEL", "loud")', false],
  ["globalThis.WebSocket = FakeSocket;", true],
  ["process.env.CUSTODY_LOG_LEVEL = 'loud';", true],
  ["delete process.env.CUSTODY_LOG_LEVEL;", true],
  ["const env = { ...process.env, CUSTODY_COMPILED: undefined };", false],
  ["if (globalThis.WebSocket === undefined) return;", false],
  ['connection = new Connection(url, "confirmed");', true],
  ["const level = process.env.CUSTODY_LOG_LEVEL ?? 'info';", false],
];
