/**
 * Road model accuracy against published driving distances (test/distance-road/reference-pairs.csv,
 * issue 12: median absolute error <= 6 %, no pair worse than 15 %). Nothing here tunes the model:
 * it only measures. `bun bench/road-accuracy.ts [buildDir]` prints median, max and every pair.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { median } from "../common/median.ts";
import { csvRecords } from "../data-build/locations/csv.ts";
import { EngineError } from "../engine/errors.ts";
import { greatCircleM, RoadPlanner as Planner, type RoadPlanner } from "../engine/road/planner.ts";

export const REFERENCE_CSV = join(import.meta.dir, "../test/distance-road/reference-pairs.csv");

export interface PairResult {
  pair: string;
  reference_km: number;
  model_km: number | null;
  gc_km: number;
  /** model / reference - 1; null when the model found no route. */
  error: number | null;
  note?: string;
}

export interface AccuracyReport {
  pairs: PairResult[];
  /** Median and max of |error| over the pairs with a route. */
  median: number;
  max: number;
  unrouted: number;
}

export function measureRoadAccuracy(planner: RoadPlanner, csvText = readFileSync(REFERENCE_CSV, "utf8")) {
  const pairs: PairResult[] = csvRecords(csvText).map((r) => {
    const from = { lat: Number(r.from_lat), lng: Number(r.from_lng), name: r.from_name ?? null };
    const to = { lat: Number(r.to_lat), lng: Number(r.to_lng), name: r.to_name ?? null };
    const reference = Number(r.road_km);
    const pair = `${r.from_name} (${r.from_country}) - ${r.to_name} (${r.to_country})`;
    const gc = greatCircleM(from, to) / 1000;
    try {
      const km = planner.plan({ from, to }).route.distance_m / 1000;
      return { pair, reference_km: reference, model_km: km, gc_km: gc, error: km / reference - 1 };
    } catch (err) {
      if (!(err instanceof EngineError)) throw err;
      return { pair, reference_km: reference, model_km: null, gc_km: gc, error: null, note: err.message };
    }
  });
  const abs = pairs
    .filter((p) => p.error !== null)
    .map((p) => Math.abs(p.error!))
    .sort((a, b) => a - b);
  return {
    pairs,
    median: median(abs),
    max: abs.length ? abs[abs.length - 1]! : Number.NaN,
    unrouted: pairs.length - abs.length,
  } satisfies AccuracyReport;
}

if (import.meta.main) {
  const planner = await Planner.load(process.argv[2]);
  const report = measureRoadAccuracy(planner);
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  for (const p of [...report.pairs].sort((a, b) => Math.abs(b.error ?? 9) - Math.abs(a.error ?? 9))) {
    console.log(
      `${p.error === null ? "no route" : pct(p.error).padStart(8)}  ${p.pair}: model ${p.model_km?.toFixed(0) ?? "-"} km, reference ${p.reference_km} km, great circle ${p.gc_km.toFixed(0)} km${p.note ? ` (${p.note})` : ""}`,
    );
  }
  console.log(
    `${report.pairs.length} pairs: median |error| ${pct(report.median)}, max ${pct(report.max)}, ${report.unrouted} without a route (goal: median <= 6 %, max <= 15 %)`,
  );
}
