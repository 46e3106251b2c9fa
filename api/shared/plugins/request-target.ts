/**
 * The request target, checked before access or routing: the one reading of it that access
 * decisions and routing share, a path that decodes, a query without NUL, and a method the path
 * allows. Elysia's router takes the path from a fixed offset in request.url
 * (`handler.standardHostname: false` makes that offset 7, just past "http://") and keeps it on the
 * request context; access reads that same value. A URL where the offset would miss the real path
 * (Bun leaves the URL relative when the Host is empty or odd; a Host carrying "?" or "#") is
 * refused before anything else looks at it, so a Host header can never route one path while access
 * judged another.
 */
import { Elysia } from "elysia";
import { ApiError } from "../errors.ts";
import { queryParamWithNul } from "../storable-text.ts";

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
 * Whether the path decodes to UTF-8 text without a NUL: no id, reference or code has one, and
 * PostgreSQL refuses a NUL in any text it is sent (a 500 where SQLite answered 404). The router
 * would hand handlers a null parameter for the others.
 */
export function decodablePath(path: string): boolean {
  if (!path.includes("%")) return true;
  try {
    return !decodeURIComponent(path).includes("\u0000");
  } catch {
    return false;
  }
}

/**
 * What a pre-routing hook reads. Elysia sets `path` (the path the router matches on) on the
 * context before any hook, though its types leave it off pre-routing hooks.
 */
export interface PreRoutingContext {
  request: Request;
  path?: string;
}

export interface TargetOptions {
  /** Paths on which only GET (and HEAD) are allowed; others answer 405 before access. */
  getOnly?: (path: string) => boolean;
}

/** Refuses, with 400 (405 for a method), a target no route could be trusted with. */
export function requestTarget(id: string, opts: TargetOptions = {}) {
  return new Elysia({ name: `portolan-request-target-${id}` }).onRequest(
    ({ request, path: routed }: PreRoutingContext) => {
      const path = routed ?? "/";
      if (!isCanonicalTarget(request.url)) {
        // No Host, or one that would shift where the path starts.
        throw new ApiError("validation", "Malformed request target or Host header.");
      }
      if (!decodablePath(path)) {
        throw new ApiError(
          "validation",
          "The path has malformed percent-encoding (or encodes invalid UTF-8 or a NUL).",
        );
      }
      const nulParam = queryParamWithNul(request.url);
      if (nulParam !== null) {
        throw new ApiError(
          "validation",
          `Query parameter ${nulParam} holds a NUL character, which no field accepts.`,
        );
      }
      if (opts.getOnly?.(path) && request.method !== "GET" && request.method !== "HEAD") {
        throw new ApiError(
          "methodNotAllowed",
          `Method ${request.method} is not allowed here; this API answers GET only.`,
        );
      }
    },
  );
}
