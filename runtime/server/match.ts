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

  return {
    match(method, path) {
      if (!path.startsWith("/")) return undefined;
      const parts = path.split("/").slice(1);
      const wanted = method.toUpperCase();
      for (const route of compiled) {
        if (route.method !== wanted || route.segments.length !== parts.length) continue;
        const params = matchSegments(route.segments, parts);
        if (params !== undefined) return { value: route.value, params };
      }
      return undefined;
    },
  };
}

function matchSegments(segments: Segment[], parts: string[]): Record<string, string> | undefined {
  const params: Record<string, string> = Object.create(null);
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    if ("literal" in segment) {
      if (segment.literal !== parts[i]) return undefined;
      continue;
    }
    // An empty or undecodable segment never fills a parameter.
    const value = parts[i] === "" ? undefined : decodeSegment(parts[i]);
    if (value === undefined) return undefined;
    params[segment.param] = value;
  }
  return { ...params };
}
