#!/usr/bin/env node
// The entrypoint of the certify image (Dockerfile beside it): installs custody from the packed tarball
// when it is not installed yet (the image does it once at build time), then runs `custody certify`
// inside the deployment's network, where the deployment reaches the receiver directly.
//   CUSTODY_TARGET   a target of the config file (CUSTODY_CONFIG, default /config/custody.config.yaml);
//                    without it, certify reads CUSTODY_BASE_URL, CUSTODY_API_KEY, ... itself
//   CUSTODY_LEVEL    seed (default) or full
//   CUSTODY_REPORTS  where the JSON, JUnit and HTML reports go (default /reports)
//   CUSTODY_TARBALL  the packed tarball (default /opt/custody/custody.tgz); CUSTODY_HOME where it is installed
// Arguments are passed on to certify. The exit status is certify's (0, 1, 2, 3).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";

const env = process.env;
const home = env.CUSTODY_HOME || "/opt/custody";
const bin = join(home, "node_modules", "custody", "bin", "custody.js");

/** npm install of the tarball into CUSTODY_HOME; the packages it needs come from the npm cache when there. */
function install() {
  const tarball = env.CUSTODY_TARBALL || join(home, "custody.tgz");
  if (!existsSync(tarball)) fail(`no custody tarball at ${tarball} (npm pack makes one; CUSTODY_TARBALL names it)`);
  mkdirSync(home, { recursive: true });
  const npm = spawnSync(
    "npm",
    [
      "install",
      "--prefix",
      home,
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      "--omit=dev",
      "--ignore-scripts",
      tarball,
    ],
    { stdio: ["ignore", "inherit", "inherit"] },
  );
  if (npm.status !== 0) fail(`npm install ${tarball} exited ${npm.status}`);
}

/** certify's arguments from the environment, then the container's own. */
export function certifyArgs(e, extra) {
  const reports = e.CUSTODY_REPORTS || "/reports";
  const args = ["certify", "--level", e.CUSTODY_LEVEL || "seed"];
  if (e.CUSTODY_TARGET)
    args.push("--target", e.CUSTODY_TARGET, "--config", e.CUSTODY_CONFIG || "/config/custody.config.yaml");
  args.push(
    "--json",
    join(reports, "certify.json"),
    "--junit",
    join(reports, "certify.xml"),
    "--html",
    join(reports, "certify.html"),
    "--no-color",
  );
  return [...args, ...extra];
}

function fail(message) {
  process.stderr.write(`certify image: ${message}\n`);
  process.exit(2);
}

if (!existsSync(bin)) install();
if (process.argv[2] === "--install-only") process.exit(0);
const run = spawnSync(process.execPath, [bin, ...certifyArgs(env, process.argv.slice(2))], { stdio: "inherit", env });
process.exit(run.status ?? 2);
