// certify inside the deployment's network (examples/certify-image/): the image's entrypoint, run here
// as a plain process. At build time (`--install-only`, the Dockerfile's RUN) it installs the tarball with
// npm into CUSTODY_HOME, production dependencies only; at run time it certifies an independent deployment
// with the target from the environment, with custody as the run's packed tarball installed it (the one
// install every test file of the run shares, test/support/packed-install.ts). The build-time npm is a
// stand-in that records its command line: a second real install of the same tarball cost the run 17 CPU-s
// and 40 s. What only that install showed is npm's own handling of --prefix and --omit=dev, and that
// certify runs without the users' dev tools the shared install adds beside custody: typescript (a
// dependency of custody's own anyway), and @types/node, @types/ws and Prism, which certify does not load.
// The Dockerfile's instructions and the Kubernetes Job manifest (its batch/v1 Job fields, the Service in
// front of the receiver) are checked as files. No docker engine runs here, so the image itself is not
// built by this test.
import { spawn } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { run as init } from "../cli/init.ts";
import type { Report } from "../conformance/report/model.ts";
import { freePort } from "./support/free-port.ts";
import { packedInstall } from "./support/packed-install.ts";
import { fixtureFlags } from "./support/seed-only-flags.ts";
import { startSeedOnlyTarget } from "./support/seed-only-target.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const IMAGE = join(ROOT, "examples", "certify-image");
const work = mkdtempSync(join(tmpdir(), "custody-image-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The entrypoint as the container runs it, with this environment; resolves to its exit status and output. */
function entrypoint(env: NodeJS.ProcessEnv, args: string[] = []): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(IMAGE, "entrypoint.mjs"), ...args], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (out += c.toString()));
    child.on("exit", (code) => resolve({ code: code ?? 2, out }));
  });
}

/** A folder with an `npm` that writes its arguments, one per line, to `argsFile` and exits with `exit`. */
function recordingNpm(name: string, argsFile: string, exit: number): string {
  const bin = join(work, name);
  mkdirSync(bin);
  writeFileSync(join(bin, "npm"), `#!/bin/sh\nprintf '%s\\n' "$@" > '${argsFile}'\nexit ${exit}\n`);
  chmodSync(join(bin, "npm"), 0o755);
  return bin;
}

