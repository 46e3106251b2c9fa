/**
 * Unknown query parameters: a route refuses any its operation does not list (the same parameters
 * the OpenAPI document shows, openapi/document.ts), naming each and the closest it does take, so
 * `speed=20` for `speed_knots=20` is an error instead of a default silently applied. Routes marked
 * EXTRA_QUERY_IGNORED (the vendor-compatible surface, whose clients send extras; pages for people)
 * and routes left out of the document accept anything.
 */
import { Elysia } from "elysia";
import { ApiError } from "../errors.ts";
import { EXTRA_QUERY_IGNORED, queryParameterNames, type RouteEntry } from "../openapi/document.ts";

const MARK = Object.keys(EXTRA_QUERY_IGNORED)[0]!;

/** How much of an unknown name the refusal repeats. */
const NAME_SHOWN = 64;

/** Edit distance (insertions, deletions, substitutions) between two short names. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length]!;
}

/** The listed name the client most likely meant: one that starts with the other, or at most two edits away. */
export function closestName(given: string, names: readonly string[]): string | undefined {
  const lower = given.toLowerCase();
  const scored = names
    .map((name) => ({ name, d: distance(lower, name) }))
    .filter(
      ({ name, d }) => d <= 2 || (lower.length >= 3 && (name.startsWith(lower) || lower.startsWith(name))),
    );
  return scored.sort((x, y) => x.d - y.d)[0]?.name;
}

/** The refusal naming every unknown parameter, a likely meant one, and what the route takes. */
export function unknownParameters(unknown: readonly string[], names: readonly string[]): ApiError {
  const each = unknown.map((u) => {
    const meant = closestName(u, names);
    // A name of any length is echoed cut short: the message stays a line.
    const shown = u.length > NAME_SHOWN ? `${u.slice(0, NAME_SHOWN)}…` : u;
    return meant ? `\`${shown}\` (did you mean \`${meant}\`?)` : `\`${shown}\``;
  });
  const takes = names.length > 0 ? `this route takes ${names.join(", ")}` : "this route takes none";
  return new ApiError(
    "validation",
    `Unknown query parameter${unknown.length > 1 ? "s" : ""} ${each.join(", ")}; ${takes}.`,
  );
}

/** Each routed operation's listed query names; null where anything goes. */
function listedQuery(routes: () => ReadonlyArray<RouteEntry>) {
  let byRoute: Map<string, ReadonlySet<string> | null> | null = null;
  return (method: string, path: string) => {
    byRoute ??= new Map(
      routes().map((r) => {
        const detail = r.hooks?.detail;
        const free = detail?.hide || (detail && MARK in detail) || r.path.includes("*");
        return [`${r.method} ${r.path}`, free ? null : new Set(queryParameterNames(r))];
      }),
    );
    return (
      byRoute.get(`${method} ${path}`) ?? byRoute.get(`${method === "HEAD" ? "GET" : method} ${path}`) ?? null
    );
  };
}

/** Refuses a query parameter the matched route does not list, before the route's schema is checked. */
export function queryParams(id: string, routes: () => ReadonlyArray<RouteEntry>) {
  const listed = listedQuery(routes);
  return new Elysia({ name: `portolan-query-params-${id}` }).onTransform(
    { as: "global" },
    ({ request, route }) => {
      const q = request.url.indexOf("?");
      if (q < 0) return;
      const names = listed(request.method, route);
      if (!names) return;
      const unknown = [...new Set(new URLSearchParams(request.url.slice(q + 1)).keys())].filter(
        (n) => !names.has(n),
      );
      if (unknown.length > 0) throw unknownParameters(unknown, [...names]);
    },
  );
}
