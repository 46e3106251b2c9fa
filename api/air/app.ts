import type { Platform } from "../shared/platform.ts";
import { createProductApp } from "../shared/product-app.ts";
import { product } from "../shared/products.ts";

/** Air cargo ({air_url}): accepts its own ac_ keys and the ocean family key. */
export function airApp(platform: Platform) {
  return createProductApp({
    def: product("air"),
    platform,
    access: (path) =>
      path.startsWith("/public/") ? { auth: "none", limited: true, errors: "data" } : undefined,
  });
}
