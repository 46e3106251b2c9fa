/** Land test helper: world-atlas 10m land at 0.02 degrees (~2 km cells). */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Topology } from "topojson-specification";
import { LandRaster } from "../../data-build/sea/land.ts";

export function landMask(): LandRaster {
  const path = createRequire(import.meta.url).resolve("world-atlas/land-10m.json");
  return new LandRaster(JSON.parse(readFileSync(path, "utf8")) as Topology, 0.02);
}
