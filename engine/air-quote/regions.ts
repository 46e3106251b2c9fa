/**
 * Country -> rate-card region, from the region and subregion columns of countries/countries.json
 * (mledoze, the file data-build already reads): Europe EUR; Africa AFR; Oceania OCE; Western Asia
 * MEA (the Middle East, Türkiye and the Caucasus included); the rest of Asia ASIA; the North America
 * subregion (US, Canada, Mexico, Greenland, Bermuda: IATA's North America sub-area) NAM; the rest of
 * the Americas (Central America, the Caribbean, South America) LAT. Antarctica has none: DEFAULT rate.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Region } from "./rate-card.ts";

export const COUNTRIES_FILE = "countries/countries.json";

export function regionFor(region: string, subregion: string): Region | null {
  switch (region) {
    case "Europe":
      return "EUR";
    case "Africa":
      return "AFR";
    case "Oceania":
      return "OCE";
    case "Asia":
      return subregion === "Western Asia" ? "MEA" : "ASIA";
    case "Americas":
      return subregion === "North America" ? "NAM" : "LAT";
    default:
      return null;
  }
}

export class CountryRegions {
  private constructor(private readonly byCountry: ReadonlyMap<string, Region>) {}

  static fromJson(text: string): CountryRegions {
    const rows = JSON.parse(text) as Array<{ cca2?: unknown; region?: unknown; subregion?: unknown }>;
    const map = new Map<string, Region>();
    for (const r of rows) {
      if (typeof r.cca2 !== "string" || typeof r.region !== "string") continue;
      const region = regionFor(r.region, typeof r.subregion === "string" ? r.subregion : "");
      if (region) map.set(r.cca2.toUpperCase(), region);
    }
    if (map.size === 0) throw new Error(`${COUNTRIES_FILE}: no country with a region`);
    return new CountryRegions(map);
  }

  static async load(sourcesDir: string): Promise<CountryRegions> {
    return CountryRegions.fromJson(await readFile(join(sourcesDir, COUNTRIES_FILE), "utf8"));
  }

  /** The region of an ISO 3166-1 alpha-2 country, or null (no region: the card's DEFAULT rate). */
  regionOf(countryCode: string | null): Region | null {
    return countryCode ? (this.byCountry.get(countryCode.toUpperCase()) ?? null) : null;
  }
}
