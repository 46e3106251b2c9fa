import type { Platform } from "../shared/platform.ts";
import { createProductApp } from "../shared/product-app.ts";
import { product } from "../shared/products.ts";

/** Sailing schedules ({schedules_url}); the whole /public/* surface is open and limited per IP. */
export function schedulesApp(platform: Platform) {
  return createProductApp({
    def: product("schedules"),
    platform,
    access: (path) =>
      path.startsWith("/public/") ? { auth: "none", limited: true, errors: "open" } : undefined,
  });
}
