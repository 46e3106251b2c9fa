/**
 * Parsers for the road-model tables (../shared/data/road: circuity, truck speeds, ferries) and the
 * Natural Earth populated places. Pure functions over file text so tests can feed small inputs.
 */
import { csvRecords } from "../../formats/csv.ts";
import type { LinkKind } from "../../formats/road-graph.ts";
import type { CountryModel, FerryRow, RoadModel } from "./network.ts";
import { laneLimitKmh, type TruckSpeedLimit } from "./speed-limits.ts";

const num = (s: string | undefined): number => (s === undefined || s.trim() === "" ? Number.NaN : Number(s));

/**
 * Per-country circuity, region and truck speed. A country's own published value beats its
 * inherited region default; `no_network` countries (GL, AQ, ...) get circuity null: no road links.
 * A country's truck speed (car / 1.2) never exceeds the lane average its national heavy-goods
 * speed limits allow (speed-limits.ts); countries without listed limits keep car / 1.2.
 */
export function parseRoadModel(
  circuityCsv: string,
  speedsCsv: string,
  limits: ReadonlyMap<string, TruckSpeedLimit> = new Map(),
): RoadModel {
  const countries = new Map<string, CountryModel>();
  let globalCircuity = 1.3;
  let globalTruckKmh = 60.8;
  const rank: Record<string, number> = { country_published: 3, inherited_region_default: 1, no_network: 2 };
  const seen = new Map<string, number>();
  for (const r of csvRecords(circuityCsv)) {
    if (r.scope === "GLOBAL") globalCircuity = num(r.circuity_factor);
    if (r.scope_type !== "country" || !/^[A-Z]{2}$/.test(r.scope ?? "")) continue;
    const score = rank[r.value_type ?? ""];
    // Band-specific rows (CH 25-50 km, ...) are evidence; the country row with the long band rules.
    if (score === undefined || (seen.get(r.scope!) ?? 0) >= score) continue;
    seen.set(r.scope!, score);
    countries.set(r.scope!, {
      circuity: r.value_type === "no_network" ? null : num(r.circuity_factor),
      region: r.region ?? "",
      truckKmh: countries.get(r.scope!)?.truckKmh ?? Number.NaN,
    });
  }
  for (const r of csvRecords(speedsCsv)) {
    if (r.scope === "GLOBAL") globalTruckKmh = num(r.truck_intercity_kmh);
    if (r.scope_type !== "country" || !/^[A-Z]{2}$/.test(r.scope ?? "")) continue;
    const c = countries.get(r.scope!) ?? { circuity: globalCircuity, region: r.region ?? "", truckKmh: 0 };
    c.truckKmh = num(r.truck_intercity_kmh);
    countries.set(r.scope!, c);
  }
  for (const [code, c] of countries) {
    if (!Number.isFinite(c.truckKmh)) c.truckKmh = globalTruckKmh;
    const limit = limits.get(code);
    if (limit) c.truckKmh = Math.min(c.truckKmh, laneLimitKmh(limit));
  }
  return { countries, globalCircuity, globalTruckKmh };
}

const MODES: Record<string, LinkKind> = { ferry: "ferry", tunnel: "tunnel", bridge: "bridge" };

export function parseFerries(csv: string): FerryRow[] {
  return csvRecords(csv).map((r) => {
    const kind = MODES[r.mode ?? ""];
    if (!kind) throw new Error(`ferries.csv: ${r.name}: unknown mode "${r.mode}"`);
    const row: FerryRow = {
      name: r.name!,
      from: { name: r.from_name!, lat: num(r.from_lat), lng: num(r.from_lng) },
      to: { name: r.to_name!, lat: num(r.to_lat), lng: num(r.to_lng) },
      kind,
      hours: num(r.typical_crossing_hours),
      carriesTruck: r.carries_truck === "yes",
    };
    if (![row.from.lat, row.from.lng, row.to.lat, row.to.lng, row.hours].every(Number.isFinite)) {
      throw new Error(`ferries.csv: ${row.name}: missing coordinates or crossing hours`);
    }
    return row;
  });
}

export interface PopulatedPlace {
  name: string;
  country: string;
  lat: number;
  lng: number;
  population: number;
}

export function parsePopulatedPlaces(geojson: string): PopulatedPlace[] {
  interface Feature {
    properties: { name: string; iso_a2: string; latitude: number; longitude: number; pop_max: number };
  }
  const features = (JSON.parse(geojson) as { features: Feature[] }).features;
  return features.map(({ properties: p }) => ({
    name: p.name,
    country: /^[A-Z]{2}$/.test(p.iso_a2) ? p.iso_a2 : "",
    lat: p.latitude,
    lng: p.longitude,
    population: Math.max(0, p.pop_max),
  }));
}

/** ISO2 -> continent for the summary; the Americas split at the South America subregion. */
export function parseContinents(countriesJson: string): Map<string, string> {
  const raw = JSON.parse(countriesJson) as Array<{ cca2: string; region: string; subregion: string }>;
  return new Map(
    raw.map((c) => [
      c.cca2,
      c.region === "Americas"
        ? c.subregion === "South America"
          ? "South America"
          : "North America"
        : c.region,
    ]),
  );
}