describe("the certify image", () => {
  it("at build time (--install-only) it runs npm once, production dependencies only, and says in one line when npm fails or the tarball is missing", async () => {
    const tarball = join(work, "custody.tgz");
    writeFileSync(tarball, "");
    const home = join(work, "build-home");
    const argsFile = join(work, "npm-args");
    const npm = recordingNpm("npm-ok", argsFile, 0);
    const built = await entrypoint(
      { PATH: `${npm}${delimiter}${process.env.PATH}`, CUSTODY_HOME: home, CUSTODY_TARBALL: tarball },
      ["--install-only"],
    );
    expect(built).toEqual({ code: 0, out: "" });
    expect(readFileSync(argsFile, "utf8").trim().split("\n")).toEqual([
      "install",
      "--prefix",
      home,
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      "--omit=dev",
      "--ignore-scripts",
      tarball,
    ]);
    expect(existsSync(home)).toBe(true);
    // npm failing, or no tarball: exit 2 and the reason in one line.
    const failing = recordingNpm("npm-fails", join(work, "npm-args-2"), 1);
    const failed = await entrypoint(
      { PATH: `${failing}${delimiter}${process.env.PATH}`, CUSTODY_HOME: home, CUSTODY_TARBALL: tarball },
      ["--install-only"],
    );
    expect(failed).toEqual({ code: 2, out: `certify image: npm install ${tarball} exited 1\n` });
    const missing = join(work, "no-such.tgz");
    const none = await entrypoint({ CUSTODY_HOME: home, CUSTODY_TARBALL: missing }, ["--install-only"]);
    expect(none.code).toBe(2);
    expect(none.out).toMatch(/^certify image: no custody tarball at .*no-such\.tgz/);
  });

  it("at run time its entrypoint certifies a deployment with the target from the environment, with custody installed from the tarball", {
    timeout: 900_000,
  }, async () => {
    // The image's home after its build: custody installed from the run's packed tarball.
    const home = join(work, "home");
    mkdirSync(home);
    symlinkSync(join((await packedInstall()).project, "node_modules"), join(home, "node_modules"), "dir");
    const receiverPort = await freePort();
    const t = await startSeedOnlyTarget(`http://127.0.0.1:${receiverPort}/hooks`);
    try {
      const config = join(work, "config");
      const fixtures = [...fixtureFlags(t, `http://127.0.0.1:${receiverPort}`), "--restricted-keys"];
      await init(["--base-url", t.baseUrl, "--rpc-url", t.rpcUrl, ...fixtures], {
        cwd: config,
        stdout: () => undefined,
      });
      const reports = join(work, "reports");
      const { code, out } = await entrypoint({
        CUSTODY_HOME: home,
        // Never read: custody is installed, so the entrypoint does not install again.
        CUSTODY_TARBALL: join(work, "no-tarball-needed.tgz"),
        CUSTODY_TARGET: "staging",
        CUSTODY_CONFIG: join(config, "custody.config.yaml"),
        CUSTODY_REPORTS: reports,
        STAGING_API_KEY: t.owner.apiKey,
        STAGING_API_SECRET: t.owner.apiSecret,
        STAGING_RPC_API_KEY: t.rpcApiKey,
        STAGING_VIEWER_API_KEY: t.viewer.apiKey,
        STAGING_VIEWER_API_SECRET: t.viewer.apiSecret,
        STAGING_SCOPED_API_KEY: t.scoped.apiKey,
        STAGING_SCOPED_API_SECRET: t.scoped.apiSecret,
        STAGING_OTHER_API_KEY: t.other.apiKey,
        STAGING_OTHER_API_SECRET: t.other.apiSecret,
      });
      expect(out).toMatch(/CERTIFIED at level seed/);
      expect(code).toBe(0);
      const report = JSON.parse(readFileSync(join(reports, "certify.json"), "utf8")) as Report;
      expect(report.summary.verdict).toBe("certified");
      expect(report.summary.target.base_url).toBe(t.baseUrl);
    } finally {
      await t.close();
    }
  });

  it.skip("builds with docker: no docker engine on the machine this suite runs on; build it with `npm pack && docker build -f examples/certify-image/Dockerfile .`", () =>
    undefined);

  it("its Dockerfile copies the tarball and the entrypoint, installs at build time and runs the entrypoint", () => {
    const instructions = readFileSync(join(IMAGE, "Dockerfile"), "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "" && !l.startsWith("#"))
      .map((l) => [l.split(" ")[0], l.slice(l.indexOf(" ") + 1)] as const);
    const known = new Set([
      "FROM",
      "WORKDIR",
      "COPY",
      "RUN",
      "ENV",
      "VOLUME",
      "EXPOSE",
      "USER",
      "ENTRYPOINT",
      "CMD",
      "ARG",
      "LABEL",
    ]);
    for (const [op] of instructions) expect(known.has(op), op).toBe(true);
    expect(instructions[0][0]).toBe("FROM");
    expect(Number(/^node:(\d+)/.exec(instructions[0][1])?.[1])).toBeGreaterThanOrEqual(20);
    const copies = instructions.filter(([op]) => op === "COPY").map(([, arg]) => arg.split(" "));
    expect(copies).toContainEqual(["custody-*.tgz", "/opt/custody/custody.tgz"]);
    expect(copies).toContainEqual(["examples/certify-image/entrypoint.mjs", "/opt/custody/entrypoint.mjs"]);
    expect(instructions).toContainEqual(["RUN", "node /opt/custody/entrypoint.mjs --install-only"]);
    expect(JSON.parse(instructions.find(([op]) => op === "ENTRYPOINT")![1])).toEqual([
      "node",
      "/opt/custody/entrypoint.mjs",
    ]);
  });

  it("its Kubernetes Job has the batch/v1 Job shape, and its Service reaches the receiver it announces", () => {
    const docs = parseAllDocuments(readFileSync(join(IMAGE, "job.yaml"), "utf8")).map(
      (d) => d.toJS() as Record<string, any>,
    );
    const job = docs.find((d) => d.kind === "Job")!;
    const service = docs.find((d) => d.kind === "Service")!;
    expect(job.apiVersion).toBe("batch/v1");
    expect(typeof job.metadata.name).toBe("string");
    expect(Number.isInteger(job.spec.backoffLimit)).toBe(true);
    const pod = job.spec.template.spec;
    expect(["Never", "OnFailure"]).toContain(pod.restartPolicy);
    const [container] = pod.containers;
    expect(container.name).toMatch(/^[a-z0-9-]+$/);
    expect(typeof container.image).toBe("string");
    for (const e of container.env)
      expect(
        typeof e.name === "string" &&
          (typeof e.value === "string" || typeof e.valueFrom?.secretKeyRef?.key === "string"),
        JSON.stringify(e),
      ).toBe(true);
    const mounts = container.volumeMounts.map((m: { name: string }) => m.name);
    expect(pod.volumes.map((v: { name: string }) => v.name).sort()).toEqual([...mounts].sort());
    expect(
      Object.keys(job.spec).filter(
        (k) =>
          ![
            "template",
            "backoffLimit",
            "activeDeadlineSeconds",
            "ttlSecondsAfterFinished",
            "completions",
            "parallelism",
          ].includes(k),
      ),
    ).toEqual([]);
    expect(service.apiVersion).toBe("v1");
    expect(service.spec.selector).toEqual(job.spec.template.metadata.labels);
    const receiver = container.args[container.args.indexOf("--webhook-receiver-url") + 1];
    expect(new URL(receiver).hostname).toBe(service.metadata.name);
    expect(service.spec.ports[0].port).toBe(Number(new URL(receiver).port));
    expect(container.args[container.args.indexOf("--webhook-listen") + 1]).toBe(
      `0.0.0.0:${container.ports[0].containerPort}`,
    );
  });
});
