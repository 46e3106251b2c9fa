import type { FullPlatform } from "../shared/platform.ts";
import { createProductApp } from "../shared/product-app.ts";
import { product } from "../shared/products.ts";
import { followRoutes } from "./follows.ts";
import { scheduleRoutes } from "./routes.ts";

/**
 * Sailing schedules ({schedules_url}): the read routes keyed under /v1 and, the same, open under
 * /public/v1 (the whole /public/* surface is unkeyed and limited per IP); follows (keyed only)
 * say which cut-offs and lanes an organisation's events cover; webhooks come with the product app.
 */
export function schedulesApp(platform: FullPlatform) {
  const deps = { sailings: platform.storage.sailings, now: platform.now };
  return createProductApp({
    def: product("schedules"),
    platform,
    access: (path) =>
      path.startsWith("/public/") ? { auth: "none", limited: true, errors: "open" } : undefined,
  })
    .use(scheduleRoutes("/v1", deps))
    .use(scheduleRoutes("/public/v1", deps))
    .use(followRoutes(platform));
}
