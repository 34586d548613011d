// docs/reference/diff-checks.md: every check id `custody diff` reports, from diff/catalog.ts.
import { CHECKS, SCHEMA_CHECKS, SUBJECTS, schemaCheckId } from "../../diff/catalog.ts";
import { generatedNote, table } from "./markdown.ts";

export function diffChecksPage(): string {
  const subjects = Object.values(SUBJECTS);
  const renamed = subjects.flatMap((s) =>
    Object.keys(SCHEMA_CHECKS)
      .filter((suffix) => schemaCheckId(s, true, suffix) !== `${s.prop}-${suffix}`)
      .map((suffix) => [`\`${s.prop}-${suffix}\``, `\`${schemaCheckId(s, true, suffix)}\``]),
  );
  return [
    "# custody diff checks",
    "",
    generatedNote("diff/catalog.ts"),
    "",
    "Every change `custody diff` reports has one of these ids and a level: **breaking** (the next SDK is a major version), " +
      "**warning** or **info**. How the levels are decided: [spec evolution](../explanation/spec-diff.md); how to use it: " +
      "[review a spec change](../guides/review-a-spec-change.md).",
    "",
    "## Operations, parameters, bodies, statuses, security, webhooks, JSON-RPC methods",
    "",
    ...table(
      ["check id", "level", "what changed"],
      Object.entries(CHECKS).map(([id, c]) => [`\`${id}\``, c.level, c.about]),
    ),
    "",
    "## Schema checks",
    "",
    "Schema checks exist once per subject: the id is the subject's prefix (at the top of the schema, or for a property below it) plus a suffix " +
      "(`response-property-enum-value-added`, `rpc-param-type-changed`, `webhook-payload-became-nullable`). The level depends on the direction: " +
      "what the client sends may only get looser, what it receives only tighter.",
    "",
    ...table(
      ["subject", "top-level prefix", "property prefix", "direction"],
      subjects.map((s) => [s.label, `\`${s.root}-\``, `\`${s.prop}-\``, s.dir === "request" ? "sent" : "received"]),
    ),
    "",
    ...table(
      ["suffix", "sent by the client", "received by the client", "what changed"],
      Object.entries(SCHEMA_CHECKS).map(([suffix, [sent, received, about]]) => [
        `\`${suffix}\``,
        sent,
        received,
        about,
      ]),
    ),
    "",
    "Property additions and removals of request and response bodies are named as oasdiff names them:",
    "",
    ...table(["would be", "is reported as"], renamed),
    "",
  ].join("\n");
}
