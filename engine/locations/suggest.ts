/**
 * "Did you mean": the known codes nearest to an unknown one, for location_not_found. Codes are
 * compared by edit distance (a swapped pair of letters counts once: NLTRM is one step from NLRTM).
 */

import { EngineError } from "../errors.ts";

export type SuggestedField = "locode" | "iata";

/** Every known code of a kind once, with the row that names it, and the index that finds near ones. */
export interface KnownCodes {
  codes: string[];
  rows: number[];
  neighbours: CodeNeighbours;
}

/** How an unknown code is named, and how far its suggestions may be (edits; the shared country prefix). */
const SUGGESTED: Record<SuggestedField, { label: string; maxEdits: number; prefix: number }> = {
  locode: { label: "UN/LOCODE", maxEdits: 2, prefix: 2 },
  iata: { label: "IATA code", maxEdits: 1, prefix: 0 },
};

/** Sources whose places rank first among equally near suggestions (sea ports, airports). */
const MAJOR_SOURCES: ReadonlySet<string> = new Set(["main_ports", "wpi", "ourairports"]);

/**
 * location_not_found for an unknown code: "unknown UN/LOCODE NLRTN; did you mean NLRTM
 * (Rotterdam)?" (text read as a name first keeps "could not be found"), the suggestions also as
 * the error's `suggestions` when there are any.
 */
export function unknownCode(
  asked: { text: string; code: string; first: boolean },
  field: SuggestedField,
  known: KnownCodes,
  place: (row: number) => { name: string; source: string },
): EngineError {
  const { label, ...near } = SUGGESTED[field];
  const major = (i: number) => MAJOR_SOURCES.has(place(known.rows[i]!).source);
  const suggestions = known.neighbours.nearest(asked.code, { ...near, major }).map((i) => ({
    code: known.codes[i]!,
    name: place(known.rows[i]!).name,
  }));
  const head = asked.first ? `unknown ${label} ${asked.code}` : `location "${asked.text}" could not be found`;
  const extra = suggestions.length ? { suggestions } : undefined;
  return new EngineError("location_not_found", `${head}${didYouMean(suggestions)}`, extra);
}

/** The known codes of a kind, indexed for suggestions as near as that kind's are. */
export function indexCodes(field: SuggestedField, codes: string[], rows: number[]): KnownCodes {
  return { codes, rows, neighbours: new CodeNeighbours(codes, SUGGESTED[field].maxEdits) };
}

/** At most this many suggestions. */
export const MAX_SUGGESTIONS = 3;

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
export function editDistance(a: string, b: string): number {
  // Three rolling rows: a suggestion search compares the input with every known code.
  let before = new Array<number>(b.length + 1).fill(0);
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  let row = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, before[j - 2]! + 1);
      row[j] = d;
    }
    [before, prev, row] = [prev, row, before];
  }
  return prev[b.length]!;
}

/** How near a suggestion may be: edits at most, the shared prefix that ranks first, and which codes are major. */
export interface NearOptions {
  maxEdits: number;
  prefix: number;
  major: (i: number) => boolean;
}

/** A code within reach of an input: its index and its edits from the input. */
interface Near {
  i: number;
  edits: number;
}

/**
 * The indices of the codes nearest to `code`, best first: fewest edits (at most `maxEdits`), then a
 * code sharing the first `prefix` letters (a UN/LOCODE's country), then a major one, then the code.
 * This compares the input with every code: the reference that CodeNeighbours answers like.
 */
export function nearestCodes(code: string, codes: readonly string[], opts: NearOptions): number[] {
  const near: Near[] = [];
  codes.forEach((known, i) => {
    if (known === code || Math.abs(known.length - code.length) > opts.maxEdits) return;
    const edits = editDistance(code, known);
    if (edits <= opts.maxEdits) near.push({ i, edits });
  });
  return rankNear(code, near, codes, opts);
}

/** The first MAX_SUGGESTIONS of the codes within reach, in nearestCodes' order. */
function rankNear(
  code: string,
  near: readonly Near[],
  codes: readonly string[],
  opts: NearOptions,
): number[] {
  const head = code.slice(0, opts.prefix);
  const tier = (n: Near) => n.edits * 2 + (codes[n.i]!.startsWith(head) ? 0 : 1);
  // Only the tiers the suggestions come from are ranked on: whether a code is major costs a look-up.
  const counts = new Array<number>(2 * opts.maxEdits + 2).fill(0);
  for (const n of near) counts[tier(n)]!++;
  let cut = 0;
  for (let seen = counts[0]!; seen < MAX_SUGGESTIONS && cut < counts.length - 1; ) seen += counts[++cut]!;
  const ranked = near
    .filter((n) => tier(n) <= cut)
    .map((n) => ({ code: codes[n.i]!, i: n.i, rank: tier(n) * 2 + (opts.major(n.i) ? 0 : 1) }));
  ranked.sort((x, y) => x.rank - y.rank || (x.code < y.code ? -1 : 1));
  return ranked.slice(0, MAX_SUGGESTIONS).map((n) => n.i);
}

