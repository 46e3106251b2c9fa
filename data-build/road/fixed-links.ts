/**
 * Fixed links that ferries.csv (../shared/data/road) does not list but whose water the strait
 * test (straits.ts) refuses to a plain road link: bridges and causeways joining islands and cities
 * to their mainland (fixed-links.csv, each row with its source). They join the network like the
 * listed bridges, so a route over them names them.
 */
import fixedLinksCsv from "./fixed-links.csv" with { type: "text" };
import { parseFerries } from "./inputs.ts";
import type { FerryRow } from "./network.ts";

export function fixedLinks(csv: string = fixedLinksCsv): FerryRow[] {
  return parseFerries(csv);
}
