/**
 * The base Elysia app every product starts from: access control (key or per-IP), rolling-window
 * limits, a capped JSON body parser, envelopes on success and failure, 405 for known paths, OpenAPI,
 * /healthz and the keyed no-op GET /v1/account. Product folders only add their own routes.
 */
import { swagger } from "@elysiajs/swagger";
import { Elysia, t } from "elysia";
import { readCapped } from "../../common/capped-body.ts";
import { EngineError } from "../../engine/errors.ts";
import { TrackingError } from "../../ingest/tracking/errors.ts";
import { StorageUnavailableError } from "../../storage/errors.ts";
import { keyPrefixOf } from "../accounts/keys.ts";
import type { KeyListing, Principal } from "../accounts/repo.ts";
import { webhookRoutes } from "../webhooks/routes.ts";
import {
  type ErrorStyle,
  errorBody,
  jsonResponse,
  jsonTextResponse,
  keyedErrorStyle,
  RenderedJson,
  successBody,
  successJson,
} from "./envelopes.ts";
import { ApiError, fromEngine, fromTracking } from "./errors.ts";
import { health } from "./health.ts";
import type { Platform } from "./platform.ts";
import { type ProductDef, product } from "./products.ts";
import { isCanonicalTarget, type PreRoutingContext, ROUTER_HANDLER } from "./request-target.ts";
import { queryParamWithNul, unstorablePath } from "./storable-text.ts";

/** When a client told the database is unavailable (a restart, a failover) should come back. */
const DATABASE_RETRY_S = 2;

/** How a path is reached: with a key (bearer header or api_key query) or openly (optionally per-IP limited). */
export type Access =
  | { auth: "bearer" | "query"; errors: ErrorStyle }
  | { auth: "none"; limited: boolean; errors: ErrorStyle };

interface RequestState {
  start: number;
  access: Access;
  principal: Principal | null;
}

const states = new WeakMap<Request, RequestState>();

/** Free, anonymous or no plan: 40 per window; paid: 120 (spec, Limits). */
export const FREE_LIMIT = 40;
export const PAID_LIMIT = 120;

/** Requests per window for an organisation: its arranged ceiling, else by plan. */
export function windowLimit(org: { paid: boolean; rateLimit: number | null }): number {
  return org.rateLimit ?? (org.paid ? PAID_LIMIT : FREE_LIMIT);
}

/** The authenticated caller of a keyed route (the access hook guarantees one). */
export function principalOf(request: Request): Principal {
  const p = states.get(request)?.principal;
  if (!p) throw new ApiError("unauthorized", "This route needs an API key.");
  return p;
}

function bearerKey(request: Request, def: ProductDef): string | null {
  const auth = request.headers.get("authorization");
  if (auth) {
    const m = /^bearer\s+(\S+)\s*$/i.exec(auth);
    return m ? m[1]! : "";
  }
  return def.xApiKey ? request.headers.get("x-api-key") : null;
}

function queryKey(request: Request): string | null {
  const q = request.url.indexOf("?");
  return q < 0 ? null : new URLSearchParams(request.url.slice(q + 1)).get("api_key");
}

export interface ProductAppOptions {
  def: ProductDef;
  platform: Platform;
  /** Product-specific access rules; undefined falls back to keyed bearer access. */
  access?: (path: string) => Access | undefined;
  /** Paths on which only GET (and HEAD) are allowed; others answer 405 before auth. */
  getOnly?: (path: string) => boolean;
}

/** Validation messages from TypeBox, made readable: "query.limit: Expected integer". */
function describeValidation(error: unknown): string {
  const e = error as {
    type?: string;
    on?: string;
    all?: Array<{
      path?: string;
      message?: string;
      summary?: string;
      schema?: { anyOf?: Array<{ const?: unknown }> };
    }>;
  };
  const first = e.all?.[0];
  const where = `${e.on ?? "request"}${first?.path ? first.path.replaceAll("/", ".") : ""}`;
  // TypeBox summarises a union of literals by their types ("'string', 'string'"): name the values.
  const choices = first?.schema?.anyOf?.map((s) => s.const);
  if (choices?.length && choices.every((c) => typeof c === "string")) {
    return `Invalid ${where}: must be one of ${choices.join(", ")}.`;
  }
  return `Invalid ${where}: ${first?.summary ?? first?.message ?? "does not match the schema"}`;
}

