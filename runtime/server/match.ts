// Path matching for the router. Literal segments outrank templated ones position by position, so
// /wallets/creation-status/{id} wins over /wallets/{wallet_id}/... (OpenAPI's matching rule).

type Segment = { literal: string } | { param: string };

export interface CompiledRoute<T> {
  method: string;
  segments: Segment[];
  value: T;
}

export interface RouteMatch<T> {
  value: T;
  params: Record<string, string>;
}

export interface Matcher<T> {
  match(method: string, path: string): RouteMatch<T> | undefined;
}

function compileTemplate(template: string): Segment[] {
  return template
    .split("/")
    .slice(1)
    .map((part) => {
      const param = /^\{([^{}]+)\}$/.exec(part);
      return param ? { param: param[1] } : { literal: part };
    });
}

/**
 * Negative when `a` is more specific. Only routes of equal length can compete for a path; among them
 * the first position where one is literal and the other is not decides. Length first keeps the order total.
 */
function compareSpecificity(a: Segment[], b: Segment[]): number {
  if (a.length !== b.length) return a.length - b.length;
  for (let i = 0; i < a.length; i++) {
    const aLiteral = "literal" in a[i];
    const bLiteral = "literal" in b[i];
    if (aLiteral !== bLiteral) return aLiteral ? -1 : 1;
  }
  return 0;
}

function decodeSegment(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

export function createMatcher<T>(routes: readonly { method: string; path: string; value: T }[]): Matcher<T> {
  const compiled: CompiledRoute<T>[] = routes.map((r) => ({
    method: r.method.toUpperCase(),
    segments: compileTemplate(r.path),
    value: r.value,
  }));
  // Sorted once (stable), so the first route that matches is the most specific one.
  compiled.sort((a, b) => compareSpecificity(a.segments, b.segments));
  // Grouped by method and segment count (order kept), so a request only tries routes that can match.
  const byMethod = new Map<string, CompiledRoute<T>[][]>();
  for (const route of compiled) {
    const byLength = byMethod.get(route.method) ?? [];
    byMethod.set(route.method, byLength);
    (byLength[route.segments.length] ??= []).push(route);
  }

  return {
    match(method, path) {
      if (!path.startsWith("/")) return undefined;
      // parts[0] is the empty string before the leading slash.
      const parts = path.split("/");
      const candidates = byMethod.get(method.toUpperCase())?.[parts.length - 1];
      if (candidates === undefined) return undefined;
      for (const route of candidates) {
        const params = matchSegments(route.segments, parts);
        if (params !== undefined) return { value: route.value, params };
      }
      return undefined;
    },
  };
}

/** `parts` is the split path including the empty first element, so segment i is parts[i + 1]. */
function matchSegments(segments: Segment[], parts: string[]): Record<string, string> | undefined {
  let params: Record<string, string> | undefined;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    const part = parts[i + 1];
    if ("literal" in segment) {
      if (segment.literal !== part) return undefined;
      continue;
    }
    // An empty or undecodable segment never fills a parameter; without a % there is nothing to decode.
    const value = part === "" ? undefined : part.includes("%") ? decodeSegment(part) : part;
    if (value === undefined) return undefined;
    params ??= {};
    // Defined, not assigned, so that a parameter named __proto__ stays a plain key.
    if (segment.param === "__proto__")
      Object.defineProperty(params, segment.param, { value, enumerable: true, writable: true, configurable: true });
    else params[segment.param] = value;
  }
  return params ?? {};
}
