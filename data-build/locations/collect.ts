/**
 * Reads every location source into one list of places. Ports merge by UN/LOCODE (main container
 * ports > World Port Index > UN/LOCODE, best position and name winning); airports, countries and
 * cities stay separate rows. Importance is fixed here: rows are later stored in importance order.
 */
import { haversineM } from "../../common/geo.ts";
import type { PlaceKind, PlaceSource } from "../../engine/locations/format.ts";
import { csvRecords, parseCsv, rejoinSplitFields } from "./csv.ts";

export interface Place {
  kind: PlaceKind;
  source: PlaceSource;
  name: string;
  /** Names to index; the first is the display name. */
  keys: string[];
  lat: number;
  lng: number;
  countryCode: string | null;
  locode: string | null;
  iata: string | null;
  icao: string | null;
  admin: string | null;
  timezone: string | null;
  importance: number;
}

export interface CountryInfo {
  code: string;
  name: string;
  altNames: string[];
}

export interface City {
  name: string;
  altName: string;
  country: string;
  adminCode: string;
  population: number;
  lat: number;
  lng: number;
}

export interface OurAirport {
  type: string;
  gps_code: string;
  iata_code: string;
}

export interface LocationSources {
  mainPortsCsv: string;
  wpiCsv: string;
  dcsaTzCsv: string;
  /** [file name such as "NL.csv", text] */
  unlocodeCsvs: Array<[string, string]>;
  airportsCsv: string;
  cargoAirportsCsv: string;
  countriesJson: string;
  labelPointsGeojson: string;
  cities: City[];
  ourAirports: OurAirport[];
  timezoneAt(lat: number, lng: number): string | null;
  warn(msg: string): void;
}

export interface CollectedLocations {
  places: Place[];
  countries: CountryInfo[];
  aliases: Record<string, string>;
}

/** Importance scale: only the order matters (search ties and geocoder picks follow it). */
const IMPORTANCE = {
  mainPort: 60_000, // minus rank
  country: 58_000,
  cargoAirport: [57_000, 56_000], // tier 1, tier 2
  wpi: { Large: 52_000, Medium: 45_000, Small: 38_000, "Very Small": 30_000 } as Record<string, number>,
  wpiUnknown: 28_000,
  airport: { large_airport: 50_000, medium_airport: 40_000 } as Record<string, number>,
  airportIata: 25_000,
  airportOther: 15_000,
  unlocodePort: 26_000,
  unlocodePlace: 10_000,
  city: (population: number) => 20_000 + Math.round(Math.log10(Math.max(population, 1)) * 4_500),
};

/** A main-port position this far from its LOCODE's is checked for a flipped latitude sign. */
const MAX_MAIN_PORT_OFFSET_KM = 250;

const num = (s: string | undefined): number => (s === undefined || s.trim() === "" ? Number.NaN : Number(s));
const validPoint = (lat: number, lng: number) =>
  Number.isFinite(lat) && Number.isFinite(lng) && Math.abs(lat) <= 90 && Math.abs(lng) <= 180;
const clean = (s: string) => s.replace(/\s+/g, " ").trim();
const FUNCTION_RE = /^[0-9B-]{8}$/;

function newPlace(p: Partial<Place> & Pick<Place, "kind" | "source" | "name" | "lat" | "lng">): Place {
  return {
    keys: [p.name],
    countryCode: null,
    locode: null,
    iata: null,
    icao: null,
    admin: null,
    timezone: null,
    importance: 0,
    ...p,
  };
}

function addKey(place: Place, name: string): void {
  if (name && !place.keys.includes(name)) place.keys.push(name);
}

export interface UnlocodeRow {
  country: string;
  location: string;
  name: string;
  subdivision: string;
  function: string;
  lat: number;
  lng: number;
  geocoded: boolean;
}

/**
 * One UN/LOCODE line, anchored on the 8-character function field because broken quoting shifts
 * the columns before it (and drops status and iata on those lines).
 */
export function parseUnlocodeRow(raw: string[], hasGeocoded: boolean): UnlocodeRow | null {
  const f = rejoinSplitFields(raw);
  const fi = f.findIndex((x, i) => i >= 3 && FUNCTION_RE.test(x));
  if (fi < 0 || !f[0] || !f[1]) return null;
  const before = f.slice(2, fi);
  const after = f.slice(fi + 1);
  const geocoded = hasGeocoded ? after.pop() === "true" : false;
  const lng = num(after.pop());
  const lat = num(after.pop());
  const [name = "", plain = "", subdivision = ""] = before;
  // Some files carry mojibake (U+FFFD) in the accented name; the plain-ASCII column is intact.
  const display = name.includes("\uFFFD") || name === "" ? plain : name;
  return {
    country: f[0].toUpperCase(),
    location: f[1].toUpperCase(),
    name: clean(display),
    subdivision,
    function: f[fi]!,
    lat,
    lng,
    geocoded,
  };
}

