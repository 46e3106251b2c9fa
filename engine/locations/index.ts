/**
 * Location resolution and search over the `locations` artifact. Web-standard APIs only (runs under
 * Bun and Deno): bytes come from the caller, or from fetch() via fromUrl. Precedence rules for short
 * codes are documented in docs/locations.md.
 */

import { own } from "../../common/own.ts";
import { decodeArtifact } from "../../data-build/format/container.ts";
import { EngineError } from "../errors.ts";
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
} from "./format.ts";
import { normalize } from "./normalize.ts";

export type { PlaceKind } from "./format.ts";
export { normalize } from "./normalize.ts";

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

const MAX_LIMIT = 50;
const DEFAULT_LIMIT = 10;
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

/** -1/0/1 style comparison of the key bytes at pos against q, treating "q is a prefix" as equal. */
function comparePrefix(keys: Uint8Array, pos: number, q: Uint8Array): number {
  for (let i = 0; i < q.length; i++) {
    const d = keys[pos + i]! - q[i]!;
    if (d !== 0) return d;
  }
  return 0;
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
  private readonly keys: Uint8Array;
  private readonly words: Uint32Array;
  private readonly keyRows: Uint32Array;
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
    this.keys = s(SECTION.keys);
    this.words = view(Uint32Array, s(SECTION.words));
    this.keyRows = view(Uint32Array, s(SECTION.keyRows));
    this.lat = view(Int32Array, s(SECTION.lat));
    this.lng = view(Int32Array, s(SECTION.lng));
    this.nameOff = view(Uint32Array, s(SECTION.nameOff));
    this.nameLen = view(Uint16Array, s(SECTION.nameLen));
    this.kind = s(SECTION.kind);
    this.source = s(SECTION.source);
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
    const found = this.resolveCode(input);
    if (found !== undefined) {
      if (found) return found;
      throw this.notFound(input);
    }
    return this.geocodeOffline(input) ?? this.fallbackCode(input) ?? this.throwNotFound(input);
  }

  /**
   * As resolve, but free text goes through `geocoder` (an external one, say). Its failures become
   * geocoder_unavailable; codes and coordinates never touch it.
   */
  async resolveWith(input: string, geocoder: Geocoder): Promise<ResolvedPoint> {
    const found = this.resolveCode(input);
    if (found !== undefined) {
      if (found) return found;
      throw this.notFound(input);
    }
    let point: ResolvedPoint | null;
    try {
      point = await geocoder.geocode(input.trim());
    } catch (err) {
      if (err instanceof EngineError) throw err;
      throw new EngineError(
        "geocoder_unavailable",
        `address lookup is unavailable: ${(err as Error).message ?? err}`,
      );
    }
    return point ?? this.fallbackCode(input) ?? this.throwNotFound(input);
  }

  /**
   * Coordinates and codes that take precedence over free text. undefined = not such a form (try text);
   * null = a definite code that matched nothing (404).
   */
  private resolveCode(raw: string): ResolvedPoint | null | undefined {
    const input = raw.trim();
    if (input === "") throw new EngineError("invalid_request", "location is empty");
    const coords = COORDS_RE.exec(input);
    if (coords) {
      return coordinatesPoint(Number(coords[1]), Number(coords[2]));
    }
    if (NUMERIC_RE.test(input)) throw new EngineError("invalid_request", `"${input}" is not a lat,lng pair`);
    const upper = input.toUpperCase();
    if (/^[A-Za-z]{2}$/.test(input)) {
      const row = this.countryRow.get(this.countryByCode.get(upper) ?? NO_INDEX);
      return row === undefined ? null : this.point(row);
    }
    // A code that matches nothing may still be a name ("Ulm", "PARIS"): fall through to text.
    if (/^[A-Za-z]{3}$/.test(input)) return this.airportByCode("iata", upper) ?? undefined;
    if (/^[A-Z]{4}$/.test(input)) return this.airportByCode("icao", upper) ?? undefined;
    const locode = LOCODE_RE.exec(input);
    if (locode && (input === upper || /[\s2-9]/.test(input))) {
      return this.portByLocode(`${locode[1]}${locode[2]}`.toUpperCase()) ?? undefined;
    }
    return undefined;
  }

  /** After free text found nothing: a lower-case 4-letter ICAO or 5-letter LOCODE, "Lima" style names first. */
  private fallbackCode(raw: string): ResolvedPoint | null {
    const input = raw.trim();
    if (/^[A-Za-z]{4}$/.test(input)) return this.airportByCode("icao", input.toUpperCase());
    if (LOCODE_RE.test(input)) return this.portByLocode(input.replace(/\s/, "").toUpperCase());
    return null;
  }

  private airportByCode(field: "iata" | "icao", code: string): ResolvedPoint | null {
    const row = this.findCode(field, code);
    return row === -1 ? null : this.point(row);
  }

  /** The port a code names, answering with the code asked for (CNSHG stays CNSHG, CNSHA stays CNSHA). */
  private portByLocode(locode: string): ResolvedPoint | null {
    const row = this.locodeRow(locode);
    return row === -1 ? null : { ...this.point(row), locode };
  }

  private notFound(input: string): EngineError {
    return new EngineError("location_not_found", `location "${input.trim()}" could not be found`);
  }

  private throwNotFound(input: string): never {
    throw this.notFound(input);
  }

  // ---- offline geocoder ----------------------------------------------------------------------

  /**
   * Best named place for free text. "City, Country", "City, CC", "City, ST" (US state or other
   * first-level code) and "City CC" narrow namesakes. Exact names beat prefixes; among exact names a
   * GeoNames city wins over a port or coded place of the same name, then importance decides.
   */
  private geocodeOffline(text: string): ResolvedPoint | null {
    for (const { name, qualifier } of splitQualifier(text.trim())) {
      const accept = qualifier === null ? () => true : this.qualifierFilter(qualifier);
      if (!accept) continue;
      const q = encoder.encode(normalize(name));
      if (q.length === 0) continue;
      const [lo, hi] = this.prefixRange(q);
      let exactCity = -1;
      let exact = -1;
      let prefix = -1;
      const cityIndex = SOURCES.indexOf("geonames");
      for (let i = lo; i < hi; i++) {
        const pos = this.words[i * 2]!;
        const row = this.words[i * 2 + 1]!;
        if (pos > 0 && this.keys[pos - 1] !== 0) continue; // only whole-name prefixes
        if (!accept(row)) continue;
        if (this.keys[pos + q.length] === 0) {
          if (this.source[row] === cityIndex && (exactCity === -1 || row < exactCity)) exactCity = row;
          if (exact === -1 || row < exact) exact = row;
        } else if (prefix === -1 || row < prefix) prefix = row;
      }
      const best = exactCity !== -1 ? exactCity : exact !== -1 ? exact : prefix;
      if (best !== -1) return this.point(best);
    }
    return null;
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
   * Ranked search: exact code matches, then names starting with the query, then names with a word
   * starting with it, then names containing it; within each group, importance order (main ports and
   * big cargo airports first, villages last). Diacritics and punctuation are ignored.
   */
  search(q: string, opts: SearchOptions = {}): SearchResult[] {
    const query = q.trim();
    if (query.length < 2) throw new EngineError("invalid_request", "q must be at least 2 characters");
    const limit = opts.limit ?? DEFAULT_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
      throw new EngineError("invalid_request", `limit must be an integer from 1 to ${MAX_LIMIT}`);
    }
    for (const t of opts.types ?? []) {
      if (!KINDS.includes(t))
        throw new EngineError("invalid_request", `unknown type "${t}"; types: ${KINDS.join(", ")}`);
    }
    const allowed = new Set<number>((opts.types?.length ? opts.types : KINDS).map((t) => KINDS.indexOf(t)));
    if (opts.geocode === false) allowed.delete(KINDS.indexOf("address"));
    const take = (row: number) => allowed.has(this.kind[row]!);

    const picked: number[] = [];
    const seen = new Set<number>();
    const add = (rows: Iterable<number>) => {
      for (const row of rows) {
        if (picked.length >= limit) return;
        if (!seen.has(row) && take(row)) {
          seen.add(row);
          picked.push(row);
        }
      }
    };
    add(this.codeMatches(query));
    // "Hamburg, Germany" and "Springfield, Illinois" narrow the name the way resolve() does.
    for (const { name, qualifier } of splitQualifier(query)) {
      if (picked.length >= limit) break;
      const narrow = qualifier === null ? () => true : this.qualifierFilter(qualifier);
      if (!narrow) continue;
      add(this.nameMatches(name, (row) => take(row) && !seen.has(row) && narrow(row), limit - picked.length));
    }
    return picked.map((row) => this.searchResult(row));
  }

  /**
   * Name matches in ranking order: names (an airport's served city is one of its names) starting with
   * the text, then names with a later word starting with it, then substrings when the page is not
   * full. Within each group, importance (row) order: a large airport before a small one.
   */
  private nameMatches(text: string, accept: (row: number) => boolean, enough: number): number[] {
    const qn = encoder.encode(normalize(text));
    if (qn.length === 0) return [];
    const [lo, hi] = this.prefixRange(qn);
    const first = new Set<number>();
    const later = new Set<number>();
    for (let i = lo; i < hi; i++) {
      const pos = this.words[i * 2]!;
      const row = this.words[i * 2 + 1]!;
      if (!accept(row)) continue;
      (pos === 0 || this.keys[pos - 1] === 0 ? first : later).add(row);
    }
    for (const row of first) later.delete(row);
    const rows = [...[...first].sort((a, b) => a - b), ...[...later].sort((a, b) => a - b)];
    if (rows.length < enough && qn.length >= 3) {
      for (const row of this.substringRows(qn)) if (accept(row)) rows.push(row);
    }
    return rows;
  }

  /**
   * search() plus address candidates from `geocoder` (Nominatim or Photon) when the offline index did
   * not fill the page, address results are wanted and geocode is not false. A geocoder that is down
   * answers geocoder_unavailable; geocode: false never touches it.
   */
  async searchWith(q: string, opts: SearchOptions, geocoder: Geocoder): Promise<SearchResult[]> {
    const results = this.search(q, opts);
    const limit = opts.limit ?? DEFAULT_LIMIT;
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

  private codeMatches(query: string): number[] {
    const upper = query.toUpperCase();
    const rows: number[] = [];
    const locode = LOCODE_RE.exec(query);
    if (locode) {
      const row = this.locodeRow(`${locode[1]}${locode[2]}`.toUpperCase());
      if (row !== -1) rows.push(row);
    }
    if (/^[A-Za-z]{3}$/.test(query)) rows.push(...this.codeRange("iata", upper));
    if (/^[A-Za-z]{4}$/.test(query)) rows.push(...this.codeRange("icao", upper));
    if (/^[A-Za-z]{2}$/.test(query)) {
      const row = this.countryRow.get(this.countryByCode.get(upper) ?? NO_INDEX);
      if (row !== undefined) rows.push(row);
    }
    return rows;
  }

  /** Rows whose keys contain q anywhere (the slow path, only when prefixes did not fill the page). */
  private *substringRows(q: Uint8Array): Generator<number> {
    const keys = this.keys;
    const first = q[0]!;
    const found: number[] = [];
    const end = keys.length - q.length;
    for (let i = 0; i <= end; i++) {
      if (keys[i] !== first || comparePrefix(keys, i, q) !== 0) continue;
      found.push(this.rowOfKeyAt(i));
    }
    yield* found.sort((a, b) => a - b);
  }

  private rowOfKeyAt(pos: number): number {
    // key_rows is in blob order: the last key starting at or before pos holds it.
    let lo = 0;
    let hi = this.keyRows.length / 2 - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.keyRows[mid * 2]! <= pos) lo = mid;
      else hi = mid - 1;
    }
    return this.keyRows[lo * 2 + 1]!;
  }

  // ---- ports (tracking helpers) --------------------------------------------------------------

  /**
   * Port or coded place by UN/LOCODE ("NLRTM", "NL RTM"; both codes of a port, CNSHA and CNSHG),
   * answering with the code asked for.
   */
  port(locode: string): ResolvedPoint | null {
    const m = LOCODE_RE.exec(locode.trim());
    return m ? this.portByLocode(`${m[1]}${m[2]}`.toUpperCase()) : null;
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
    return this.findCode("locode", own(this.meta.aliases, code) ?? code);
  }

  private findCode(field: Exclude<CodeField, "admin">, code: string): number {
    const rows = this.codeRange(field, code);
    return rows.length === 0 ? -1 : Math.min(...rows);
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

  /** [lo, hi) of word entries whose key bytes start with q. */
  private prefixRange(q: Uint8Array): [number, number] {
    const n = this.words.length / 2;
    const bound = (upper: boolean) => {
      let lo = 0;
      let hi = n;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        const c = comparePrefix(this.keys, this.words[mid * 2]!, q);
        if (c < 0 || (upper && c === 0)) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    return [bound(false), bound(true)];
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
      name: decoder.decode(this.names.subarray(this.nameOff[row]!, this.nameOff[row]! + this.nameLen[row]!)),
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
 * Readings of free text, most specific first: "Portland, US" and "Portland US" narrow to a
 * country or state code; the whole text is always tried last.
 */
function splitQualifier(text: string): Array<{ name: string; qualifier: string | null }> {
  const out: Array<{ name: string; qualifier: string | null }> = [];
  const comma = text.lastIndexOf(",");
  if (comma > 0) out.push({ name: text.slice(0, comma), qualifier: text.slice(comma + 1) });
  else {
    const m = /^(.+?)\s+([A-Z]{2})$/.exec(text);
    if (m) out.push({ name: m[1]!, qualifier: m[2]! });
  }
  if (comma <= 0) out.push({ name: text, qualifier: null });
  return out;
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
