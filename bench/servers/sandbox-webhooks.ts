// Server child for bench/webhook-isolation.ts: a sandbox with its default webhook delivery (the
// sandbox schedule, the spec's 10 s time-out). Announces its URL, credentials and pid (the harness
// reads the child's CPU time from /proc). The API secret only travels on this private pipe.
import { startSandbox } from "../../reference/sandbox.ts";
import { announce, failStart } from "./announce.ts";

try {
  const sandbox = await startSandbox({
    env: {},
    blockTimeSeconds: 1,
    walletCreationDelayMs: 10,
    logger: { error: (m) => process.stderr.write(`sandbox: ${m}\n`) },
  });
  announce({
    base_url: sandbox.base_url,
    api_key: sandbox.api_key,
    api_secret: sandbox.api_secret,
    workspace_id: sandbox.workspace_id,
    pid: process.pid,
  });
} catch (error) {
  failStart(error);
}
