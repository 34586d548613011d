// The credential flags of the commands that call a deployment (request, trigger): declared once.
import type { Options } from "../options.ts";

const SECTION = "credentials (default: the running sandbox's file, see CUSTODY_SANDBOX_FILE)";

export const CREDENTIAL_OPTIONS = {
  "base-url": {
    type: "string",
    value: "URL",
    env: "CUSTODY_BASE_URL",
    section: SECTION,
    description: "wallet API base (a trailing /api/v1 is accepted)",
  },
  "api-key": { type: "string", value: "KEY", env: "CUSTODY_API_KEY", section: SECTION, description: "HMAC key id" },
  "api-secret": {
    type: "string",
    value: "SECRET",
    env: "CUSTODY_API_SECRET",
    secret: true,
    section: SECTION,
    description: "its secret (prefer the environment variable)",
  },
  "workspace-id": {
    type: "string",
    value: "ID",
    env: "CUSTODY_WORKSPACE_ID",
    section: SECTION,
    description: "the workspace (default: the credentials' workspace)",
  },
} as const satisfies Options;
