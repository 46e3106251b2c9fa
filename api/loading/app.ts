import type { FullPlatform } from "../shared/platform.ts";
import { createProductApp } from "../shared/product-app.ts";
import { product } from "../shared/products.ts";
import { loadPlanRoutes } from "./routes.ts";

/**
 * Load plans ({loading_url}): create, list, read, change and delete plans made by the packing
 * engine (engine/loadplan), each unit's load as SVG, and webhook management. docs/loadplan.md,
 * "The load-plan product".
 */
export function loadingApp(platform: FullPlatform) {
  return createProductApp({ def: product("loading"), platform }).use(loadPlanRoutes(platform));
}