/** Letters and digits as the digits 1..36 of a key; any other character shares digit 37. */
const KEY_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const KEY_BASE = KEY_ALPHABET.length + 2;
/** Keys are of strings up to this long (38^6 < 2^32), packed with a code's index below 2^INDEX_BITS. */
const MAX_KEY_LENGTH = 6;
const INDEX_BITS = 20;

/** A string of at most MAX_KEY_LENGTH characters as a number, one to one for letters and digits. */
function keyOf(text: string): number {
  let key = 0;
  for (const ch of text) key = key * KEY_BASE + (KEY_ALPHABET.indexOf(ch) + 1 || KEY_BASE - 1);
  return key;
}

/** The keys of `text` and of every string made from it by deleting up to `depth` characters, once each. */
function deletionKeys(text: string, depth: number, into = new Set<number>()): Set<number> {
  if (text.length <= MAX_KEY_LENGTH) into.add(keyOf(text)); // no longer string is filed
  for (let at = 0; depth > 0 && at < text.length; at++)
    deletionKeys(text.slice(0, at) + text.slice(at + 1), depth - 1, into);
  return into;
}

/**
 * The codes within `maxEdits` of an input, found without comparing it with every code (symmetric
 * deletion): two strings within k edits (a swap counts once) share a string made from each by
 * deleting at most k characters. Each code is filed under its deletion keys, in one sorted array of
 * key * 2^20 + index (16 entries a UN/LOCODE). An input looks up its one-deletion keys first, which
 * find every code one edit away; only when those are fewer than the suggestions does it look up the
 * two-deletion keys, whose short strings each file thousands of codes.
 */
export class CodeNeighbours {
  private readonly filed: Float64Array;

  constructor(
    private readonly codes: readonly string[],
    private readonly maxEdits: number,
  ) {
    if (codes.length >= 2 ** INDEX_BITS) throw new Error(`more than 2^${INDEX_BITS} codes to index`);
    const entries: number[] = [];
    codes.forEach((code, i) => {
      if (code.length > MAX_KEY_LENGTH) throw new Error(`code ${code} is longer than ${MAX_KEY_LENGTH}`);
      for (const key of deletionKeys(code, maxEdits)) entries.push(key * 2 ** INDEX_BITS + i);
    });
    this.filed = Float64Array.from(entries).sort();
  }

  /** What nearestCodes answers for `code` over the same codes, with `opts.maxEdits` at most the index's. */
  nearest(code: string, opts: NearOptions): number[] {
    if (opts.maxEdits > this.maxEdits) throw new Error(`the index reaches ${this.maxEdits} edits`);
    let near: Near[] = [];
    for (let depth = Math.min(1, opts.maxEdits); depth <= opts.maxEdits; depth++) {
      near = this.within(code, depth, opts.maxEdits);
      // Every code `depth` edits away is in: enough of them rank before any farther one.
      if (near.filter((n) => n.edits <= depth).length >= MAX_SUGGESTIONS) break;
    }
    return rankNear(code, near, this.codes, opts);
  }

  /** The codes sharing a key of up to `depth` deletions with `code`, those within `maxEdits` with their edits. */
  private within(code: string, depth: number, maxEdits: number): Near[] {
    const candidates = new Set<number>();
    for (const key of deletionKeys(code, depth)) this.collect(key, candidates);
    const near: Near[] = [];
    for (const i of candidates) {
      const known = this.codes[i]!;
      const edits = known === code ? maxEdits + 1 : editDistance(code, known);
      if (edits <= maxEdits) near.push({ i, edits });
    }
    return near;
  }

  /** Adds the index of every code filed under `key` to `into`. */
  private collect(key: number, into: Set<number>): void {
    const low = key * 2 ** INDEX_BITS;
    let lo = 0;
    let hi = this.filed.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.filed[mid]! < low) lo = mid + 1;
      else hi = mid;
    }
    const high = low + 2 ** INDEX_BITS;
    for (let at = lo; at < this.filed.length && this.filed[at]! < high; at++) into.add(this.filed[at]! - low);
  }
}

/** The message's tail: "; did you mean NLRTM (Rotterdam)?" or "" without suggestions. */
export function didYouMean(suggestions: ReadonlyArray<{ code: string; name: string }>): string {
  if (suggestions.length === 0) return "";
  const named = suggestions.map((s) => `${s.code} (${s.name})`);
  const list = named.length === 1 ? named[0] : `${named.slice(0, -1).join(", ")} or ${named.at(-1)}`;
  return `; did you mean ${list}?`;
}
