// `custody request`: its declaration (flags, help); the command is ../request.ts.
import { type CommandSpec, HELP_OPTION } from "../options.ts";
import { CREDENTIAL_OPTIONS } from "./signed-call.ts";

export const REQUEST_OPTIONS = {
  param: {
    type: "string",
    multiple: true,
    value: "k=v",
    description: "path parameter (repeatable); workspace_id defaults to the credentials' workspace",
  },
  query: { type: "string", multiple: true, value: "k=v", description: "query parameter (repeatable)" },
  header: {
    type: "string",
    multiple: true,
    value: "k=v",
    description: "extra header (repeatable); operations that take an Idempotency-Key get a fresh one",
  },
  body: {
    type: "string",
    value: "JSON|@file",
    description: "request body: JSON text, @file, or @- for standard input",
  },
  curl: { type: "boolean", description: "print the signed curl command line instead of sending (valid for 5 minutes)" },
  ...CREDENTIAL_OPTIONS,
  ...HELP_OPTION,
} as const;

export const REQUEST_COMMAND: CommandSpec<typeof REQUEST_OPTIONS> = {
  name: "request",
  summary: "send one signed wallet API call (operationId or METHOD PATH)",
  usage: ["custody request <operationId | METHOD PATH> [options]"],
  arguments: [
    { name: "<operationId>", description: "an operation of the spec, e.g. listWallets" },
    { name: "METHOD PATH", description: "or a method and path, e.g. GET /api/v1/networks" },
  ],
  options: REQUEST_OPTIONS,
  notes: ["Without credentials, the running `custody sandbox`'s owner key is used (from the file it writes)."],
  examples: [
    "custody request listWallets",
    'custody request createWallet --body \'{"name":"ops"}\'',
    "custody request getWalletOverview --param wallet_id=wal_…",
    "custody request GET /api/v1/networks --curl",
  ],
  exitStatus: "0 for a 2xx answer, 1 for any other, 2 for bad usage",
};
