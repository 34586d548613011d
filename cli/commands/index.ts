// Every command's declaration, in the order `custody --help` and docs/reference/cli.md list them.
// Light modules only: reading a declaration never loads the command (nor the sandbox or the generator).
import type { CommandSpec } from "../options.ts";
import { CERTIFY_COMMAND } from "./certify.ts";
import { DIFF_COMMAND } from "./diff.ts";
import { GENERATE_COMMAND } from "./generate.ts";
import { INIT_COMMAND } from "./init.ts";
import { MCP_COMMAND } from "./mcp.ts";
import { MOCK_COMMAND } from "./mock.ts";
import { REPLAY_COMMAND } from "./replay.ts";
import { REQUEST_COMMAND } from "./request.ts";
import { SANDBOX_COMMAND } from "./sandbox.ts";
import { TRIGGER_COMMAND } from "./trigger.ts";

export const COMMAND_SPECS: readonly CommandSpec[] = [
  INIT_COMMAND,
  GENERATE_COMMAND,
  CERTIFY_COMMAND,
  SANDBOX_COMMAND,
  DIFF_COMMAND,
  MOCK_COMMAND,
  REQUEST_COMMAND,
  REPLAY_COMMAND,
  TRIGGER_COMMAND,
  MCP_COMMAND,
];
