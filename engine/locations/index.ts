/**
 * Location resolution and search over the `locations` artifact. Web-standard APIs only (runs under
 * Bun and Deno): bytes come from the caller, or from fetch() via fromUrl. Precedence rules for short
 * codes are documented in docs/locations.md.
 */

import { own } from "../../common/own.ts";
import { decodeArtifact } from "../../formats/container.ts";
import {
  CODE_BYTES,
  CODE_FIELDS,
  type CodeField,
  KINDS,
  LOCATIONS_FORMAT_VERSION,
  LOCATIONS_KIND,
  type LocationsMeta,
  NO_INDEX,
  type PlaceKind,
  SECTION,
  SOURCES,
} from "../../formats/locations.ts";
import { normalize } from "../../formats/normalize.ts";
import { EngineError } from "../errors.ts";
import { comparePrefix, NameKeys, splitQualifier } from "./names.ts";
import { indexCodes, type KnownCodes, type SuggestedField, unknownCode } from "./suggest.ts";

export type { PlaceKind } from "../../formats/locations.ts";
export { normalize } from "../../formats/normalize.ts";

export interface ResolvedPoint {
  kind: "port" | "airport" | "country" | "address" | "coordinates" | "rail_terminal";
  name: string;
  locode: string | null;
  iata: string | null;
  /** Country name. */
  country: string | null;
  /** ISO 3166-1 alpha-2. */
  country_code: string | null;
  lat: number;
  lng: number;
  /** main_ports, wpi, unlocode, ourairports, countries, geonames, coordinates, or an external geocoder's name */
  source: string;
  /** IANA zone, null for countries and raw coordinates. */
  timezone: string | null;
}

export interface SearchResult {
  kind: PlaceKind;
  /** UN/LOCODE for ports and coded places; the IATA (else ICAO) code for airports. */
  locode: string | null;
  name: string;
  country: string | null;
  country_code: string | null;
  lat: number;
  lng: number;
}

export interface SearchOptions {
  types?: PlaceKind[];
  /** false leaves out address (geocoder) results. Default true. */
  geocode?: boolean;
  limit?: number;
}

/** Free-text lookup. The offline one reads the artifact; an external one may be plugged in. */
export interface Geocoder {
  geocode(text: string): ResolvedPoint | null | Promise<ResolvedPoint | null>;
  /** Address candidates for the locations search (external geocoders); failures are geocoder_unavailable. */
  search?(text: string, limit: number): Promise<ResolvedPoint[]>;
}

/** What a code-shaped input names (see codeReading). */
interface CodeReading {
  /** Rows carrying the code, most important first (looked up when asked: text may come first). */
  rows(): number[];
  /** Read as a code before free text; otherwise only when no name matches. */
  first: boolean;
  /** The UN/LOCODE asked for, which a port answer echoes; null for other codes. */
  locode: string | null;
  /** The code kind an unknown code gets suggestions from (UN/LOCODE, IATA), else null. */
  suggestFrom: SuggestedField | null;
}

/** A search's result count: bounds and default (the distance API documents them from here). */
export const LOCATION_LIMIT = { minimum: 1, maximum: 50, default: 10 } as const;
const COORDS_RE = /^([+-]?\d+(?:\.\d+)?)\s*,\s*([+-]?\d+(?:\.\d+)?)$/;
const NUMERIC_RE = /^[\d\s.,+-]+$/;
const LOCODE_RE = /^([A-Za-z]{2})\s?([A-Za-z2-9]{3})$/;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A typed view over a section; copies only when the caller's buffer is misaligned for the type. */
function view<T>(
  ctor: { new (buffer: ArrayBuffer, offset: number, length: number): T; BYTES_PER_ELEMENT: number },
  bytes: Uint8Array,
): T {
  const b = bytes.byteOffset % ctor.BYTES_PER_ELEMENT === 0 ? bytes : bytes.slice();
  return new ctor(b.buffer as ArrayBuffer, b.byteOffset, b.byteLength / ctor.BYTES_PER_ELEMENT);
}

