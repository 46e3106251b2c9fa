/**
 * "Did you mean": the known codes nearest to an unknown one, for location_not_found. Codes are
 * compared by edit distance (a swapped pair of letters counts once: NLTRM is one step from NLRTM).
 */

import { EngineError } from "../errors.ts";

export type SuggestedField = "locode" | "iata";

/** Every known code of a kind once, with the row that names it. */
export interface KnownCodes {
  codes: string[];
  rows: number[];
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
  const suggestions = nearestCodes(asked.code, known.codes, { ...near, major }).map((i) => ({
    code: known.codes[i]!,
    name: place(known.rows[i]!).name,
  }));
  const head = asked.first ? `unknown ${label} ${asked.code}` : `location "${asked.text}" could not be found`;
  const extra = suggestions.length ? { suggestions } : undefined;
  return new EngineError("location_not_found", `${head}${didYouMean(suggestions)}`, extra);
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

/**
 * The indices of the codes nearest to `code`, best first: fewest edits (at most `maxEdits`), then a
 * code sharing the first `prefix` letters (a UN/LOCODE's country), then a major one, then the code.
 */
export function nearestCodes(
  code: string,
  codes: readonly string[],
  opts: { maxEdits: number; prefix: number; major: (i: number) => boolean },
): number[] {
  const head = code.slice(0, opts.prefix);
  const near: Array<{ i: number; rank: [number, number, number] }> = [];
  codes.forEach((known, i) => {
    if (known === code || Math.abs(known.length - code.length) > opts.maxEdits) return;
    const edits = editDistance(code, known);
    if (edits > opts.maxEdits) return;
    near.push({ i, rank: [edits, known.startsWith(head) ? 0 : 1, opts.major(i) ? 0 : 1] });
  });
  near.sort(
    (x, y) =>
      x.rank[0] - y.rank[0] ||
      x.rank[1] - y.rank[1] ||
      x.rank[2] - y.rank[2] ||
      (codes[x.i]! < codes[y.i]! ? -1 : 1),
  );
  return near.slice(0, MAX_SUGGESTIONS).map((n) => n.i);
}

/** The message's tail: "; did you mean NLRTM (Rotterdam)?" or "" without suggestions. */
export function didYouMean(suggestions: ReadonlyArray<{ code: string; name: string }>): string {
  if (suggestions.length === 0) return "";
  const named = suggestions.map((s) => `${s.code} (${s.name})`);
  const list = named.length === 1 ? named[0] : `${named.slice(0, -1).join(", ")} or ${named.at(-1)}`;
  return `; did you mean ${list}?`;
}
