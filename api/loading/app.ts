import type { Platform } from "../shared/platform.ts";
import { createProductApp } from "../shared/product-app.ts";
import { product } from "../shared/products.ts";

/** Load plans ({loading_url}). */
export function loadingApp(platform: Platform) {
  return createProductApp({ def: product("loading"), platform });
}
