// Server child: a plain ganache.server (HTTP and WebSocket on one port), the "direct upstream" of the
// gateway benchmark and the node the gateway forwards to.
import ganache from "ganache";
import { announce, failStart } from "./announce.ts";

try {
  const server = ganache.server({ logging: { quiet: true }, chain: { chainId: 1337 } });
  await server.listen(0, "127.0.0.1");
  const { port } = server.address() as { port: number };
  announce({ http_url: `http://127.0.0.1:${port}`, ws_url: `ws://127.0.0.1:${port}` });
} catch (error) {
  failStart(error);
}
