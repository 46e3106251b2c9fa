import type { Platform } from "../shared/platform.ts";
import { createProductApp } from "../shared/product-app.ts";
import { product } from "../shared/products.ts";

/** Rates ({rates_url}): read-only, so any method but GET answers 405 (webhook management excepted). */
export function ratesApp(platform: Platform) {
  return createProductApp({
    def: product("rates"),
    platform,
    getOnly: (path) => !path.startsWith("/v1/webhooks"),
  });
}
