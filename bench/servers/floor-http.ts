// Server child: the serving floor. node:http answering every request with one constant body (the
// bytes the sandbox returns for the same call), with the same content type and a request id header.
// With BENCH_FLOOR_COUNT=1 it also answers GET /__bench/requests with how many requests it served
// (the certify section uses it as a fake, instant target and counts what the runner sent).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { announce } from "./announce.ts";

const body = Buffer.from(
  process.env.BENCH_FLOOR_BODY ?? '{"success":true,"message":"success","code":0,"data":[]}',
  "utf8",
);
const headers = {
  "content-type": "application/json; charset=utf-8",
  "content-length": String(body.length),
  "x-request-id": "req_floor",
};
const counting = process.env.BENCH_FLOOR_COUNT === "1";
let served = 0;

const server = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    if (counting && req.url === "/__bench/requests") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ served }));
      return;
    }
    served++;
    res.writeHead(200, headers);
    res.end(body);
  });
});
server.keepAliveTimeout = 60_000;
// A fake target also receives WebSocket upgrades (the rpc group); refuse them at once.
server.on("upgrade", (_req, socket) => socket.end("HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n"));
server.listen(0, "127.0.0.1", () => {
  announce({ base_url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
