// JSON pointers (RFC 6901) as used by $ref: "#/components/schemas/Foo".

export function escapeToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

export function unescapeToken(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** "/a/b~1c" from ["a", "b/c"]. */
export function toPointer(tokens: readonly (string | number)[]): string {
  return tokens.map((t) => `/${escapeToken(String(t))}`).join("");
}

/** Tokens of a local ref ("#/a/b" → ["a","b"]); undefined when the ref is not local. */
export function refTokens(ref: string): string[] | undefined {
  if (!ref.startsWith("#")) return undefined;
  let pointer = ref.slice(1);
  try {
    pointer = decodeURIComponent(pointer);
  } catch {
    // Not URI-encoded: use as written.
  }
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) return undefined;
  return pointer.slice(1).split("/").map(unescapeToken);
}

/** The value a local ref points to, or undefined when any token is missing. */
export function resolvePointer(root: unknown, ref: string): unknown {
  const tokens = refTokens(ref);
  if (tokens === undefined) return undefined;
  let node: unknown = root;
  for (const token of tokens) {
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}
