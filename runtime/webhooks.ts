// The webhook side of the runtime alone, for generated webhooks.ts built with `--runtime package`:
// verification and parsing of deliveries. Nothing here reaches the server, the wallet API client's
// transport or a static node: import (see runtime/webhooks/ed25519.ts).
export * from "./webhooks/event.ts";
export * from "./webhooks/signature.ts";