/** A raw `lat,lng` input as a resolved point; out-of-range values are a 400. */
export function coordinatesPoint(lat: number, lng: number): ResolvedPoint {
  if (Math.abs(lat) > 90) throw new EngineError("invalid_request", `latitude ${lat} is outside -90..90`);
  if (Math.abs(lng) > 180) throw new EngineError("invalid_request", `longitude ${lng} is outside -180..180`);
  return {
    kind: "coordinates",
    name: `${lat},${lng}`,
    locode: null,
    iata: null,
    country: null,
    country_code: null,
    lat,
    lng,
    source: "coordinates",
    timezone: null,
  };
}

export class LocationIndex {
  readonly buildId: string;
  readonly rows: number;
  private readonly meta: LocationsMeta;
  private readonly names: Uint8Array;
  private readonly nameKeys: NameKeys;
  private readonly lat: Int32Array;
  private readonly lng: Int32Array;
  private readonly nameOff: Uint32Array;
  private readonly nameLen: Uint16Array;
  private readonly kind: Uint8Array;
  private readonly source: Uint8Array;
  private readonly country: Uint16Array;
  private readonly tz: Uint16Array;
  private readonly codes: Uint8Array;
  private readonly byCode: Record<Exclude<CodeField, "admin">, Uint32Array>;
  private readonly countryByCode = new Map<string, number>();
  /** Normalized country names (common, official, alternative) -> country index. */
  private readonly countryByName = new Map<string, number>();
  private readonly countryRow = new Map<number, number>();
  /** Normalized admin-1 names -> [country index, admin code] ("illinois" -> US, "IL"). */
  private readonly adminByName = new Map<string, Array<[number, string]>>();
  /** Known codes for suggestions (knownCodes), indexed once asked for. */
  private readonly codeLists = new Map<SuggestedField, KnownCodes>();
  /** A port's current UN/LOCODE -> the code carriers send for it (CNSHG -> CNSHA): the one every product shows. */
  private readonly carrierCode: ReadonlyMap<string, string>;
  readonly offline: Geocoder = { geocode: (text) => this.geocodeOffline(text) };

  private constructor(bytes: Uint8Array, path?: string) {
    const art = decodeArtifact(bytes, {
      kind: LOCATIONS_KIND,
      formatVersion: LOCATIONS_FORMAT_VERSION,
      path,
    });
    const s = (name: string): Uint8Array => {
      const body = art.sections.get(name);
      if (!body) throw new Error(`artifact ${path ?? LOCATIONS_KIND}: section ${name} missing`);
      return body;
    };
    this.buildId = art.buildId;
    this.meta = JSON.parse(decoder.decode(s(SECTION.meta))) as LocationsMeta;
    this.rows = this.meta.rows;
    this.carrierCode = new Map(
      Object.entries(this.meta.aliases).map(([carrier, current]) => [current, carrier]),
    );
    this.names = s(SECTION.names);
    this.lat = view(Int32Array, s(SECTION.lat));
    this.lng = view(Int32Array, s(SECTION.lng));
    this.nameOff = view(Uint32Array, s(SECTION.nameOff));
    this.nameLen = view(Uint16Array, s(SECTION.nameLen));
    this.kind = s(SECTION.kind);
    this.source = s(SECTION.source);
    this.nameKeys = new NameKeys(
      s(SECTION.keys),
      view(Uint32Array, s(SECTION.words)),
      view(Uint32Array, s(SECTION.keyRows)),
      this.kind,
      this.source,
    );
    this.country = view(Uint16Array, s(SECTION.country));
    this.tz = view(Uint16Array, s(SECTION.tz));
    this.codes = s(SECTION.codes);
    this.byCode = {
      locode: view(Uint32Array, s(SECTION.byLocode)),
      iata: view(Uint32Array, s(SECTION.byIata)),
      icao: view(Uint32Array, s(SECTION.byIcao)),
    };
    this.meta.countries.forEach(([code, name, alt], i) => {
      this.countryByCode.set(code, i);
      for (const n of [normalize(name), ...alt]) if (!this.countryByName.has(n)) this.countryByName.set(n, i);
    });
    for (const [cc, code, name] of this.meta.admins ?? []) {
      const country = this.countryByCode.get(cc);
      if (country === undefined) continue;
      const list = this.adminByName.get(name) ?? [];
      list.push([country, code]);
      this.adminByName.set(name, list);
    }
    const countryKind = KINDS.indexOf("country");
    for (let row = 0; row < this.rows; row++) {
      if (this.kind[row] === countryKind) this.countryRow.set(this.country[row]!, row);
    }
  }

