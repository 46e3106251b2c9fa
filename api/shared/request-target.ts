/**
 * The one reading of a request's target that access decisions and routing share. Elysia's router
 * takes the path from a fixed offset in request.url (`handler.standardHostname: false` makes that
 * offset 7, just past "http://") and keeps it on the request context; access reads that same value.
 * A URL where the offset would miss the real path (Bun leaves the URL relative when the Host is
 * empty or odd; a Host carrying "?" or "#") is refused before anything else looks at it, so a Host
 * header can never route one path while access judged another.
 */

/** Elysia options every product app is built with so its router reads targets as below. */
export const ROUTER_HANDLER = { standardHostname: false } as const;

const SCHEME = "http://";

/** Whether the URL is "http://authority/path[?query]" with a plain authority: the only form served. */
export function isCanonicalTarget(url: string): boolean {
  if (!url.startsWith(SCHEME)) return false;
  const slash = url.indexOf("/", SCHEME.length);
  if (slash <= SCHEME.length) return false;
  const authority = url.slice(SCHEME.length, slash);
  return !/[?#\s\\]/.test(authority);
}

/**
 * What the pre-routing hook reads. Elysia sets `path` (the path the router matches on) on the
 * context before any hook, though its types leave it off pre-routing hooks.
 */
export interface PreRoutingContext {
  request: Request;
  set: { headers: Record<string, unknown> };
  server: { requestIP(request: Request): { address: string } | null } | null;
  path?: string;
}
