/**
 * Failures as the product's error envelope: ApiError as thrown, the engine's typed failures mapped,
 * the database gone as 503, unknown paths 404 (405 where the path exists with another method),
 * schema violations as readable 400s, anything else a logged 500 that says nothing more. Every 429
 * and 503 tells the client when to come back.
 */
import { Elysia } from "elysia";
import { log } from "../../../common/log.ts";
import { EngineError } from "../../../engine/errors.ts";
import { TrackingError } from "../../../ingest/tracking/errors.ts";
import { StorageUnavailableError } from "../../../storage/errors.ts";
import { errorBody, jsonResponse } from "../envelopes.ts";
import { ApiError, fromEngine, fromTracking } from "../errors.ts";
import { type ProductDef, type ProductId, productServing } from "../products.ts";
import { describeValidation, queryParameterHolding } from "../validation-message.ts";
import { type Access, caller } from "./access.ts";
import { UNMATCHED } from "./access-log.ts";
import { requestContext } from "./request-id.ts";

/** When a client told the database is unavailable (a restart, a failover) should come back. */
const DATABASE_RETRY_S = 2;

type Routes = () => ReadonlyArray<{ method: string; path: string }>;

/** Whether `path` is routed for a method other than `method`: 405 instead of 404. */
function otherMethods(routes: Routes): (path: string, method: string) => boolean {
  let matchers: Array<{ method: string; re: RegExp }> | null = null;
  return (path, method) => {
    matchers ??= routes().map((r) => ({
      method: r.method,
      re: new RegExp(
        `^${r.path
          .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
          .replace(/:[^/]+/g, "[^/]+")
          .replace(/\*/g, ".*")}/?$`,
      ),
    }));
    return matchers.some((m) => m.method !== method && m.re.test(path));
  };
}

export interface ErrorOptions {
  /** Every path's access, for errors raised before the access hook decided it. */
  accessOf: (path: string) => Access;
  /** The app's routes once all are added (read at the first unknown path). */
  routes: Routes;
  /** Each host's public URL, named when a path belongs to another host. */
  publicUrls?: Record<ProductId, string>;
}

/** The failing request, and the fields its log line carries (never its path's values or query). */
interface Where {
  request: Request;
  path: string;
  fields: Record<string, unknown>;
}

export function errors(def: ProductDef, opts: ErrorOptions) {
  const allowedElsewhere = otherMethods(opts.routes);

  const failureOf = (code: unknown, error: unknown, where: Where): ApiError => {
    const { request, path } = where;
    // Elysia wraps whatever the body parser throws in a ParseError; unwrap ours.
    const cause = (error as { cause?: unknown }).cause;
    if (error instanceof ApiError) return error;
    if (cause instanceof ApiError) return cause;
    if (error instanceof EngineError) return fromEngine(error);
    if (error instanceof TrackingError) return fromTracking(error);
    if (error instanceof StorageUnavailableError) {
      log.warn({ ...where.fields, reason: error.reason }, "database unavailable");
      return new ApiError("overloaded", "The database is unavailable for the moment; retry shortly.", {
        retry_after_seconds: DATABASE_RETRY_S,
      });
    }
    if (code === "NOT_FOUND") {
      if (allowedElsewhere(path, request.method)) {
        return new ApiError("methodNotAllowed", `Method ${request.method} is not allowed on ${path}.`);
      }
      const other = productServing(path);
      return other && other.id !== def.id
        ? new ApiError(
            "notFound",
            `No route ${request.method} ${path} on the ${def.title} host: the ${other.title} host serves it${opts.publicUrls ? ` (${opts.publicUrls[other.id]})` : ""}.`,
          )
        : new ApiError("notFound", `No route ${request.method} ${path}.`);
    }
    if (code === "VALIDATION") {
      return new ApiError(
        "validation",
        describeValidation(error, (value) => queryParameterHolding(request.url, value)),
      );
    }
    if (code === "PARSE") return new ApiError("validation", "Request body could not be parsed.");
    log.error({ ...where.fields, err: error }, "internal error");
    return new ApiError("internal", "Internal error; retry shortly.");
  };

  return new Elysia({ name: `portolan-errors-${def.id}` })
    .use(caller)
    .use(requestContext)
    .onError({ as: "global" }, ({ code, error, request, set, path: routed, route, access, requestId }) => {
      const path = routed ?? "/";
      const fields = {
        product: def.id,
        method: request.method,
        route: route || UNMATCHED,
        request_id: requestId,
      };
      const failure = failureOf(code, error, { request, path, fields });
      set.status = failure.status;
      const wait = failure.extra?.retry_after_seconds;
      const later = failure.status === 429 || failure.status === 503;
      if (later && set.headers["retry-after"] === undefined && typeof wait === "number") {
        set.headers["retry-after"] = String(wait);
      }
      const style = (access ?? opts.accessOf(path)).errors;
      return jsonResponse(errorBody(style, failure, requestId), failure.status);
    });
}