  /** Verifies and opens an artifact (kind and format version pinned; a stale file says how to rebuild). */
  static fromBytes(bytes: Uint8Array, path?: string): LocationIndex {
    return new LocationIndex(bytes, path);
  }

  /** Loads through fetch(): http(s) URLs, or file: URLs under Bun and Deno. */
  static async fromUrl(url: string | URL, fetchImpl: typeof fetch = fetch): Promise<LocationIndex> {
    const res = await fetchImpl(url);
    if (!res.ok) throw new Error(`locations artifact ${url}: HTTP ${res.status}`);
    return new LocationIndex(new Uint8Array(await res.arrayBuffer()), String(url));
  }

  // ---- resolution ----------------------------------------------------------------------------

  /** Resolves any location form of the spec with the offline geocoder. */
  resolve(input: string): ResolvedPoint {
    const form = this.readInput(input);
    if ("point" in form) return form.point;
    const code = form.code?.first ? this.codePoint(form.code) : null;
    const named = code ?? this.geocodeOffline(form.text) ?? this.codePoint(form.code);
    return named ?? this.notFound(form.text, form.code);
  }

  /**
   * As resolve, but free text goes through `geocoder` (an external one, say). Its failures become
   * geocoder_unavailable; codes and coordinates never touch it.
   */
  async resolveWith(input: string, geocoder: Geocoder): Promise<ResolvedPoint> {
    const form = this.readInput(input);
    if ("point" in form) return form.point;
    const code = form.code?.first ? this.codePoint(form.code) : null;
    if (code) return code;
    let point: ResolvedPoint | null;
    try {
      point = await geocoder.geocode(form.text);
    } catch (err) {
      if (err instanceof EngineError) throw err;
      throw new EngineError(
        "geocoder_unavailable",
        `address lookup is unavailable: ${(err as Error).message ?? err}`,
      );
    }
    return point ?? this.codePoint(form.code) ?? this.notFound(form.text, form.code);
  }

  /**
   * Coordinates and country codes are definite (the point, a 400 or a 404); anything else is text,
   * perhaps shaped like a code.
   */
  private readInput(raw: string): { point: ResolvedPoint } | { text: string; code: CodeReading | null } {
    const input = raw.trim();
    if (input === "") throw new EngineError("invalid_request", "location is empty");
    const coords = COORDS_RE.exec(input);
    if (coords) return { point: coordinatesPoint(Number(coords[1]), Number(coords[2])) };
    if (NUMERIC_RE.test(input)) throw new EngineError("invalid_request", `"${input}" is not a lat,lng pair`);
    const code = this.codeReading(input);
    if (/^[A-Za-z]{2}$/.test(input)) return { point: this.codePoint(code) ?? this.notFound(input) };
    return { text: input, code };
  }

  /**
   * The rows a code-shaped input names. Two letters are a country; three an IATA code in any case
   * ("Ulm" is the airport coded ULM); four an ICAO code; five a UN/LOCODE ("NLRTM", "NL RTM", legacy
   * aliases first). Four or five letters in lower or mixed case ("Lima", "Paris") are a name first
   * and a code only when no name matches.
   */
  private codeReading(input: string): CodeReading | null {
    const upper = input.toUpperCase();
    if (/^[A-Za-z]{2}$/.test(input)) {
      const row = this.countryRow.get(this.countryByCode.get(upper) ?? NO_INDEX);
      return { rows: () => (row === undefined ? [] : [row]), first: true, locode: null, suggestFrom: null };
    }
    if (/^[A-Za-z]{3}$/.test(input)) {
      return { rows: () => this.codeRange("iata", upper), first: true, locode: null, suggestFrom: "iata" };
    }
    if (/^[A-Za-z]{4}$/.test(input)) {
      const rows = () => this.codeRange("icao", upper);
      return { rows, first: input === upper, locode: null, suggestFrom: null };
    }
    const m = LOCODE_RE.exec(input);
    if (!m) return null;
    const locode = `${m[1]}${m[2]}`.toUpperCase();
    const rows = () => {
      const row = this.locodeRow(locode);
      return row === -1 ? [] : [row];
    };
    return { rows, first: input === upper || /[\s2-9]/.test(input), locode, suggestFrom: "locode" };
  }