function collectCountries(src: LocationSources): CountryInfo[] & { points: Map<string, [number, number]> } {
  interface RawCountry {
    cca2: string;
    cca3: string;
    name: { common: string; official: string };
    altSpellings?: string[];
    latlng?: number[];
  }
  interface LabelFeature {
    properties: { sr_adm0_a3: string; scalerank: number };
    geometry: { coordinates: [number, number] };
  }
  const raw = JSON.parse(src.countriesJson) as RawCountry[];
  const labels = (JSON.parse(src.labelPointsGeojson) as { features: LabelFeature[] }).features;
  const byA3 = new Map<string, LabelFeature[]>();
  for (const f of labels)
    byA3.set(f.properties.sr_adm0_a3, [...(byA3.get(f.properties.sr_adm0_a3) ?? []), f]);
  const points = new Map<string, [number, number]>();
  const out = raw.map((c) => {
    // One label point per island or exclave: take the most prominent, nearest the country's centre.
    const [clat = 0, clng = 0] = c.latlng ?? [];
    const dist = (f: LabelFeature) =>
      (f.geometry.coordinates[1] - clat) ** 2 + (f.geometry.coordinates[0] - clng) ** 2;
    const label = (byA3.get(c.cca3) ?? []).reduce<LabelFeature | null>((best, f) => {
      if (!best) return f;
      const d = f.properties.scalerank - best.properties.scalerank;
      return d < 0 || (d === 0 && dist(f) < dist(best)) ? f : best;
    }, null);
    if (label) points.set(c.cca2, [label.geometry.coordinates[1], label.geometry.coordinates[0]]);
    else if (c.latlng && c.latlng.length >= 2) points.set(c.cca2, [c.latlng[0]!, c.latlng[1]!]);
    const altNames = [c.name.official, ...(c.altSpellings ?? []).filter((a) => a.length > 3)].filter(
      (a) => a !== c.name.common,
    );
    return { code: c.cca2, name: c.name.common, altNames };
  });
  return Object.assign(out, { points });
}

