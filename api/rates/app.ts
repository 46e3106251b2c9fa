import type { FullPlatform } from "../shared/platform.ts";
import { createProductApp } from "../shared/product-app.ts";
import { product } from "../shared/products.ts";
import { rateRoutes } from "./routes.ts";

/**
 * Rates ({rates_url}): search offers, list and read the organisation's rate sheets (imported with
 * `portolan rates import`). Read-only, so any method but GET answers 405 (webhook management
 * excepted). docs/rates.md.
 */
export function ratesApp(platform: FullPlatform) {
  return createProductApp({
    def: product("rates"),
    platform,
    getOnly: (path) => !path.startsWith("/v1/webhooks"),
  }).use(rateRoutes(platform));
}
