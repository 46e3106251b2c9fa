/** The distance host's route map page (GET /map; docs/maps.md). */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadRuleStretches } from "../../../engine/river/rule-stretches.ts";
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
      // Each seasonal river rule's stretch (the river.graph edges the router closes or slows by
      // date): seasonal_notes name the rule, this gives its geometry. Without the river
      // artifacts the page draws no stretches and still lists the notes.
      {
        name: "seasonal-stretches.json",
        read: async () => new TextEncoder().encode(JSON.stringify(await loadRuleStretches(config.buildDir))),
        optional: true,
      },
    ],
  });
}
