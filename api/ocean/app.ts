import type { Platform } from "../shared/platform.ts";
import type { Access } from "../shared/product-app.ts";
import { createProductApp } from "../shared/product-app.ts";
import { product } from "../shared/products.ts";

/** Ocean tracking ({base_url}); also carries the vendor-compatible surface under /compat/vendor/. */
export function oceanApp(platform: Platform) {
  const access = (path: string): Access | undefined => {
    if (path.startsWith("/compat/vendor/")) return { auth: "query", errors: "compat" };
    if (path.startsWith("/public/")) return { auth: "none", limited: true, errors: "open" };
    return undefined;
  };
  return createProductApp({ def: product("ocean"), platform, access });
}
