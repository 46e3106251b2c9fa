import type { FullPlatform } from "../shared/platform.ts";
import { createProductApp } from "../shared/product-app.ts";
import { product } from "../shared/products.ts";
import { awbPrefixRoutes } from "./awb-prefixes.ts";
import { awbRoutes } from "./awb-routes.ts";
import { airQuoteRoutes } from "./quote.ts";

/** Air cargo ({air_url}): accepts its own ac_ keys and the ocean family key. */
export function airApp(platform: FullPlatform) {
  return createProductApp({
    def: product("air"),
    platform,
    access: (path) =>
      path.startsWith("/public/") ? { auth: "none", limited: true, errors: "data" } : undefined,
  })
    .use(awbPrefixRoutes(platform.air.prefixes))
    .use(airQuoteRoutes(platform))
    .use(awbRoutes(platform));
}