  /** The place a code names, or null; a port answers with the code asked for (CNSHG stays CNSHG). */
  private codePoint(code: CodeReading | null): ResolvedPoint | null {
    const row = code?.rows()[0];
    if (!code || row === undefined) return null;
    const point = this.point(row);
    return code.locode === null ? point : { ...point, locode: code.locode };
  }

  /** location_not_found; an unknown UN/LOCODE or IATA code names the nearest known codes. */
  private notFound(input: string, code: CodeReading | null = null): never {
    const text = input.trim();
    if (!code?.suggestFrom)
      throw new EngineError("location_not_found", `location "${text}" could not be found`);
    const known = this.knownCodes(code.suggestFrom);
    const asked = { text, code: code.locode ?? text.toUpperCase(), first: code.first };
    throw unknownCode(asked, code.suggestFrom, known, (row) => ({
      name: this.displayName(row),
      source: SOURCES[this.source[row]!]!,
    }));
  }

  /** Every known code of `field` once (a port's as products show it) with its row; indexed once asked. */
  knownCodes(field: SuggestedField): KnownCodes {
    const cached = this.codeLists.get(field);
    if (cached) return cached;
    const [at, width] = CODE_FIELDS[field];
    const [codes, rows]: [string[], number[]] = [[], []];
    let last: string | null = null;
    for (const row of this.byCode[field]) {
      const code = this.codeString(row, at, width);
      if (code === null || code === last) continue;
      last = code;
      codes.push(field === "locode" ? this.productCode(code)! : code);
      rows.push(row);
    }
    const list = indexCodes(field, codes, rows);
    this.codeLists.set(field, list);
    return list;
  }

  // ---- ranking (shared by search and resolution) ---------------------------------------------

  /** Best named place for free text: the first of the ranking search lists. */
  private geocodeOffline(text: string): ResolvedPoint | null {
    const row = this.rankedNames(text, () => true, 1)[0];
    return row === undefined ? null : this.point(row);
  }

  /**
   * Up to `limit` accepted rows named by the text, best first: readings in order ("City, CC" narrowed
   * first), within a reading the tiers of NameKeys.tiers (exact name, prefix, later word).
   */
  private rankedNames(text: string, accept: (row: number) => boolean, limit: number): number[] {
    const out: number[] = [];
    const seen = new Set<number>();
    for (const reading of this.readings(text)) {
      const tiers = this.nameKeys.tiers(reading.name, (row) => accept(row) && reading.accept(row));
      for (const tier of tiers) {
        for (const row of tier) {
          if (seen.has(row)) continue;
          seen.add(row);
          out.push(row);
          if (out.length >= limit) return out;
        }
      }
    }
    return out;
  }

  /** Readings of free text with their row filters; a qualifier that names nothing drops its reading. */
  private readings(text: string): Array<{ name: string; accept: (row: number) => boolean }> {
    const out: Array<{ name: string; accept: (row: number) => boolean }> = [];
    for (const { name, qualifier } of splitQualifier(text.trim())) {
      const accept = qualifier === null ? () => true : this.qualifierFilter(qualifier);
      if (accept) out.push({ name, accept });
    }
    return out;
  }

  /**
   * Row filter for a qualifier: a country (code or name), a first-level admin code ("IL") or a
   * first-level admin name ("Illinois", "Hamburg": the admin code within its country).
   */
  private qualifierFilter(qualifier: string): ((row: number) => boolean) | null {
    const q = normalize(qualifier);
    const countryIdx = this.countryByCode.get(q.toUpperCase()) ?? this.countryByName.get(q);
    const admin = q.length <= 4 ? q.toUpperCase() : null;
    const adminNamed = this.adminByName.get(q);
    if (countryIdx === undefined && admin === null && !adminNamed) return null;
    const [at, width] = CODE_FIELDS.admin;
    return (row) => {
      if (countryIdx !== undefined && this.country[row] === countryIdx) return true;
      if (admin === null && !adminNamed) return false;
      const code = this.codeString(row, at, width);
      if (code === null) return false;
      if (admin !== null && code === admin) return true;
      return adminNamed?.some(([c, a]) => c === this.country[row] && a === code) ?? false;
    };
  }

