/**
 * Road model accuracy against published driving distances (test/distance-road/reference-pairs.csv,
 * goal: median absolute error <= 6 %, no pair worse than 15 %) and truck time against published
 * truck lane figures (test/distance-road/truck-lanes.csv, each row saying what its source is).
 * Nothing here tunes the model: it only measures. `bun bench/road-accuracy.ts [buildDir]
 * [baselineBuildDir]` prints median, max and every pair, then every lane; with a baseline, both
 * builds side by side and their ratio, measured in the same run.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { median } from "../common/median.ts";
import { EngineError } from "../engine/errors.ts";
import { greatCircleM, RoadPlanner as Planner, type RoadPlanner } from "../engine/road/planner.ts";
import { csvRecords } from "../formats/csv.ts";

export const REFERENCE_CSV = join(import.meta.dir, "../test/distance-road/reference-pairs.csv");
export const LANES_CSV = join(import.meta.dir, "../test/distance-road/truck-lanes.csv");

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

export interface LaneResult {
  lane: string;
  km: number;
  driving_hours: number;
  rest_hours: number;
  /** The model's figure in the unit the source gives (driving h, driving + rest h, or km/h). */
  model: number;
  figure: string;
  low: number;
  high: number;
}

/** The model's answer on each lane, in the unit of the lane's published figure. */
export function measureTruckLanes(planner: RoadPlanner, csvText = readFileSync(LANES_CSV, "utf8")) {
  return csvRecords(csvText).map((r): LaneResult => {
    const from = { lat: Number(r.from_lat), lng: Number(r.from_lng), name: r.from_name ?? null };
    const to = { lat: Number(r.to_lat), lng: Number(r.to_lng), name: r.to_name ?? null };
    const leg = planner.plan({ from, to }).route;
    const km = leg.distance_m / 1000;
    const model =
      r.figure === "average_kmh"
        ? km / leg.driving_hours
        : r.figure === "total_hours"
          ? leg.driving_hours + leg.rest_hours
          : leg.driving_hours;
    return {
      lane: `${r.from_name} - ${r.to_name}`,
      km,
      driving_hours: leg.driving_hours,
      rest_hours: leg.rest_hours,
      model,
      figure: r.figure!,
      low: Number(r.low),
      high: Number(r.high),
    };
  });
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

function printPairs(report: AccuracyReport, base: AccuracyReport | null): void {
  const baseOf = new Map(base?.pairs.map((p) => [p.pair, p]) ?? []);
  for (const p of [...report.pairs].sort((a, b) => Math.abs(b.error ?? 9) - Math.abs(a.error ?? 9))) {
    const b = baseOf.get(p.pair);
    const was = b
      ? `, baseline ${b.model_km?.toFixed(0) ?? "-"} km (${b.error === null ? "no route" : pct(b.error)})`
      : "";
    console.log(
      `${p.error === null ? "no route" : pct(p.error).padStart(8)}  ${p.pair}: model ${p.model_km?.toFixed(0) ?? "-"} km, reference ${p.reference_km} km, great circle ${p.gc_km.toFixed(0)} km${was}${p.note ? ` (${p.note})` : ""}`,
    );
  }
  const line = (r: AccuracyReport) =>
    `median |error| ${pct(r.median)}, max ${pct(r.max)}, ${r.unrouted} without a route`;
  console.log(`${report.pairs.length} pairs: ${line(report)} (goal: median <= 6 %, max <= 15 %)`);
  if (base) console.log(`baseline: ${line(base)}`);
}

function printLanes(lanes: LaneResult[], base: LaneResult[] | null): void {
  const unit = (f: string) =>
    f === "average_kmh" ? "km/h" : f === "total_hours" ? "h driving + rest" : "h driving";
  lanes.forEach((l, i) => {
    const b = base?.[i];
    const ratio = b
      ? `, baseline ${b.model.toFixed(1)} (this / baseline ${(l.model / b.model).toFixed(3)})`
      : "";
    console.log(
      `${l.lane}: ${l.km.toFixed(0)} km, model ${l.model.toFixed(1)} ${unit(l.figure)} (${(l.km / l.driving_hours).toFixed(1)} km/h driving), published ${l.low}${l.high !== l.low ? `-${l.high}` : ""}${ratio}`,
    );
  });
}

if (import.meta.main) {
  const [dir, baseDir] = process.argv.slice(2);
  const planner = await Planner.load(dir);
  const baseline = baseDir ? await Planner.load(baseDir) : null;
  printPairs(measureRoadAccuracy(planner), baseline ? measureRoadAccuracy(baseline) : null);
  console.log("\ntruck lanes (test/distance-road/truck-lanes.csv says what each published figure is):");
  printLanes(measureTruckLanes(planner), baseline ? measureTruckLanes(baseline) : null);
}
