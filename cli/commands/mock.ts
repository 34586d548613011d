// `custody mock`: its declaration (flags, help, config keys); the command is ../mock.ts.
import { CONFIG_OPTION, type CommandSpec, HELP_OPTION } from "../options.ts";

/** Prism is an optional peer dependency: only `custody mock` needs it. */
export const PRISM_PACKAGE = "@stoplight/prism-cli";
export const PRISM_INSTALL = `npm install ${PRISM_PACKAGE}@5.14.2`;
export const MOCK_DEFAULT_PORT = 4010;
export const MOCK_DEFAULT_HOST = "127.0.0.1";

export const MOCK_OPTIONS = {
  port: {
    type: "string",
    value: "P",
    description: "port to listen on (0 picks a free one)",
    default: String(MOCK_DEFAULT_PORT),
  },
  host: { type: "string", value: "H", description: "address to listen on", default: MOCK_DEFAULT_HOST },
  spec: {
    type: "string",
    value: "FILE",
    path: true,
    description: "OpenAPI document to serve",
    default: "./spec/openapi.yaml, else the one custody ships",
  },
  "cors-origin": {
    type: "string",
    multiple: true,
    value: "O",
    description: "origin allowed from a browser, e.g. http://localhost:5173 (repeat or\ncomma-separate)",
    default: "'*', any origin",
  },
  ...CONFIG_OPTION,
  ...HELP_OPTION,
} as const;

export const MOCK_COMMAND: CommandSpec<typeof MOCK_OPTIONS> = {
  name: "mock",
  summary: "serve a Prism mock of spec/openapi.yaml",
  usage: ["custody mock [--port P] [--host H] [--spec FILE] [--cors-origin O]"],
  about: `Serves a Prism mock of the wallet API (every operation answers with its example), its API reference\nat /docs, and CORS so that a frontend on another origin can call it. Prism is an optional peer:\n${PRISM_INSTALL}`,
  options: MOCK_OPTIONS,
  exitStatus: "0 stopped by SIGINT or SIGTERM, 1 Prism exited, 2 bad usage (a taken port included)",
  configSection: "mock",
};
