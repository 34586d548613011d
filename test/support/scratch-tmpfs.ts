// Where the test run's scratch folders go: every file makes its projects, installs and chain states under
// os.tmpdir(), and on Linux that is /tmp, a disk filesystem. Where the machine has a tmpfs at /dev/shm,
// the run gets a folder of its own there instead (TMPDIR, read by os.tmpdir() in this process, the workers
// it forks and every child they start), removed when the run ends. On the 2-core machine CI runs on, /tmp is
// ext4 mounted with `discard`: the npm install of the packed tarball cost 12.1 s user + 22.9 s system
// there and 11.9 + 11.6 on /dev/shm, its removal 0.6 s of system time against 0.25 (sequential, quiet).
// A TMPDIR set by the caller is kept: it is theirs to choose. CUSTODY_TEST_TMPFS=0 keeps the default.
import { accessSync, constants, mkdtempSync, rmSync, statfsSync } from "node:fs";
import { join } from "node:path";

const TMPFS = "/dev/shm";
/** statfs(2)'s f_type of a tmpfs. */
const TMPFS_MAGIC = 0x01021994;

/** Points TMPDIR at a folder of this run on tmpfs, when there is one and nobody chose TMPDIR; returns it. */
export function useTmpfsScratch(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.TMPDIR || env.CUSTODY_TEST_TMPFS === "0" || !isWritableTmpfs(TMPFS)) return undefined;
  const dir = mkdtempSync(join(TMPFS, "custody-test-"));
  env.TMPDIR = dir;
  // The run's main process is the last to exit: its workers and their children are gone by then.
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function isWritableTmpfs(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return statfsSync(path).type === TMPFS_MAGIC;
  } catch {
    return false;
  }
}
