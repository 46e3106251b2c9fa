/** Encodes collected places into the `locations` artifact (layout in formats/locations.ts). */

import { bytesOf, encodeArtifact } from "../../formats/container.ts";
import {
  CODE_BYTES,
  CODE_FIELDS,
  type CodeField,
  KINDS,
  LOCATIONS_FORMAT_VERSION,
  LOCATIONS_KIND,
  type LocationsMeta,
  NO_INDEX,
  SECTION,
  SOURCES,
} from "../../formats/locations.ts";
import { normalize } from "../../formats/normalize.ts";
import { keyForms } from "./alternate-names.ts";
import type { CollectedLocations } from "./collect.ts";

/** Grows a byte buffer; the artifact's blobs are a few MB so doubling is cheap. */
class ByteSink {
  buf = new Uint8Array(1 << 20);
  length = 0;
  push(bytes: Uint8Array): number {
    const at = this.length;
    while (this.length + bytes.length > this.buf.length) {
      const next = new Uint8Array(this.buf.length * 2);
      next.set(this.buf.subarray(0, this.length));
      this.buf = next;
    }
    this.buf.set(bytes, at);
    this.length += bytes.length;
    return at;
  }
  bytes(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** The countries table (code, name, normalized names) and the row index of a country code. */
function countryTable(data: CollectedLocations) {
  const countryIndex = new Map<string, number>();
  const countries: LocationsMeta["countries"] = [];
  const countryOf = (code: string | null): number => {
    if (!code) return NO_INDEX;
    let i = countryIndex.get(code);
    if (i === undefined) {
      i = countries.length;
      countryIndex.set(code, i);
      countries.push([code, code, []]);
    }
    return i;
  };
  for (const c of data.countries) {
    countryOf(c.code);
    const names = [...c.altNames, ...c.shortNames].map(normalize);
    countries[countryIndex.get(c.code)!] = [c.code, c.name, [...new Set(names)]];
  }
  return { countries, countryOf };
}

/** The timezone names in first-use order and the index of one. */
function timezoneTable() {
  const timezones: string[] = [];
  const tzIndex = new Map<string, number>();
  const tzOf = (tz: string | null): number => {
    if (!tz) return NO_INDEX;
    let i = tzIndex.get(tz);
    if (i === undefined) {
      i = timezones.length;
      tzIndex.set(tz, i);
      timezones.push(tz);
    }
    return i;
  };
  return { timezones, tzOf };
}

const enc = new TextEncoder();

/** One row's code fields, fixed width: codes are ASCII by definition. */
function writeCodes(codes: Uint8Array, row: number, p: CollectedLocations["places"][number]): void {
  const fields: Record<CodeField, string | null> = {
    locode: p.locode,
    iata: p.iata,
    icao: p.icao,
    admin: p.admin,
  };
  for (const [field, [at, width]] of Object.entries(CODE_FIELDS)) {
    const value = fields[field as CodeField];
    // Anything not ASCII (a stray admin name) is not a code.
    if (value && /^[\x20-\x7e]+$/.test(value))
      codes.set(enc.encode(value.slice(0, width)), row * CODE_BYTES + at);
  }
}

/** The search keys: each key's bytes (0-terminated), its row, and a word entry per word start. */
class KeyWriter {
  readonly keys = new ByteSink();
  readonly words: Array<{ start: number; end: number; row: number }> = [];
  readonly keyRows: number[] = [];
  private readonly zero = new Uint8Array(1);

  add(row: number, placeKeys: string[]): void {
    // The first key is the normalized display name (the reader tells an airport's own name by it).
    for (const key of new Set(placeKeys.flatMap(keyForms))) {
      if (!key) continue;
      const bytes = enc.encode(key);
      const start = this.keys.push(bytes);
      this.keys.push(this.zero);
      const end = start + bytes.length;
      this.keyRows.push(start, row);
      for (let i = 0; i < bytes.length; i++) {
        if (i === 0 || bytes[i - 1] === 0x20) this.words.push({ start: start + i, end, row });
      }
    }
  }

  /** Word starts in byte order of the rest of their key (the reader's binary search), then row. */
  wordTable(): Uint32Array {
    const keyBytes = this.keys.bytes();
    // Buffer#compare over ranges of one buffer: byte order, no copies.
    const keyBuf = Buffer.from(keyBytes.buffer, keyBytes.byteOffset, keyBytes.byteLength);
    const words = [...this.words].sort(
      (a, b) => keyBuf.compare(keyBuf, b.start, b.end, a.start, a.end) || a.row - b.row,
    );
    const table = new Uint32Array(words.length * 2);
    words.forEach((w, i) => {
      table[i * 2] = w.start;
      table[i * 2 + 1] = w.row;
    });
    return table;
  }
}

/** Rows holding a code field, sorted by that code's bytes (then row). */
function codeIndex(codes: Uint8Array, n: number, field: CodeField): Uint32Array {
  const [at, width] = CODE_FIELDS[field];
  const code = (row: number) => codes.subarray(row * CODE_BYTES + at, row * CODE_BYTES + at + width);
  const rows: number[] = [];
  for (let row = 0; row < n; row++) if (codes[row * CODE_BYTES + at] !== 0) rows.push(row);
  rows.sort((a, b) => compareBytes(code(a), code(b)) || a - b);
  return Uint32Array.from(rows);
}

export function encodeLocations(data: CollectedLocations, buildId: string): Uint8Array {
  // Row order is importance order: search and geocoder ties resolve to the lower row.
  const places = [...data.places].sort((a, b) => b.importance - a.importance);
  const n = places.length;
  const { countries, countryOf } = countryTable(data);
  const { timezones, tzOf } = timezoneTable();

  const lat = new Int32Array(n);
  const lng = new Int32Array(n);
  const nameOff = new Uint32Array(n);
  const nameLen = new Uint16Array(n);
  const kind = new Uint8Array(n);
  const source = new Uint8Array(n);
  const country = new Uint16Array(n);
  const tz = new Uint16Array(n);
  const codes = new Uint8Array(n * CODE_BYTES);
  const names = new ByteSink();
  const keys = new KeyWriter();
  places.forEach((p, row) => {
    lat[row] = Math.round(p.lat * 1e6);
    lng[row] = Math.round(p.lng * 1e6);
    const name = enc.encode(p.name).subarray(0, 0xffff);
    nameOff[row] = names.push(name);
    nameLen[row] = name.length;
    kind[row] = KINDS.indexOf(p.kind);
    source[row] = SOURCES.indexOf(p.source);
    country[row] = countryOf(p.countryCode);
    tz[row] = tzOf(p.timezone);
    writeCodes(codes, row, p);
    keys.add(row, p.keys);
  });

  const meta: LocationsMeta = {
    rows: n,
    countries,
    timezones,
    aliases: data.aliases,
    admins: data.admins.map(([cc, code, name]) => [cc, code, normalize(name)]),
  };
  return encodeArtifact(LOCATIONS_KIND, LOCATIONS_FORMAT_VERSION, buildId, [
    { name: SECTION.meta, bytes: enc.encode(JSON.stringify(meta)) },
    { name: SECTION.names, bytes: names.bytes() },
    { name: SECTION.keys, bytes: keys.keys.bytes() },
    { name: SECTION.words, bytes: bytesOf(keys.wordTable()) },
    { name: SECTION.keyRows, bytes: bytesOf(Uint32Array.from(keys.keyRows)) },
    { name: SECTION.lat, bytes: bytesOf(lat) },
    { name: SECTION.lng, bytes: bytesOf(lng) },
    { name: SECTION.nameOff, bytes: bytesOf(nameOff) },
    { name: SECTION.nameLen, bytes: bytesOf(nameLen) },
    { name: SECTION.kind, bytes: kind },
    { name: SECTION.source, bytes: source },
    { name: SECTION.country, bytes: bytesOf(country) },
    { name: SECTION.tz, bytes: bytesOf(tz) },
    { name: SECTION.codes, bytes: codes },
    { name: SECTION.byLocode, bytes: bytesOf(codeIndex(codes, n, "locode")) },
    { name: SECTION.byIata, bytes: bytesOf(codeIndex(codes, n, "iata")) },
    { name: SECTION.byIcao, bytes: bytesOf(codeIndex(codes, n, "icao")) },
  ]);
}
