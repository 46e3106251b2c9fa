/**
 * Location resolution benchmark: free-text resolves and searches of well-known freight places (the
 * table of test/distance-locations/freight-places.ts) against resolves of UN/LOCODEs, the code path
 * batch jobs mostly take, measured in the same run. Batch jobs resolve millions of places, so the
 * free-text cost per call is the figure to watch. Unknown codes ("did you mean") are looked up in
 * the neighbour index against the scan of every known code it replaces, also in the same run.
 * Usage: bun bench/locations.ts [--rounds 20]
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { buildDirFrom } from "../common/build-dir.ts";
import { LocationIndex } from "../engine/locations/index.ts";
import { nearestCodes } from "../engine/locations/suggest.ts";
import { FREIGHT_PLACES } from "../test/distance-locations/freight-places.ts";

const { values } = parseArgs({
  args: Bun.argv.slice(2),
  options: { rounds: { type: "string", default: "20" } },
});
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error("--rounds must be a positive integer");

const index = LocationIndex.fromBytes(new Uint8Array(readFileSync(join(buildDirFrom(), "locations.idx"))));
const texts = FREIGHT_PLACES.map(([typed]) => typed);
// The codes of the places the texts resolve to, where they have one; else a main port's.
const codes = texts.map((t) => index.search(t, { types: ["port"], limit: 1 })[0]?.locode ?? "NLRTM");

/** Microseconds per call of fn over inputs, the best of `rounds` passes (after one warm-up pass). */
function perCallUs(inputs: string[], fn: (input: string) => unknown, passes = rounds): number {
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r <= passes; r++) {
    const t0 = performance.now();
    for (const input of inputs) fn(input);
    const us = ((performance.now() - t0) * 1000) / inputs.length;
    if (r > 0) best = Math.min(best, us);
  }
  return best;
}

const code = perCallUs(codes, (c) => index.resolve(c));
const text = perCallUs(texts, (t) => {
  try {
    return index.resolve(t);
  } catch {
    return null; // a miss costs its lookup too
  }
});
const search = perCallUs(texts, (t) => index.search(t));
const fmt = (us: number) => `${us.toFixed(1)} us/call (${(us / code).toFixed(1)}x the code resolve)`;
// Unknown UN/LOCODEs one letter from a known one: each asks for suggestions.
const known = index.knownCodes("locode");
const taken = new Set(known.codes);
const misses = codes.map(
  (c) => [..."QXZJ"].map((x) => c.slice(0, 4) + x).find((m) => !taken.has(m)) ?? "QQQQQ",
);
const near = { maxEdits: 2, prefix: 2, major: () => false };
const indexed = perCallUs(misses, (m) => known.neighbours.nearest(m, near));
// The scan costs tens of milliseconds a call: a tenth of the misses and three passes measure it.
const scanned = perCallUs(
  misses.slice(0, Math.ceil(misses.length / 10)),
  (m) => nearestCodes(m, known.codes, near),
  3,
);

console.log(`locations: ${texts.length} free-text places, best of ${rounds} rounds`);
console.log(`  resolve UN/LOCODE   ${code.toFixed(1)} us/call (baseline)`);
console.log(`  resolve free text   ${fmt(text)}`);
console.log(`  search, first page  ${fmt(search)}`);
console.log(`  suggestions, index  ${indexed.toFixed(1)} us/call (${known.codes.length} UN/LOCODEs)`);
console.log(
  `  suggestions, scan   ${scanned.toFixed(1)} us/call (${(scanned / indexed).toFixed(0)}x the index)`,
);
