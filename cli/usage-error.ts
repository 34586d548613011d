/** Thrown by a subcommand for bad flags or arguments: the CLI prints the message and exits 2. */
export class UsageError extends Error {
  override name = "UsageError";
}
