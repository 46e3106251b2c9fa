/** The distance host's route map page (GET /map; docs/maps.md). */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Config } from "../../config.ts";
import { type PageSite, pageSite, sharedPageFiles } from "../../shared/pages/serve.ts";

const here = (name: string) => fileURLToPath(new URL(`./${name}`, import.meta.url));

export function routeMapPage(config: Config): PageSite {
  return pageSite({
    base: "/map",
    title: "Route map",
    errors: "data",
    files: [
      { name: "", path: here("map.html") },
      { name: "app.js", path: here("app.js") },
      ...sharedPageFiles(),
      // The ECA polygons the data build split lengths with; read from the sources at run time like
      // the air rate card. Without them the page marks no ECA stretches.
      { name: "eca-zones.json", path: join(config.sourcesDir, "sea/eca_zones.geojson"), optional: true },
    ],
  });
}
