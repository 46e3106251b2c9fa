import type { Platform } from "../shared/platform.ts";
import { createProductApp } from "../shared/product-app.ts";
import { product } from "../shared/products.ts";

/** Distance and multimodal routing ({distance_url}). */
export function distanceApp(platform: Platform) {
  return createProductApp({ def: product("distance"), platform });
}
