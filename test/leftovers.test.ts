// The rule of test/support/leftovers.ts, shown on resources of each kind a test file starts: what is
// still open is named, what was closed (asynchronously) is waited for and not.
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { describe, expect, it } from "vitest";
import { grownSince, leftSince, resources } from "./support/resources.ts";

describe("leftovers", () => {
  it("names a timer left running (counted in one synchronous step: the runner's own timers come and go)", () => {
    const start = resources();
    const timer = setInterval(() => undefined, 1_000);
    const left = grownSince(start);
    clearInterval(timer);
    expect(left).toEqual(["1 × Timeout"]);
    expect(grownSince(start)).toEqual([]);
  });

  it("names a server and a child process left running, and nothing once they are stopped", async () => {
    const start = resources();
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60_000)"], { stdio: "ignore" });
    const left = await leftSince(start, 200);
    expect(left).toEqual(expect.arrayContaining(["1 × TCPServerWrap", "1 × ProcessWrap"]));

    server.close();
    child.kill();
    expect(await leftSince(start, 10_000)).toEqual([]);
  });

  it("is satisfied by a file that started nothing", async () => {
    expect(await leftSince(resources(), 10_000)).toEqual([]);
  });
});