  // ---- search --------------------------------------------------------------------------------

  /**
   * Ranked search, in the order resolution picks from: a code the input is first read as, then the
   * name ranking, then a code read only after names ("lima" is the city before the ICAO code LIMA),
   * then, when the page is not full, names containing the text. Diacritics and punctuation are ignored.
   */
  search(q: string, opts: SearchOptions = {}): SearchResult[] {
    const query = q.trim();
    if (query.length < 2) throw new EngineError("invalid_request", "q must be at least 2 characters");
    const { minimum, maximum } = LOCATION_LIMIT;
    const limit = opts.limit ?? LOCATION_LIMIT.default;
    if (!Number.isInteger(limit) || limit < minimum || limit > maximum) {
      throw new EngineError("invalid_request", `limit must be an integer from ${minimum} to ${maximum}`);
    }
    for (const t of opts.types ?? []) {
      if (!KINDS.includes(t))
        throw new EngineError("invalid_request", `unknown type "${t}"; types: ${KINDS.join(", ")}`);
    }
    const allowed = new Set<number>((opts.types?.length ? opts.types : KINDS).map((t) => KINDS.indexOf(t)));
    if (opts.geocode === false) allowed.delete(KINDS.indexOf("address"));

    const picked: number[] = [];
    const seen = new Set<number>();
    const wanted = (row: number) => allowed.has(this.kind[row]!) && !seen.has(row);
    const add = (rows: Iterable<number>) => {
      for (const row of rows) {
        if (picked.length >= limit) return;
        if (!wanted(row)) continue;
        seen.add(row);
        picked.push(row);
      }
    };
    const code = this.codeReading(query);
    if (code?.first) add(code.rows());
    add(this.rankedNames(query, wanted, limit - picked.length));
    if (code && !code.first && picked.length < limit) add(code.rows());
    for (const reading of this.readings(query)) {
      if (picked.length >= limit) break;
      if (normalize(reading.name).length >= 3)
        add(this.nameKeys.substringRows(reading.name).filter(reading.accept));
    }
    return picked.map((row) => this.searchResult(row));
  }

  /**
   * search() plus address candidates from `geocoder` (Nominatim or Photon) when the offline index did
   * not fill the page, address results are wanted and geocode is not false. A geocoder that is down
   * answers geocoder_unavailable; geocode: false never touches it.
   */
  async searchWith(q: string, opts: SearchOptions, geocoder: Geocoder): Promise<SearchResult[]> {
    const results = this.search(q, opts);
    const limit = opts.limit ?? LOCATION_LIMIT.default;
    const wantsAddress = !opts.types?.length || opts.types.includes("address");
    if (!geocoder.search || opts.geocode === false || !wantsAddress || results.length >= limit)
      return results;
    const hits = await geocoder.search(q.trim(), limit - results.length);
    for (const p of hits) {
      if (results.length >= limit) break;
      if (results.some((r) => r.name === p.name && r.lat === p.lat && r.lng === p.lng)) continue;
      results.push({
        kind: "address",
        locode: null,
        name: p.name,
        country: p.country,
        country_code: p.country_code,
        lat: p.lat,
        lng: p.lng,
      });
    }
    return results;
  }

  // ---- ports (tracking helpers) --------------------------------------------------------------

  /**
   * Port or coded place by UN/LOCODE ("NLRTM", "NL RTM"; both codes of a port, CNSHA and CNSHG),
   * answering with the code asked for.
   */
  port(code: string): ResolvedPoint | null {
    const m = LOCODE_RE.exec(code.trim());
    if (!m) return null;
    const locode = `${m[1]}${m[2]}`.toUpperCase();
    const row = this.locodeRow(locode);
    return row === -1 ? null : { ...this.point(row), locode };
  }

