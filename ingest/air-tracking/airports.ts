/**
 * Airports by IATA code from the location index the distance service builds (ourairports rows with
 * their IANA zones): the zone and name a waybill's milestones show. One lookup per code, kept.
 */
import type { LocationIndex } from "../../engine/locations/index.ts";
import type { AirportLookup } from "./timeline.ts";

export function airportLookup(locations: Pick<LocationIndex, "resolve">): AirportLookup {
  const known = new Map<string, { timezone: string | null; name: string } | null>();
  const find = (iata: string) => {
    const code = iata.toUpperCase();
    if (!known.has(code)) {
      let found: { timezone: string | null; name: string } | null = null;
      if (/^[A-Z]{3}$/.test(code)) {
        try {
          const p = locations.resolve(code);
          if (p.kind === "airport" && p.iata === code) found = { timezone: p.timezone, name: p.name };
        } catch {
          // Not in the index: no zone, and the code stands in for the name.
        }
      }
      known.set(code, found);
    }
    return known.get(code) ?? null;
  };
  return {
    timezone: (iata) => find(iata)?.timezone ?? null,
    name: (iata) => find(iata)?.name ?? null,
  };
}
