// `custody replay`: its declaration (flags, help); the command is ../replay.ts.
import { type CommandSpec, HELP_OPTION } from "../options.ts";

export const REPLAY_OPTIONS = {
  check: { type: "string", value: "ID", description: "replay this check's request (default: every failed check's)" },
  "base-url": {
    type: "string",
    value: "URL",
    description: "send to this origin instead of the recorded one (e.g. a restarted sandbox)",
  },
  "api-key": { type: "string", value: "KEY", env: "CUSTODY_API_KEY", description: "sign with this key id" },
  "api-secret": {
    type: "string",
    value: "SECRET",
    env: "CUSTODY_API_SECRET",
    secret: true,
    description: "and its secret",
  },
  "rpc-api-key": {
    type: "string",
    value: "KEY",
    env: "CUSTODY_RPC_API_KEY",
    secret: true,
    description: "node access key for recorded JSON-RPC requests",
  },
  ...HELP_OPTION,
} as const;

export const REPLAY_COMMAND: CommandSpec<typeof REPLAY_OPTIONS> = {
  name: "replay",
  summary: "re-send a failed check's recorded request, signed now (certify --json report)",
  usage: ["custody replay REPORT.json [--check ID] [--base-url U] [--api-key K --api-secret S] [--rpc-api-key RK]"],
  about:
    "Re-sends the recorded request of each failed check of a JSON report (certify --json), or of the one\ncheck --check names, signed now, and prints the recorded answer beside the new one.",
  arguments: [{ name: "REPORT.json", description: "a report written by custody certify --json FILE" }],
  options: REPLAY_OPTIONS,
  exitStatus: "0 every chosen request was sent, 2 bad usage or an unreadable report",
};