  /** The main container ports (source main_ports): the multimodal sea chain's candidates. */
  mainPorts(): ResolvedPoint[] {
    const main = SOURCES.indexOf("main_ports");
    const out: ResolvedPoint[] = [];
    for (let row = 0; row < this.rows; row++) if (this.source[row] === main) out.push(this.point(row));
    return out;
  }

  /** IANA time zone of a UN/LOCODE (aliases included), or null when unknown. */
  timezoneOf(locode: string): string | null {
    return this.port(locode)?.timezone ?? null;
  }

  /**
   * The code every product names a port by: the one carriers send where the main-ports table
   * lists both (CNSHG -> CNSHA, CNNBG -> CNNGB; tracking events, schedules and rate sheets carry
   * those); other codes come back unchanged.
   */
  canonicalLocode(locode: string): string {
    const code = locode.replace(/\s/g, "").toUpperCase();
    return this.carrierCode.get(code) ?? code;
  }

  // ---- row access ----------------------------------------------------------------------------

  private locodeRow(code: string): number {
    return this.codeRange("locode", own(this.meta.aliases, code) ?? code)[0] ?? -1;
  }

  private codeRange(field: Exclude<CodeField, "admin">, code: string): number[] {
    const index = this.byCode[field];
    const [at, width] = CODE_FIELDS[field];
    const q = encoder.encode(code);
    if (q.length !== width) return [];
    const cmp = (i: number) => comparePrefix(this.codes, index[i]! * CODE_BYTES + at, q);
    let lo = 0;
    let hi = index.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cmp(mid) < 0) lo = mid + 1;
      else hi = mid;
    }
    const rows: number[] = [];
    for (let i = lo; i < index.length && cmp(i) === 0; i++) rows.push(index[i]!);
    return rows;
  }

  private codeString(row: number, at: number, width: number): string | null {
    const start = row * CODE_BYTES + at;
    let end = start;
    while (end < start + width && this.codes[end] !== 0) end++;
    return end === start ? null : decoder.decode(this.codes.subarray(start, end));
  }

  private countryOf(row: number): { name: string | null; code: string | null } {
    const c = this.meta.countries[this.country[row]!];
    return c ? { code: c[0], name: c[1] } : { code: null, name: null };
  }

  private point(row: number): ResolvedPoint {
    const { code, name: countryName } = this.countryOf(row);
    return {
      kind: KINDS[this.kind[row]!]!,
      name: this.displayName(row),
      locode: this.productCode(this.codeString(row, ...CODE_FIELDS.locode)),
      iata: this.codeString(row, ...CODE_FIELDS.iata),
      country: countryName,
      country_code: code,
      lat: this.lat[row]! / 1e6,
      lng: this.lng[row]! / 1e6,
      source: SOURCES[this.source[row]!]!,
      timezone: this.meta.timezones[this.tz[row]!] ?? null,
    };
  }

  private displayName(row: number): string {
    return decoder.decode(this.names.subarray(this.nameOff[row]!, this.nameOff[row]! + this.nameLen[row]!));
  }

  private productCode(locode: string | null): string | null {
    return locode === null ? null : (this.carrierCode.get(locode) ?? locode);
  }

  private searchResult(row: number): SearchResult {
    const p = this.point(row);
    const code = p.kind === "airport" ? (p.iata ?? this.codeString(row, ...CODE_FIELDS.icao)) : p.locode;
    return {
      kind: p.kind as PlaceKind,
      locode: code,
      name: p.name,
      country: p.country,
      country_code: p.country_code,
      lat: p.lat,
      lng: p.lng,
    };
  }
}

/**
 * Wraps an external geocoder (an HTTP service, say): any failure it throws becomes
 * EngineError("geocoderUnavailable") so the API answers 503 while codes keep working.
 */
export function externalGeocoder(
  name: string,
  lookup: (text: string) => Promise<ResolvedPoint | null>,
): Geocoder {
  return {
    async geocode(text) {
      try {
        const point = await lookup(text);
        return point && { ...point, source: point.source || name };
      } catch (err) {
        throw new EngineError(
          "geocoder_unavailable",
          `geocoder ${name} is unavailable: ${(err as Error).message ?? err}`,
        );
      }
    },
  };
}
