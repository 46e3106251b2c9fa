/**
 * Reads every location source into one list of places. Ports merge by UN/LOCODE (main container
 * ports > World Port Index > UN/LOCODE, best position and name winning); airports, countries and
 * cities stay separate rows. Importance is fixed here: rows are later stored in importance order.
 */
import { haversineM } from "../../common/geo.ts";
import { csvRecords, parseCsv, rejoinSplitFields } from "../../formats/csv.ts";
import type { PlaceKind, PlaceSource } from "../../formats/locations.ts";
import { normalize } from "../../formats/normalize.ts";

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
  /** Official, native and alternative names: search keys of the country and qualifiers. */
  altNames: string[];
  /** Short forms ("USA", "UK", "DEU") that only qualify a name ("Newark, USA"): too short as keys. */
  shortNames: string[];
}

export interface City {
  /** GeoNames id. */
  id: string;
  name: string;
  /** Other names to index: exonyms and local forms ("Antwerp" and "Anvers" for Antwerpen). */
  altNames: string[];
  /** GeoNames feature code: PPLC capital, PPLA..PPLA4 seats of admin divisions, PPLX city sections. */
  featureCode: string;
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
  /** [ISO alpha-2, GeoNames admin-1 code, admin-1 name] ("US", "IL", "Illinois"). */
  admins: Array<[string, string, string]>;
}

/** Importance added by GeoNames feature code: capitals and admin seats over towns of their size. */
const CITY_RANK = new Map([
  ["PPLC", 3_000],
  ["PPLA", 1_000],
  ["PPLA2", 300],
  ["PPLX", -3_000],
]);

/** Importance scale: only the order matters (search ties and geocoder picks follow it). */
const IMPORTANCE = {
  mainPort: 60_000, // minus rank
  countryCapital: 58_500, // a capital named like its country
  country: 58_000,
  cargoAirport: [57_000, 56_000], // tier 1, tier 2
  wpi: { Large: 52_000, Medium: 45_000, Small: 42_000, "Very Small": 30_000 } as Record<string, number>,
  wpiUnknown: 28_000,
  airport: { large_airport: 50_000, medium_airport: 40_000 } as Record<string, number>,
  airportIata: 25_000,
  airportOther: 15_000,
  unlocodePort: 26_000,
  unlocodePlace: 10_000,
  /** A tenfold population is 4,500: a capital counts as ~5x its size, an admin-1 seat ~1.7x, a city section ~5x less. */
  city: (population: number, featureCode: string) =>
    20_000 + Math.round(Math.log10(Math.max(population, 1)) * 4_500) + (CITY_RANK.get(featureCode) ?? 0),
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
    name: { common: string; official: string; native?: Record<string, { common: string }> };
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
    const spellings = c.altSpellings ?? [];
    const native = Object.values(c.name.native ?? {}).map((n) => n.common);
    const altNames = [
      ...new Set([c.name.official, ...native, ...spellings.filter((a) => a.length > 3)]),
    ].filter((a) => a !== c.name.common);
    const shortNames = [c.cca3, ...spellings.filter((a) => a.length <= 3 && a !== c.cca2)];
    return { code: c.cca2, name: c.name.common, altNames, shortNames };
  });
  return Object.assign(out, { points });
}

/** The places collected so far, and the one row of each UN/LOCODE. */
interface PlaceTable {
  places: Place[];
  byLocode: Map<string, Place>;
}

/** UN/LOCODE: every coded place; ports (function 1) become port rows, the rest places to geocode. */
function addUnlocode(table: PlaceTable, src: LocationSources): void {
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
      if (!table.byLocode.has(locode)) {
        table.byLocode.set(locode, place);
        table.places.push(place);
      }
    }
    if (rows.length === 0) src.warn(`${file}: no rows`);
  }
  src.warn(`unlocode: ${unlocodeRows} rows with coordinates, ${skipped} skipped (no usable position)`);
}

/** World Port Index: surveyed port positions and harbour size. */
function addWpi(table: PlaceTable, src: LocationSources, countryByName: Map<string, string>): void {
  for (const r of csvRecords(src.wpiCsv)) {
    const name = clean(r["Main Port Name"] ?? "");
    const lat = num(r.Latitude);
    const lng = num(r.Longitude);
    if (!name || !validPoint(lat, lng)) continue;
    const locode = (r["UN/LOCODE"] ?? "").replace(/\s+/g, "").toUpperCase();
    const size = (r["Harbor Size"] ?? "").trim();
    const importance = IMPORTANCE.wpi[size] ?? IMPORTANCE.wpiUnknown;
    const existing = locode.length === 5 ? table.byLocode.get(locode) : undefined;
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
    if (place.locode) table.byLocode.set(place.locode, place);
    table.places.push(place);
  }
}

/** Main container ports: throughput rank and the carriers' legacy codes (returned: legacy -> current). */
function addMainPorts(table: PlaceTable, src: LocationSources): Record<string, string> {
  const aliases: Record<string, string> = {};
  const [, ...mainRows] = parseCsv(src.mainPortsCsv);
  for (const raw of mainRows) {
    if (raw.length < 8) continue;
    // Anchored at both ends: the unlocode_name column is badly quoted on some lines.
    const [rank, name, legacy, current] = raw;
    let [lat, lng, offsetKm] = raw.slice(-3).map(num) as [number, number, number];
    if (!current || !name || !validPoint(lat, lng)) continue;
    if (legacy && legacy !== current) aliases[legacy] = current;
    const existing = table.byLocode.get(current);
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
      table.byLocode.set(current, place);
      table.places.push(place);
    }
  }
  return aliases;
}

