// A port for a server whose address a test must know before the server listens (the runner's webhook
// receiver behind a fault proxy, a receiver URL registered ahead of time).
//
// Asking the OS for port 0 and closing it again is not enough: the kernel hands the same ephemeral range
// to every port-0 listen and to the local end of every outgoing connection, so with the suite's workers
// busy another socket can take the port before the server binds it (a run failed with EADDRINUSE on
// 127.0.0.1:36475). Ports below the ephemeral range are only ever taken by an explicit listen, so a port
// picked there, checked free and never handed out twice by this process, stays free until it is used.
import { readFileSync } from "node:fs";
import { createServer } from "node:net";

const handedOut = new Set<number>();
const SPAN = 12_000;

/** A port on 127.0.0.1 that nothing listens on now and that the OS does not hand out by itself. */
export async function freePort(): Promise<number> {
  const ceiling = ephemeralLow() - 1;
  const floor = Math.max(1024, ceiling - SPAN);
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = floor + Math.floor(Math.random() * (ceiling - floor + 1));
    if (handedOut.has(port) || !(await canListen(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free port found below ${ceiling + 1} after 100 tries`);
}

/** The first port of Linux's ephemeral range; 32768 elsewhere (below macOS's and Windows' 49152). */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    if (Number.isInteger(low) && low > 2048) return low;
  } catch {
    // not Linux
  }
  return 32_768;
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}
