/** The ocean host's shipment page (GET /track; docs/maps.md). */
import { fileURLToPath } from "node:url";
import { type PageSite, pageSite, sharedPageFiles } from "../../shared/pages/serve.ts";

const here = (name: string) => fileURLToPath(new URL(`./${name}`, import.meta.url));

export function trackingPage(): PageSite {
  return pageSite({
    base: "/track",
    title: "Shipment map",
    errors: "open",
    files: [
      { name: "", path: here("track.html") },
      { name: "app.js", path: here("app.js") },
      { name: "readable.js", path: here("readable.js") },
      ...sharedPageFiles(),
    ],
  });
}