export function createProductApp(opts: ProductAppOptions) {
  const { def, platform } = opts;
  const { config, accounts, limiter } = platform;
  const accepted = new Set([def.keyPrefix, ...def.alsoAccepts.map((id) => product(id).keyPrefix)]);
  const keyedStyle = keyedErrorStyle(def);
  const openStyle: ErrorStyle = def.family === "ok" ? "open" : "data";

  const accessOf = (path: string): Access => {
    if (path === "/healthz") return { auth: "none", limited: false, errors: openStyle };
    if (path === "/swagger" || path.startsWith("/swagger/"))
      return { auth: "none", limited: true, errors: openStyle };
    return opts.access?.(path) ?? { auth: "bearer", errors: keyedStyle };
  };

  const setRateHeaders = (
    headers: Record<string, unknown>,
    d: { limit: number; remaining: number; resetAtMs: number },
  ) => {
    headers["x-ratelimit-limit"] = String(d.limit);
    headers["x-ratelimit-remaining"] = String(d.remaining);
    headers["x-ratelimit-reset"] = String(Math.ceil(d.resetAtMs / 1000));
  };

  const enforce = async (bucket: string, limit: number, headers: Record<string, unknown>) => {
    const decision = await limiter.hit(bucket, limit);
    setRateHeaders(headers, decision);
    if (!decision.allowed) {
      const wait = Math.max(1, Math.ceil((decision.resetAtMs - platform.now()) / 1000));
      headers["retry-after"] = String(wait);
      throw new ApiError(
        "rateWindow",
        `Rate limit exceeded: ${limit} requests per ${config.rateWindowMs / 1000}-second window; retry in ${wait} s.`,
      );
    }
  };

  /**
   * The organisation whose keys of this product the caller may manage. Only a key of this product
   * manages them: the family key another product accepts (an ocean key on the air host) and every
   * other product's keys stay out of reach; organisation-wide management is the operator's CLI.
   */
  const keyManager = (request: Request): string => {
    const { org, keyProduct } = principalOf(request);
    if (keyProduct !== def.id) {
      throw new ApiError(
        "forbidden",
        `A ${product(keyProduct).title} key cannot manage ${def.title} keys: use a ${def.title} key (${def.keyPrefix}) or \`portolan key\`.`,
      );
    }
    return org.id;
  };

  let routeMatchers: Array<{ method: string; re: RegExp }> | null = null;
  const allowedElsewhere = (
    app: { routes: Array<{ method: string; path: string }> },
    path: string,
    method: string,
  ) => {
    routeMatchers ??= app.routes.map((r) => ({
      method: r.method,
      re: new RegExp(
        `^${r.path
          .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
          .replace(/:[^/]+/g, "[^/]+")
          .replace(/\*/g, ".*")}/?$`,
      ),
    }));
    return routeMatchers.some((m) => m.method !== method && m.re.test(path));
  };

  const app = new Elysia({ name: `portolan-${def.id}`, handler: ROUTER_HANDLER })
    .use(
      swagger({
        path: "/swagger",
        documentation: {
          info: { title: `Portolan ${def.title} API`, version: "1" },
          servers: [{ url: config.publicUrls[def.id] }],
          components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
          security: [{ bearer: [] }],
        },
      }),
    )
    // Hooks destructure only what they read: a hook that hands its whole context to a function
    // makes Elysia (sucrose) prepare every field for every route: headers copied to an object,
    // cookies parsed, on each request.
    .onRequest(async ({ request, set, server, path: routed }: PreRoutingContext) => {
      const path = routed ?? "/";
      const access = accessOf(path);
      const state: RequestState = { start: performance.now(), access, principal: null };
      states.set(request, state);
      if (!isCanonicalTarget(request.url)) {
        // No Host, or one that would shift where the path starts: refused before access or routing.
        throw new ApiError("validation", "Malformed request target or Host header.");
      }
      if (!decodablePath(path)) {
        // The router would hand handlers a null parameter for these.
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
      const length = Number(request.headers.get("content-length") ?? 0);
      if (length > config.maxBodyBytes) {
        throw new ApiError("validation", `Request body exceeds the ${config.maxBodyBytes}-byte limit.`);
      }
      if (access.auth === "none") {
        if (!access.limited) return;
        const forwarded = config.trustProxy
          ? request.headers.get("x-forwarded-for")?.split(",")[0]?.trim()
          : undefined;
        const ip = forwarded || server?.requestIP(request)?.address || "unknown";
        await enforce(`ip:${def.id}:${ip}`, FREE_LIMIT, set.headers);
        return;
      }
      const key = access.auth === "bearer" ? bearerKey(request, def) : queryKey(request);
      if (!key) {
        const how = access.auth === "query" ? "the api_key query parameter" : "Authorization: Bearer <key>";
        throw new ApiError("unauthorized", `Missing API key: send it in ${how}.`);
      }
      // A malformed key or another product's is refused before any hashing or database work.
      const prefix = keyPrefixOf(key);
      const principal = prefix && accepted.has(prefix) ? await accounts.authenticate(key) : null;
      if (!principal)
        throw new ApiError(
          "unauthorized",
          `API key is malformed, unknown, revoked or expired for the ${def.title} API.`,
        );
      state.principal = principal;
      await enforce(`acct:${def.id}:${principal.org.id}`, windowLimit(principal.org), set.headers);
    })
    .onParse(async ({ request }) => {
      // One parser for every body: capped read (chunked bodies carry no content-length), then JSON.
      const text = await readCappedText(request, config.maxBodyBytes);
      if (text.trim() === "") return undefined;
      let body: unknown;
      let methodKey = "";
      try {
        // Elysia's validation message interpolates a wrong-typed value (`${value}`): an object with
        // its own toString (not a function, as JSON gives) makes that throw, which answered 500.
        body = JSON.parse(text, (key, value) => {
          if (key === "toString" || key === "valueOf") methodKey = key;
          return value;
        });
      } catch {
        throw new ApiError("validation", "Request body is not valid JSON.");
      }
      if (methodKey) throw new ApiError("validation", `Request body: no field may be named ${methodKey}.`);
      const unstorableAt = unstorablePath(text, body);
      if (unstorableAt !== null) {
        throw new ApiError(
          "validation",
          `Request body: ${unstorableAt} holds a NUL character or an unpaired surrogate, which no field accepts.`,
        );
      }
      // Every route takes an object; null, arrays and scalars would slip past optional-only schemas.
      if (body === null || typeof body !== "object" || Array.isArray(body)) {
        throw new ApiError("validation", "Request body must be a JSON object.");
      }
      return body;
    })
    .onError(({ code, error, request, set, path: routed }) => {
      const path = routed ?? "/";
      const state = states.get(request);
      const style = (state?.access ?? accessOf(path)).errors;
      let failure: ApiError;
      // Elysia wraps whatever the body parser throws in a ParseError; unwrap ours.
      const cause = (error as { cause?: unknown }).cause;
      if (error instanceof ApiError) failure = error;
      else if (cause instanceof ApiError) failure = cause;
      else if (error instanceof EngineError) failure = fromEngine(error);
      else if (error instanceof TrackingError) failure = fromTracking(error);
      else if (error instanceof StorageUnavailableError) {
        console.error(`[${def.id}] ${request.method} ${path}: database unavailable (${error.reason})`);
        failure = new ApiError("overloaded", "The database is unavailable for the moment; retry shortly.", {
          retry_after_seconds: DATABASE_RETRY_S,
        });
      } else if (code === "NOT_FOUND") {
        failure = allowedElsewhere(app, path, request.method)
          ? new ApiError("methodNotAllowed", `Method ${request.method} is not allowed on ${path}.`)
          : new ApiError("notFound", `No route ${request.method} ${path}.`);
      } else if (code === "VALIDATION") failure = new ApiError("validation", describeValidation(error));
      else if (code === "PARSE") failure = new ApiError("validation", "Request body could not be parsed.");
      else {
        console.error(`[${def.id}] ${request.method} ${path}:`, error);
        failure = new ApiError("internal", "Internal error; retry shortly.");
      }
      // Every 429 and 503 tells the client when to come back, in the header as well as any body field.
      const wait = failure.extra?.retry_after_seconds;
      const later = failure.status === 429 || failure.status === 503;
      if (later && set.headers["retry-after"] === undefined && typeof wait === "number") {
        set.headers["retry-after"] = String(wait);
      }
      return jsonResponse(errorBody(style, failure), failure.status);
    })
    .mapResponse(({ responseValue, set, request }) => {
      if (responseValue instanceof Response) return responseValue;
      const start = states.get(request)?.start ?? performance.now();
      const took = Math.round((performance.now() - start) * 1000) / 1000;
      // The rate headers go into this Response: left on `set`, Elysia would copy the finished
      // Response into another one to add them.
      const headers = set.headers as Record<string, string>;
      set.headers = {};
      const status = typeof set.status === "number" ? set.status : 200;
      if (responseValue instanceof RenderedJson)
        return jsonTextResponse(successJson(def, responseValue, took), status, headers);
      return jsonResponse(successBody(def, responseValue, took), status, headers);
    })
    .get("/healthz", () => ({ product: def.id, ...health(platform) }), {
      detail: { summary: "Liveness", security: [] },
    })
    .get(
      "/v1/account",
      async ({ request }) => {
        const { org, keyProduct } = principalOf(request);
        return {
          org_id: org.id,
          org_name: org.name,
          plan: org.plan,
          paid: org.paid,
          key_product: keyProduct,
          entitlement: await accounts.entitlement(org.id, def.id),
          rate_limit: {
            limit: windowLimit(org),
            window_seconds: config.rateWindowMs / 1000,
          },
        };
      },
      { detail: { summary: "The calling account, its plan and rate limit" } },
    )
    .get(
      "/v1/account/keys",
      async ({ request }) => ({ items: (await accounts.listKeys(keyManager(request), def.id)).map(keyView) }),
      { detail: { summary: `The account's ${def.title} API keys (hints only, never the keys)` } },
    )
    .post(
      "/v1/account/keys",
      async ({ request, body, set }) => {
        const orgId = keyManager(request);
        const expiresAt =
          body.expires_in_days === undefined
            ? null
            : new Date(platform.now() + body.expires_in_days * 86_400_000).toISOString();
        const created = await accounts.createKey(orgId, def.id, { label: body.label, expiresAt });
        set.status = 201;
        const view = keyView((await accounts.listKeys(orgId, def.id)).find((k) => k.id === created.id)!);
        return { ...view, key: created.key };
      },
      {
        body: t.Object(
          {
            label: t.Optional(t.String({ maxLength: 100 })),
            expires_in_days: t.Optional(t.Integer({ minimum: 1, maximum: 3650 })),
          },
          { additionalProperties: false },
        ),
        detail: { summary: "Issue another key for this product; the key is shown only in this response" },
      },
    )
    .delete(
      "/v1/account/keys/:id",
      async ({ request, params }) => {
        // Another account's or another product's key id answers 404, exactly like an id that never existed.
        if (!(await accounts.revokeOwnKey(keyManager(request), def.id, params.id))) {
          throw new ApiError("notFound", `No key ${params.id} on this account.`);
        }
        return { id: params.id, revoked: true };
      },
      { detail: { summary: `Revoke a ${def.title} key of this account` } },
    )
    .use(webhookRoutes(platform, def));
  return app;
}

function keyView(k: KeyListing) {
  return {
    id: k.id,
    product: k.product,
    hint: k.hint,
    label: k.label,
    created_at: k.createdAt,
    expires_at: k.expiresAt,
    revoked_at: k.revokedAt,
  };
}

/**
 * Whether the path decodes to UTF-8 text without a NUL: no id, reference or code has one, and
 * PostgreSQL refuses a NUL in any text it is sent (a 500 where SQLite answered 404).
 */
function decodablePath(path: string): boolean {
  if (!path.includes("%")) return true;
  try {
    return !decodeURIComponent(path).includes("\u0000");
  } catch {
    return false;
  }
}

/** Reads at most `cap` bytes of the body; more is a validation error, not a crash or an OOM. */
async function readCappedText(request: Request, cap: number): Promise<string> {
  const bytes = await readCapped(
    request.body,
    cap,
    () => new ApiError("validation", `Request body exceeds the ${cap}-byte limit.`),
  );
  return new TextDecoder().decode(bytes);
}

/** Throws 403 unless the caller's organisation holds a live entitlement to the product. */
export async function requireEntitlement(
  platform: Platform,
  request: Request,
  productId: ProductDef["id"],
): Promise<void> {
  const { org } = principalOf(request);
  const state = await platform.accounts.entitlement(org.id, productId);
  if (state !== "active") {
    throw new ApiError(
      "forbidden",
      state === "expired"
        ? `The ${product(productId).title} entitlement of this account has expired.`
        : `This account has no ${product(productId).title} entitlement.`,
    );
  }
}
