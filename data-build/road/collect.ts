/**
 * Node candidates for the road model, in the order selectNodes keeps them: border crossings, ports
 * and intermodal rail terminals from UN/LOCODE, large and medium airports, then towns (GeoNames and
 * Natural Earth) by falling population.
 */

import { parseCsv } from "../../formats/csv.ts";
import { parseUnlocodeRow } from "../locations/collect.ts";
import type { PopulatedPlace } from "./inputs.ts";
import type { RoadNode } from "./network.ts";

/** Towns below this population are left out: density for routes, bounded size for a small machine. */
export const MIN_CITY_POPULATION = 20_000;

export interface Airport {
  type: string;
  name: string;
  latitude_deg: string | number;
  longitude_deg: string | number;
  iso_country: string;
}

export interface GeoNamesCity {
  name: string;
  country: string;
  population: number;
  lat: number;
  lng: number;
}

export interface NodeSources {
  unlocodeCsvs: string[];
  airports: Airport[];
  cities: GeoNamesCity[];
  populatedPlaces: PopulatedPlace[];
  minPopulation?: number;
}

export function collectNodeCandidates(src: NodeSources): RoadNode[] {
  const border: RoadNode[] = [];
  const port: RoadNode[] = [];
  const rail: RoadNode[] = [];
  for (const text of src.unlocodeCsvs) {
    const [header, ...rows] = parseCsv(text);
    const hasGeocoded = header?.includes("geocoded") ?? false;
    for (const raw of rows) {
      if (raw.length < 5) continue;
      const r = parseUnlocodeRow(raw, hasGeocoded);
      if (!r || !Number.isFinite(r.lat) || !Number.isFinite(r.lng)) continue;
      const node = (kind: RoadNode["kind"]): RoadNode => ({
        lat: r.lat,
        lng: r.lng,
        kind,
        country: r.country,
        name: r.name,
        population: 0,
      });
      // Border crossings are few and the point of the node: kept even when geocoded. Ports and
      // rail terminals only with surveyed positions (geocoded ones are sometimes far off).
      if (r.function[7] === "B") border.push(node("border"));
      else if (r.geocoded) continue;
      else if (r.function[0] === "1") port.push(node("port"));
      // Rail terminal = rail function plus inland clearance depot: the intermodal ones, not every station.
      else if (r.function[1] === "2" && r.function[5] === "6") rail.push(node("rail"));
    }
  }
  const airports: RoadNode[] = src.airports
    .filter((a) => a.type === "large_airport" || a.type === "medium_airport")
    .map((a) => ({
      lat: Number(a.latitude_deg),
      lng: Number(a.longitude_deg),
      kind: "airport",
      country: a.iso_country,
      name: a.name,
      population: 0,
    }));
  const min = src.minPopulation ?? MIN_CITY_POPULATION;
  const cities: RoadNode[] = [
    ...src.cities.filter((c) => c.population >= min),
    // Every Natural Earth place: a curated few thousand that keep sparse regions (Sahara, Siberia) linked.
    ...src.populatedPlaces,
  ]
    .map((c) => ({
      lat: c.lat,
      lng: c.lng,
      kind: "city" as const,
      country: c.country,
      name: c.name,
      population: c.population,
    }))
    .sort((x, y) => y.population - x.population);
  return [...border, ...port, ...rail, ...airports, ...cities];
}
