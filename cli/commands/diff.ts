// `custody diff`: its declaration (flags, help); the command is ../diff.ts.
import { type CommandSpec, HELP_OPTION } from "../options.ts";

export const DIFF_OPTIONS = {
  "rpc-old": {
    type: "string",
    value: "FILE",
    description: "OpenRPC document before (file or git:REF:path); needs --rpc-new",
  },
  "rpc-new": { type: "string", value: "FILE", description: "OpenRPC document after" },
  format: { type: "string", value: "F", description: "text, markdown, json or junit", default: "text" },
  "fail-on": {
    type: "string",
    value: "L",
    description: "exit 1 when a change is at least L: breaking or warning; none: report only, exit 0",
    default: "breaking",
  },
  validate: {
    type: "boolean",
    description: "also validate both documents against the OpenAPI schema (slower on big documents)",
  },
  ...HELP_OPTION,
} as const;

export const DIFF_COMMAND: CommandSpec<typeof DIFF_OPTIONS> = {
  name: "diff",
  summary: "what a spec change breaks: old vs new (file or git:REF:path)",
  usage: [
    "custody diff <old> <new> [--rpc-old FILE --rpc-new FILE] [--format text|markdown|json|junit] [--fail-on breaking|warning|none] [--validate]",
  ],
  arguments: [
    {
      name: "<old> <new>",
      description: "OpenAPI 3.0/3.1 documents: files, or git:REF:path (e.g. git:main:spec/openapi.yaml)",
    },
  ],
  options: DIFF_OPTIONS,
  examples: [
    "custody diff git:main:spec/openapi.yaml spec/openapi.yaml",
    "custody diff git:HEAD~1:spec/openapi.yaml spec/openapi.yaml --format markdown > api-changes.md",
  ],
  exitStatus: "0 nothing at or above --fail-on, 1 found, 2 bad usage or an unreadable document",
};
