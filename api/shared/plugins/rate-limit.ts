/**
 * Rolling-window limits before routing (README, Rate limits): per account and product on keyed
 * paths, per client IP on open paths that are limited; the X-RateLimit-* headers on every limited
 * answer, and 429 with Retry-After past the limit. Runs after the access plugin, whose decision
 * and caller it reads from the context.
 */
import { Elysia } from "elysia";
import type { Principal } from "../../accounts/repo.ts";
import { ApiError } from "../errors.ts";
import type { Platform } from "../platform.ts";
import type { ProductDef } from "../products.ts";
import { type Access, caller } from "./access.ts";

/** Free, anonymous or no plan: 40 per window; paid: 120 (spec, Limits). */
export const FREE_LIMIT = 40;
export const PAID_LIMIT = 120;

/** Requests per window for an organisation: its arranged ceiling, else by plan. */
export function windowLimit(org: { paid: boolean; rateLimit: number | null }): number {
  return org.rateLimit ?? (org.paid ? PAID_LIMIT : FREE_LIMIT);
}

/** What the limit hook reads: the access decision and caller, and the client's address. */
interface LimitContext {
  request: Request;
  set: { headers: Record<string, unknown> };
  server: { requestIP(request: Request): { address: string } | null } | null;
  access: Access | null;
  principal: Principal | null;
}

export function rateLimit(def: ProductDef, platform: Platform) {
  const { config, limiter } = platform;

  const enforce = async (bucket: string, limit: number, headers: Record<string, unknown>) => {
    const decision = await limiter.hit(bucket, limit);
    headers["x-ratelimit-limit"] = String(decision.limit);
    headers["x-ratelimit-remaining"] = String(decision.remaining);
    headers["x-ratelimit-reset"] = String(Math.ceil(decision.resetAtMs / 1000));
    if (!decision.allowed) {
      const wait = Math.max(1, Math.ceil((decision.resetAtMs - platform.now()) / 1000));
      headers["retry-after"] = String(wait);
      throw new ApiError(
        "rateWindow",
        `Rate limit exceeded: ${limit} requests per ${config.rateWindowMs / 1000}-second window; retry in ${wait} s.`,
      );
    }
  };

  const clientIp = (request: Request, server: LimitContext["server"]) => {
    const forwarded = config.trustProxy
      ? request.headers.get("x-forwarded-for")?.split(",")[0]?.trim()
      : undefined;
    return forwarded || server?.requestIP(request)?.address || "unknown";
  };

  // Destructures only what it reads (access.ts says why).
  return new Elysia({ name: `portolan-rate-limit-${def.id}` }).use(caller).onRequest(async (context) => {
    const { request, set, server, access: a, principal } = context as unknown as LimitContext;
    if (principal) {
      await enforce(`acct:${def.id}:${principal.org.id}`, windowLimit(principal.org), set.headers);
    } else if (a?.auth === "none" && a.limited) {
      await enforce(`ip:${def.id}:${clientIp(request, server)}`, FREE_LIMIT, set.headers);
    }
  });
}
