// Server child: a plain anvil node (HTTP and WebSocket on one port), the "direct upstream" of the
// gateway benchmark and the node the gateway forwards to.
import { anvilBinary, runAnvil } from "../../reference/chain/anvil-process.ts";
import { announce, failStart } from "./announce.ts";

try {
  const run = await runAnvil(anvilBinary(), [
    "--host",
    "127.0.0.1",
    "--port",
    "0",
    "--chain-id",
    "1337",
    "--accounts",
    "0",
  ]);
  announce({ http_url: `http://127.0.0.1:${run.port}`, ws_url: `ws://127.0.0.1:${run.port}` });
  const stop = () => {
    run.child.kill("SIGTERM");
    void run.exited.then(() => process.exit(0));
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
} catch (error) {
  failStart(error);
}
