/**
 * What the sandbox airline draws from: the airlines it plays (from the AWB prefix table, each with
 * its hub) and the large cargo airports with their IANA zones. Read from the source tables only (no
 * build artifacts), so the airline starts in milliseconds.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { sourcesDirFrom } from "../../common/sources-dir.ts";
import { csvRecords } from "../../formats/csv.ts";
import { AwbPrefixes } from "../airlines/awb.ts";

/** Airlines the sandbox plays, each under /{iata} with its hub: every itinerary touches the hub. */
export const SANDBOX_AIRLINES = [
  { iata: "LH", hub: "FRA" },
  { iata: "CX", hub: "HKG" },
  { iata: "EK", hub: "DXB" },
  { iata: "QR", hub: "DOH" },
  { iata: "TK", hub: "IST" },
] as const;

export interface Airport {
  iata: string;
  name: string;
  country: string;
  lat: number;
  lng: number;
  /** IANA zone (large-cargo-airports.csv tz). */
  timezone: string;
  /** 1 for the busiest cargo airports, 2 for the rest: tier 1 is drawn more often. */
  tier: number;
}

export interface SandboxAirline {
  iata: string;
  icao: string;
  name: string;
  /** AWB prefix (3 digits). */
  prefix: string;
  hub: Airport;
}

export interface AirlineWorld {
  /** By AWB prefix. */
  airlines: Map<string, SandboxAirline>;
  airports: Airport[];
  airport(iata: string): Airport;
}

export const CARGO_AIRPORTS_FILE = "airports/large-cargo-airports.csv";

export function airlineWorldFrom(prefixes: AwbPrefixes, airportsCsv: string): AirlineWorld {
  const airports: Airport[] = [];
  for (const r of csvRecords(airportsCsv)) {
    const lat = Number(r.lat);
    const lng = Number(r.lon);
    if (!/^[A-Z]{3}$/.test(r.iata ?? "") || !r.tz || !Number.isFinite(lat) || !Number.isFinite(lng)) continue;
    airports.push({
      iata: r.iata!,
      name: r.name || r.iata!,
      country: r.country ?? "",
      lat,
      lng,
      timezone: r.tz,
      tier: Number(r.tier) === 1 ? 1 : 2,
    });
  }
  const byIata = new Map(airports.map((a) => [a.iata, a]));
  const airport = (iata: string) => {
    const a = byIata.get(iata);
    if (!a) throw new Error(`${iata} is not in ${CARGO_AIRPORTS_FILE}`);
    return a;
  };
  const airlines = new Map<string, SandboxAirline>();
  for (const { iata, hub } of SANDBOX_AIRLINES) {
    const a = prefixes.airlines().find((x) => x.iata === iata);
    if (!a) throw new Error(`${iata} missing from the AWB prefix table`);
    airlines.set(a.prefix, { iata, icao: a.icao, name: a.name, prefix: a.prefix, hub: airport(hub) });
  }
  return { airlines, airports, airport };
}

export async function loadAirlineWorld(dir: string = sourcesDirFrom()): Promise<AirlineWorld> {
  const [prefixes, csv] = await Promise.all([
    AwbPrefixes.load(dir),
    readFile(join(dir, CARGO_AIRPORTS_FILE), "utf8"),
  ]);
  return airlineWorldFrom(prefixes, csv);
}

/** The played airline holding an AWB prefix, or null. */
export function sandboxAirlineByIata(world: AirlineWorld, iata: string): SandboxAirline | null {
  for (const a of world.airlines.values()) if (a.iata === iata.toUpperCase()) return a;
  return null;
}
