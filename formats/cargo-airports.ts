/**
 * The large cargo airports the air planner chooses between, as a build artifact (container kind
 * `cargo-airports`, one JSON section `airports`), written by the locations stage from
 * airports/large-cargo-airports.csv so the API never reads a raw source.
 */
import { decodeArtifact, encodeArtifact } from "./container.ts";
import { csvRecords } from "./csv.ts";

export const CARGO_AIRPORTS_OUTPUT = "cargo-airports.bin";
export const CARGO_AIRPORTS_KIND = "cargo-airports";
export const CARGO_AIRPORTS_VERSION = 1;

export interface CargoAirport {
  iata: string;
  icao: string | null;
  name: string;
  country: string;
  lat: number;
  lng: number;
}

export function encodeCargoAirports(csv: string, buildId: string): Uint8Array {
  const airports: CargoAirport[] = [];
  for (const r of csvRecords(csv)) {
    const lat = Number(r.lat);
    const lng = Number(r.lon);
    if (!r.iata || !Number.isFinite(lat) || !Number.isFinite(lng)) continue;
    airports.push({
      iata: r.iata,
      icao: r.icao || null,
      name: r.name || r.iata,
      country: r.country ?? "",
      lat,
      lng,
    });
  }
  if (airports.length === 0) throw new Error("large-cargo-airports.csv: no airports read");
  return encodeArtifact(CARGO_AIRPORTS_KIND, CARGO_AIRPORTS_VERSION, buildId, [
    { name: "airports", bytes: new TextEncoder().encode(JSON.stringify(airports)) },
  ]);
}

export function decodeCargoAirports(
  bytes: Uint8Array,
  path: string,
): { buildId: string; airports: CargoAirport[] } {
  const a = decodeArtifact(bytes, { kind: CARGO_AIRPORTS_KIND, formatVersion: CARGO_AIRPORTS_VERSION, path });
  const section = a.sections.get("airports");
  if (!section) throw new Error(`${path}: no airports section; run \`npm run build\``);
  return { buildId: a.buildId, airports: JSON.parse(new TextDecoder().decode(section)) };
}
