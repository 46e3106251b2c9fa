/**
 * The `locations` artifact payload (format version below). Written by data-build/locations/encode.ts,
 * read by ./index.ts. One row per place; columns are typed arrays so loading is a view, not a parse.
 * Rows are stored most important first (main ports, countries, cargo airports, big cities, ...), so
 * the row number is the ranking tie-breaker for search and the geocoder.
 *
 * Sections:
 *   meta        JSON: country table, time zone names, legacy LOCODE aliases, row count
 *   names       UTF-8 display names, addressed by name_off/name_len
 *   keys        normalized search keys (see normalize.ts), each terminated by a 0 byte
 *   words       u32 pairs [key byte offset, row]: every word start of every key, sorted by the
 *               key bytes from that offset (a word-suffix array: prefix search is a binary search)
 *   key_rows    u32 pairs [key byte offset, row] in blob order, which is row order, for substring
 *               hits; a row's first key is its normalized display name
 *   lat, lng    i32 microdegrees
 *   name_off    u32, name_len u16
 *   kind, source u8 (enums below)
 *   country     u16 index into meta.countries (NO_INDEX = none)
 *   tz          u16 index into meta.timezones (NO_INDEX = none)
 *   codes       CODE_BYTES per row, ASCII, zero padded: locode[5] iata[3] icao[4] admin[4]
 *   by_locode, by_iata, by_icao   u32 rows with that code, sorted by the code bytes
 */

export const LOCATIONS_KIND = "locations";
export const LOCATIONS_FORMAT_VERSION = 1;

export const KINDS = ["port", "airport", "country", "address"] as const;
export type PlaceKind = (typeof KINDS)[number];

export const SOURCES = ["main_ports", "wpi", "unlocode", "ourairports", "countries", "geonames"] as const;
export type PlaceSource = (typeof SOURCES)[number];

export const NO_INDEX = 0xffff;
export const CODE_BYTES = 16;
export const CODE_FIELDS = {
  locode: [0, 5],
  iata: [5, 3],
  icao: [8, 4],
  admin: [12, 4],
} as const satisfies Record<string, readonly [number, number]>;
export type CodeField = keyof typeof CODE_FIELDS;

export interface LocationsMeta {
  rows: number;
  /** [ISO alpha-2, common name, extra normalized names (official name, alternative spellings)] */
  countries: Array<[string, string, string[]]>;
  timezones: string[];
  /** carrier (legacy) LOCODE -> current LOCODE, e.g. CNSHA -> CNSHG; both resolve, products show the carrier's */
  aliases: Record<string, string>;
  /** [ISO alpha-2, admin-1 code as in the codes section, normalized admin-1 name]: "Springfield, Illinois". */
  admins?: Array<[string, string, string]>;
}

export const SECTION = {
  meta: "meta",
  names: "names",
  keys: "keys",
  words: "words",
  keyRows: "key_rows",
  lat: "lat",
  lng: "lng",
  nameOff: "name_off",
  nameLen: "name_len",
  kind: "kind",
  source: "source",
  country: "country",
  tz: "tz",
  codes: "codes",
  byLocode: "by_locode",
  byIata: "by_iata",
  byIcao: "by_icao",
} as const;
