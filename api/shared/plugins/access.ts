/**
 * Access: how each path is reached (a key, or openly, optionally limited per IP), the key check
 * before routing, and the caller on the request context. Routes read `principal` from the context;
 * `{ keyed: true }` on a route types it as present (the access hook has refused anyone else).
 */
import { Elysia } from "elysia";
import { keyPrefixOf } from "../../accounts/keys.ts";
import type { Principal } from "../../accounts/repo.ts";
import { type ErrorStyle, keyedErrorStyle } from "../envelopes.ts";
import { ApiError } from "../errors.ts";
import type { Platform } from "../platform.ts";
import { type ProductDef, product } from "../products.ts";
import { PROBE_PATHS } from "./probes.ts";

/** How a path is reached: with a key (bearer header or api_key query) or openly (optionally per-IP limited). */
export type Access =
  | { auth: "bearer" | "query"; errors: ErrorStyle }
  | { auth: "none"; limited: boolean; errors: ErrorStyle };

/** A product's own rule for a path; undefined falls back to keyed bearer access. */
export type AccessRule = (path: string) => Access | undefined;

/** Paths of the API reference (plugins/openapi.ts): open, limited per address, left out of the document. */
export const isDocsPath = (path: string) =>
  path === "/docs" || path.startsWith("/docs/") || path === "/swagger" || path.startsWith("/swagger/");

/**
 * Every path's access: /healthz and the probes open (/metrics checks its own token), the API
 * reference (/docs, /swagger) open and limited per IP, the product's rule, else a bearer key.
 */
export function accessRules(def: ProductDef, rule?: AccessRule): (path: string) => Access {
  const openStyle: ErrorStyle = def.family === "ok" ? "open" : "data";
  const health: Access = { auth: "none", limited: false, errors: openStyle };
  const docs: Access = { auth: "none", limited: true, errors: openStyle };
  const keyed: Access = { auth: "bearer", errors: keyedErrorStyle(def) };
  return (path) => {
    if (path === "/healthz" || PROBE_PATHS.has(path)) return health;
    if (isDocsPath(path)) return docs;
    return rule?.(path) ?? keyed;
  };
}

/** The caller when the route needs a key; the access hook guarantees one on keyed paths. */
function keyedCaller(principal: Principal | null): Principal {
  if (!principal) throw new ApiError("unauthorized", "This route needs an API key.");
  return principal;
}

/**
 * The request context's caller fields, for route modules to `.use` (types and the `keyed` macro);
 * the access plugin fills them in before routing.
 */
export const caller = new Elysia({ name: "portolan-caller" })
  .decorate({ principal: null as Principal | null, access: null as Access | null })
  .macro({ keyed: { resolve: ({ principal }) => ({ principal: keyedCaller(principal) }) } });

/**
 * The principal by request, for route modules that read the caller from the request instead of
 * the context (api/ocean, api/compat): the same object as the context's `principal`.
 */
const byRequest = new WeakMap<Request, Principal>();

export function principalOf(request: Request): Principal {
  return keyedCaller(byRequest.get(request) ?? null);
}

/** The bearer key; "" for an Authorization header of another form (told apart in the message). */
function bearerKey(request: Request, def: ProductDef): string | null {
  const auth = request.headers.get("authorization");
  if (auth) {
    const m = /^bearer\s+(\S+)\s*$/i.exec(auth);
    return m ? m[1]! : "";
  }
  return def.xApiKey ? request.headers.get("x-api-key") : null;
}

/** Why no key was read: what the client should send instead. */
function missingKey(key: string | null, a: Access): ApiError {
  if (key === "" && a.auth === "bearer") {
    return new ApiError(
      "unauthorized",
      'Missing API key: the Authorization header must read "Bearer <key>" (it has no Bearer scheme or no key).',
    );
  }
  const how = a.auth === "query" ? "the api_key query parameter" : "Authorization: Bearer <key>";
  return new ApiError("unauthorized", `Missing API key: send it in ${how}.`);
}

function queryKey(request: Request): string | null {
  const q = request.url.indexOf("?");
  return q < 0 ? null : new URLSearchParams(request.url.slice(q + 1)).get("api_key");
}

/** What the access hook reads; Elysia sets `path` before any hook (request-target.ts). */
interface AccessContext {
  request: Request;
  path?: string;
}

/** Decides each request's access and, on keyed paths, authenticates its key before routing. */
export function access(def: ProductDef, platform: Platform, accessOf: (path: string) => Access) {
  const accepted = new Set([def.keyPrefix, ...def.alsoAccepts.map((id) => product(id).keyPrefix)]);
  const expected = [...accepted].map((p) => `${p}_`).join(" or ");
  // The hook destructures what it reads and hands no function the whole context: Elysia (sucrose)
  // reads hooks' source, and one taking the whole context makes it prepare every field (headers
  // copied to an object, cookies parsed) for every route.
  return new Elysia({ name: `portolan-access-${def.id}` }).use(caller).onRequest(async (context) => {
    const { request, path } = context as AccessContext;
    const a = accessOf(path ?? "/");
    context.access = a;
    if (a.auth === "none") return;
    const key = a.auth === "bearer" ? bearerKey(request, def) : queryKey(request);
    if (!key) throw missingKey(key, a);
    // A malformed key or another product's is refused before any hashing or database work.
    const prefix = keyPrefixOf(key);
    if (prefix && !accepted.has(prefix)) {
      throw new ApiError(
        "unauthorized",
        `API key of another product: the ${def.title} API expects ${/^[aeio]/.test(expected) ? "an" : "a"} ${expected} key, got ${prefix}_.`,
      );
    }
    const principal = prefix ? await platform.accounts.authenticate(key) : null;
    if (!principal)
      throw new ApiError(
        "unauthorized",
        `API key is malformed, unknown, revoked or expired for the ${def.title} API.`,
      );
    context.principal = principal;
    byRequest.set(request, principal);
  });
}

/** The entitlement checks handed to routes, by which the document tells the routes that answer 403. */
const ENTITLEMENT_CHECKS = new WeakSet<object>();

/**
 * A route's `beforeHandle` refusing (403) a caller without a live entitlement to the product. The
 * document declares 403 on exactly the routes that carry it (`checksEntitlement`); reads do not.
 */
export function entitled(platform: Platform, productId: ProductDef["id"]) {
  const check = ({ request }: { request: Request }) => requireEntitlement(platform, request, productId);
  ENTITLEMENT_CHECKS.add(check);
  return check;
}

/** Whether a route's hooks (Elysia's route table: `beforeHandle` as `{fn}` entries) check entitlement. */
export function checksEntitlement(hooks: { beforeHandle?: unknown } | undefined): boolean {
  const before = hooks?.beforeHandle;
  const entries = Array.isArray(before) ? before : before ? [before] : [];
  return entries.some((h) => {
    const fn = typeof h === "function" ? h : (h as { fn?: unknown }).fn;
    return typeof fn === "function" && ENTITLEMENT_CHECKS.has(fn);
  });
}

/**
 * Throws 403 unless the caller's organisation holds a live entitlement to the product. The caller
 * is the context's principal, or (for routes reading it from the request) the request.
 */
export async function requireEntitlement(
  platform: Platform,
  caller: Principal | Request,
  productId: ProductDef["id"],
): Promise<void> {
  const { org } = caller instanceof Request ? principalOf(caller) : caller;
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
