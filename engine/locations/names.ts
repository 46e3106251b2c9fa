/**
 * The name ranking that search lists and resolution picks from (docs/locations.md, "Ranking").
 * Matches fall into tiers; within a tier the lower row (the more important place) comes first.
 */
import { KINDS, SOURCES } from "../../formats/locations.ts";
import { normalize } from "../../formats/normalize.ts";

/** Tier order: a key equal to the text, a key starting with it, a later word of a key starting with it. */
const TIER_COUNT = 3;
const EXACT = 0;
const PREFIX = 1;
const WORD = 2;

const AIRPORT = KINDS.indexOf("airport");
const GEONAMES = SOURCES.indexOf("geonames");
const SPACE = 0x20;
const encoder = new TextEncoder();

/** -1/0/1 style comparison of the key bytes at pos against q, treating "q is a prefix" as equal. */
export function comparePrefix(keys: Uint8Array, pos: number, q: Uint8Array): number {
  for (let i = 0; i < q.length; i++) {
    const d = keys[pos + i]! - q[i]!;
    if (d !== 0) return d;
  }
  return 0;
}

/** The key blob and its word index: which rows a text names, and how well. */
export class NameKeys {
  constructor(
    private readonly keys: Uint8Array,
    private readonly words: Uint32Array,
    private readonly keyRows: Uint32Array,
    private readonly kind: Uint8Array,
    private readonly source: Uint8Array,
  ) {}

  /**
   * Accepted rows matching `text`, one list per tier, each in importance (row) order, except that an
   * airport's exact match is the city it serves ("Milan" names Malpensa, 40 km out): the largest city
   * of that exact name goes before the airports. A row may sit in several tiers (through different
   * keys); its best one counts.
   */
  tiers(text: string, accept: (row: number) => boolean): number[][] {
    const tiers: number[][] = Array.from({ length: TIER_COUNT }, () => []);
    const q = encoder.encode(normalize(text));
    if (q.length === 0) return tiers;
    const [lo, hi] = this.prefixRange(q);
    for (let i = lo; i < hi; i++) {
      const pos = this.words[i * 2]!;
      const row = this.words[i * 2 + 1]!;
      if (!accept(row)) continue;
      tiers[this.tierOf(pos, q.length, row)]!.push(row);
    }
    for (const tier of tiers) tier.sort((a, b) => a - b);
    const exact = tiers[EXACT]!;
    const city = exact.findIndex((row) => this.source[row] === GEONAMES);
    const airport = exact.findIndex((row) => this.kind[row] === AIRPORT);
    if (airport !== -1 && city > airport) exact.splice(airport, 0, ...exact.splice(city, 1));
    return tiers;
  }

  /**
   * The tier of a match of qLength bytes at key position pos. An airport
   * named after its place ("Zurich Airport", "Sao Paulo Executive Airport") matches that place's
   * name exactly, as one whose served city is the name does.
   */
  private tierOf(pos: number, qLength: number, row: number): number {
    if (pos > 0 && this.keys[pos - 1] !== 0) return WORD;
    const next = this.keys[pos + qLength];
    if (next === 0) return EXACT;
    if (next !== SPACE || this.kind[row] !== AIRPORT) return PREFIX;
    // The display name, not a served city such as "Shang-I" that "shang" merely begins.
    return pos === this.firstKeyOf(row) ? EXACT : PREFIX;
  }

  /** Where a row's first key, its normalized display name, starts (key_rows is in row order too). */
  private firstKeyOf(row: number): number {
    let lo = 0;
    let hi = this.keyRows.length / 2 - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.keyRows[mid * 2 + 1]! < row) lo = mid + 1;
      else hi = mid;
    }
    return this.keyRows[lo * 2]!;
  }

  /** Rows whose keys contain the text anywhere, in row order (a scan: search's last resort). */
  substringRows(text: string): number[] {
    const q = encoder.encode(normalize(text));
    if (q.length === 0) return [];
    const keys = this.keys;
    const first = q[0]!;
    const found: number[] = [];
    const end = keys.length - q.length;
    for (let i = 0; i <= end; i++) {
      if (keys[i] !== first || comparePrefix(keys, i, q) !== 0) continue;
      found.push(this.rowOfKeyAt(i));
    }
    return found.sort((a, b) => a - b);
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
}

/**
 * Readings of free text, most specific first: "Portland, US" and "Portland US" narrow to a
 * country or state code; the whole text is always tried last.
 */
export function splitQualifier(text: string): Array<{ name: string; qualifier: string | null }> {
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