export function collectLocations(src: LocationSources): CollectedLocations {
  const countries = collectCountries(src);
  const countryByName = new Map<string, string>();
  for (const c of countries) {
    for (const n of [c.name, ...c.altNames]) countryByName.set(n.toLowerCase(), c.code);
  }
  const places: Place[] = [];
  const byLocode = new Map<string, Place>();
  const dcsaTz = new Map(csvRecords(src.dcsaTzCsv).map((r) => [r.unlocode!, r.timezone!]));

  // UN/LOCODE: every coded place; ports (function 1) become port rows, the rest places to geocode.
  let unlocodeRows = 0;
  let skipped = 0;
  for (const [file, text] of src.unlocodeCsvs) {
    const [header, ...rows] = parseCsv(text);
    const hasGeocoded = header?.includes("geocoded") ?? false;
    for (const raw of rows) {
      if (raw.length < 5) continue;
      const row = parseUnlocodeRow(raw, hasGeocoded);
      if (!row || !validPoint(row.lat, row.lng)) {
        skipped++;
        continue;
      }
      unlocodeRows++;
      const isPort = row.function.startsWith("1");
      const locode = row.country + row.location;
      const place = newPlace({
        kind: isPort ? "port" : "address",
        source: "unlocode",
        name: row.name,
        lat: row.lat,
        lng: row.lng,
        countryCode: row.country,
        locode,
        admin: row.subdivision || null,
        // Geocoded rows are sometimes far off; rank them below surveyed ones.
        importance:
          (isPort ? IMPORTANCE.unlocodePort : IMPORTANCE.unlocodePlace) - (row.geocoded ? 1_000 : 0),
      });
      if (!byLocode.has(locode)) {
        byLocode.set(locode, place);
        places.push(place);
      }
    }
    if (rows.length === 0) src.warn(`${file}: no rows`);
  }
  src.warn(`unlocode: ${unlocodeRows} rows with coordinates, ${skipped} skipped (no usable position)`);

  // World Port Index: surveyed port positions and harbour size.
  for (const r of csvRecords(src.wpiCsv)) {
    const name = clean(r["Main Port Name"] ?? "");
    const lat = num(r.Latitude);
    const lng = num(r.Longitude);
    if (!name || !validPoint(lat, lng)) continue;
    const locode = (r["UN/LOCODE"] ?? "").replace(/\s+/g, "").toUpperCase();
    const size = (r["Harbor Size"] ?? "").trim();
    const importance = IMPORTANCE.wpi[size] ?? IMPORTANCE.wpiUnknown;
    const existing = locode.length === 5 ? byLocode.get(locode) : undefined;
    if (existing) {
      const unlocodeName = existing.name;
      Object.assign(existing, { kind: "port", source: "wpi", name, lat, lng });
      existing.keys = [name];
      addKey(existing, unlocodeName);
      existing.importance = Math.max(existing.importance, importance);
      continue;
    }
    const countryCode =
      locode.length === 5
        ? locode.slice(0, 2)
        : (countryByName.get((r["Country Code"] ?? "").toLowerCase()) ?? null);
    const place = newPlace({
      kind: "port",
      source: "wpi",
      name,
      lat,
      lng,
      countryCode,
      locode: locode.length === 5 ? locode : null,
      importance,
    });
    if (place.locode) byLocode.set(place.locode, place);
    places.push(place);
  }

  // Main container ports: throughput rank and the carriers' legacy codes.
  const aliases: Record<string, string> = {};
  const [, ...mainRows] = parseCsv(src.mainPortsCsv);
  for (const raw of mainRows) {
    if (raw.length < 8) continue;
    // Anchored at both ends: the unlocode_name column is badly quoted on some lines.
    const [rank, name, legacy, current] = raw;
    let [lat, lng, offsetKm] = raw.slice(-3).map(num) as [number, number, number];
    if (!current || !name || !validPoint(lat, lng)) continue;
    if (legacy && legacy !== current) aliases[legacy] = current;
    const existing = byLocode.get(current);
    // Tanjung Priok is listed at +6.09 (north of the equator): a flipped sign, not a far-off port.
    if (existing && offsetKm > MAX_MAIN_PORT_OFFSET_KM) {
      if (haversineM(-lat, lng, existing.lat, existing.lng) / 1000 < MAX_MAIN_PORT_OFFSET_KM) {
        src.warn(`main port ${current} ${name}: latitude ${lat} has a flipped sign, using ${-lat}`);
        lat = -lat;
      }
    }
    const importance = IMPORTANCE.mainPort - Number(rank);
    if (existing) {
      const old = existing.name;
      Object.assign(existing, { kind: "port", source: "main_ports", name, lat, lng, importance });
      existing.keys = [name, ...existing.keys.filter((k) => k !== name)];
      addKey(existing, old);
    } else {
      const place = newPlace({
        kind: "port",
        source: "main_ports",
        name,
        lat,
        lng,
        countryCode: current.slice(0, 2),
        locode: current,
        importance,
      });
      byLocode.set(current, place);
      places.push(place);
    }
  }

  // Airports: positions and zones from airportsdata; size from OurAirports and the cargo ranking.
  const cargoTier = new Map(csvRecords(src.cargoAirportsCsv).map((r) => [r.iata!, Number(r.tier)]));
  const ourType = new Map<string, string>();
  for (const a of src.ourAirports) {
    if (a.gps_code) ourType.set(a.gps_code, a.type);
    if (a.iata_code) ourType.set(a.iata_code, a.type);
  }
  for (const r of csvRecords(src.airportsCsv)) {
    const icao = /^[A-Z]{4}$/.test(r.icao ?? "") ? r.icao! : null;
    const iata = /^[A-Z]{3}$/.test(r.iata ?? "") ? r.iata! : null;
    const lat = num(r.lat);
    const lng = num(r.lon);
    if ((!icao && !iata) || !validPoint(lat, lng) || !r.name) continue;
    const tier = iata ? cargoTier.get(iata) : undefined;
    const type = (icao && ourType.get(icao)) || (iata && ourType.get(iata)) || "";
    const importance =
      tier !== undefined
        ? (IMPORTANCE.cargoAirport[tier - 1] ?? IMPORTANCE.cargoAirport[1]!)
        : (IMPORTANCE.airport[type] ?? (iata ? IMPORTANCE.airportIata : IMPORTANCE.airportOther));
    const name = clean(r.name);
    const city = clean(r.city ?? "");
    const place = newPlace({
      kind: "airport",
      source: "ourairports",
      name,
      lat,
      lng,
      countryCode: r.country || null,
      iata,
      icao,
      timezone: r.tz || null,
      importance,
    });
    // "Hong Kong" should find Chek Lap Kok: the served city joins the name's key.
    if (city && !name.toLowerCase().includes(city.toLowerCase())) place.keys = [`${name} ${city}`];
    places.push(place);
  }

  for (const c of countries) {
    const point = countries.points.get(c.code);
    if (!point) continue;
    const place = newPlace({
      kind: "country",
      source: "countries",
      name: c.name,
      lat: point[0],
      lng: point[1],
      countryCode: c.code,
      importance: IMPORTANCE.country,
    });
    for (const alt of c.altNames) addKey(place, alt);
    places.push(place);
  }

  for (const c of src.cities) {
    if (!validPoint(c.lat, c.lng) || !c.name) continue;
    const place = newPlace({
      kind: "address",
      source: "geonames",
      name: c.name,
      lat: c.lat,
      lng: c.lng,
      countryCode: c.country || null,
      admin: c.adminCode || null,
      importance: IMPORTANCE.city(c.population),
    });
    if (c.altName) addKey(place, c.altName);
    places.push(place);
  }

  for (const p of places) {
    if (p.kind === "country") continue;
    if (p.locode) p.timezone = dcsaTz.get(p.locode) ?? p.timezone;
    p.timezone ??= src.timezoneAt(p.lat, p.lng);
  }

  // An alias pointing nowhere would make carriers' codes unresolvable: say so in the build log.
  for (const [legacy, current] of Object.entries(aliases)) {
    if (!byLocode.has(current)) src.warn(`alias ${legacy} -> ${current}: target unknown`);
  }
  return { places, countries, aliases };
}