/** Airports: positions and zones from airportsdata; size from OurAirports and the cargo ranking. */
function airportPlaces(src: LocationSources): Place[] {
  const places: Place[] = [];
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
    // "Hong Kong" should find Chek Lap Kok and "Sao Paulo" Guarulhos: the served city is a key of its
    // own, so a city's airports match as name prefixes and rank among themselves by size.
    if (city && !name.toLowerCase().includes(city.toLowerCase())) addKey(place, city);
    places.push(place);
  }
  return places;
}

/** Countries at their label points, with their other names as keys. */
function countryPlaces(countries: ReturnType<typeof collectCountries>): Place[] {
  const places: Place[] = [];
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
  return places;
}

export function collectLocations(src: LocationSources): CollectedLocations {
  const countries = collectCountries(src);
  const countryByName = new Map<string, string>();
  for (const c of countries) {
    for (const n of [c.name, ...c.altNames]) countryByName.set(n.toLowerCase(), c.code);
  }
  const table: PlaceTable = { places: [], byLocode: new Map() };
  const { places, byLocode } = table;
  const dcsaTz = new Map(csvRecords(src.dcsaTzCsv).map((r) => [r.unlocode!, r.timezone!]));
  addUnlocode(table, src);
  addWpi(table, src, countryByName);
  const aliases = addMainPorts(table, src);
  places.push(...airportPlaces(src));
  places.push(...countryPlaces(countries));
  places.push(...cityPlaces(src.cities, countries));
  for (const p of places) {
    if (p.kind === "country") continue;
    if (p.locode) p.timezone = dcsaTz.get(p.locode) ?? p.timezone;
    p.timezone ??= src.timezoneAt(p.lat, p.lng);
  }

  // An alias pointing nowhere would make carriers' codes unresolvable: say so in the build log.
  for (const [legacy, current] of Object.entries(aliases)) {
    if (!byLocode.has(current)) src.warn(`alias ${legacy} -> ${current}: target unknown`);
  }
  return { places, countries, aliases, admins: collectAdminNames(src.airportsCsv, src.cities) };
}

/**
 * GeoNames cities as places. A capital named like its country ("Djibouti", "Panama", "Luxembourg")
 * is what its name means to a freight user, so it ranks above the country's label point.
 */
function cityPlaces(cities: City[], countries: CountryInfo[]): Place[] {
  const countryName = new Map(countries.map((c) => [c.code, normalize(c.name)]));
  const places: Place[] = [];
  for (const c of cities) {
    if (!validPoint(c.lat, c.lng) || !c.name) continue;
    const namesake = c.featureCode === "PPLC" && countryName.get(c.country) === normalize(c.name);
    const place = newPlace({
      kind: "address",
      source: "geonames",
      name: c.name,
      lat: c.lat,
      lng: c.lng,
      countryCode: c.country || null,
      admin: c.adminCode || null,
      importance: namesake ? IMPORTANCE.countryCapital : IMPORTANCE.city(c.population, c.featureCode),
    });
    for (const alt of c.altNames) addKey(place, alt);
    places.push(place);
  }
  return places;
}

/** Grid cell size for the nearest-city join below; 1 degree keeps each lookup to a few hundred cities. */
const CELL_DEG = 1;
/** An airport farther than this from every city of its country casts no vote. */
const MAX_ADMIN_JOIN_KM = 60;

/**
 * First-level admin names for the GeoNames admin codes the cities carry ("Illinois" -> US/IL,
 * "Hamburg" -> DE/04). No offline source pairs the two, so each airport (airports.csv names its
 * subdivision) votes for the admin code of the nearest city of its country; the majority wins,
 * which outvotes airports near a border.
 */
export function collectAdminNames(airportsCsv: string, cities: City[]): Array<[string, string, string]> {
  const grid = new Map<string, City[]>();
  const cellKey = (lat: number, lng: number) => `${Math.floor(lat / CELL_DEG)}:${Math.floor(lng / CELL_DEG)}`;
  for (const c of cities) {
    if (!c.adminCode || !validPoint(c.lat, c.lng)) continue;
    const k = cellKey(c.lat, c.lng);
    const list = grid.get(k);
    if (list) list.push(c);
    else grid.set(k, [c]);
  }
  const votes = new Map<string, Map<string, number>>();
  const names = new Map<string, string>();
  for (const r of csvRecords(airportsCsv)) {
    const subd = clean(r.subd ?? "");
    const country = r.country ?? "";
    const lat = num(r.lat);
    const lng = num(r.lon);
    if (!subd || !country || !validPoint(lat, lng)) continue;
    let best: City | null = null;
    let bestKm = MAX_ADMIN_JOIN_KM;
    const cy = Math.floor(lat / CELL_DEG);
    const cx = Math.floor(lng / CELL_DEG);
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        for (const c of grid.get(`${cy + dy}:${cx + dx}`) ?? []) {
          if (c.country !== country) continue;
          const km = haversineM(lat, lng, c.lat, c.lng) / 1000;
          if (km < bestKm) {
            bestKm = km;
            best = c;
          }
        }
      }
    }
    if (!best) continue;
    const key = `${country}\u0000${subd.toLowerCase()}`;
    if (!names.has(key)) names.set(key, subd);
    const tally = votes.get(key) ?? new Map<string, number>();
    tally.set(best.adminCode, (tally.get(best.adminCode) ?? 0) + 1);
    votes.set(key, tally);
  }
  const out: Array<[string, string, string]> = [];
  for (const [key, tally] of votes) {
    const [code] = [...tally].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]!;
    out.push([key.slice(0, key.indexOf("\u0000")), code, names.get(key)!]);
  }
  return out.sort((a, b) => (a[0] + a[2] < b[0] + b[2] ? -1 : 1));
}
