/**
 * Second calibration step: published driving distances. The circuity table's region defaults are
 * judgement values (../shared/data/road/README.md asks for calibration "on published city-pair
 * driving distances after the graph is built"). calibration-pairs.csv holds 80 such distances with
 * their sources (CALIBRATION.md). Every per-edge factor is scaled by one number, the median of
 * published km / model km over the pairs. One scale, not one per region: with 2-5 pairs a region,
 * region scales predicted held-out pairs no better than none (leave-one-out over the table,
 * bench/road-calibration.ts: median error 10.3-11.6 % against 11.0 % unscaled), one global scale
 * did (8.4 %). The per-region medians are reported in the summary as evidence, not applied.
 *
 * The table is imported as text, so the build's code version covers it. It shares no city with the
 * accuracy check's pairs (test/distance-road/reference-pairs.csv): the check stays independent.
 */
import { haversineM } from "../../common/geo.ts";
import { median } from "../../common/median.ts";
import { csvRecords } from "../../formats/csv.ts";
import pairsCsv from "./calibration-pairs.csv" with { type: "text" };
import { adjacency, dijkstra, NodeGrid, type RoadLink, type RoadModel, type RoadNode } from "./network.ts";

export const CALIBRATION_PAIRS_CSV: string = pairsCsv;
/** A pair end farther than this from every linked node does not lie on the built network. */
const MAX_SNAP_M = 30_000;

export interface PublishedPair {
  from: { name: string; lat: number; lng: number; country: string };
  to: { name: string; lat: number; lng: number; country: string };
  roadKm: number;
  region: string;
}

export function parsePublishedPairs(csv = CALIBRATION_PAIRS_CSV): PublishedPair[] {
  return csvRecords(csv).map((r) => {
    const pair: PublishedPair = {
      from: {
        name: r.from_name ?? "",
        lat: Number(r.from_lat),
        lng: Number(r.from_lng),
        country: r.from_country ?? "",
      },
      to: {
        name: r.to_name ?? "",
        lat: Number(r.to_lat),
        lng: Number(r.to_lng),
        country: r.to_country ?? "",
      },
      roadKm: Number(r.road_km),
      region: r.region ?? "",
    };
    const numbers = [pair.from.lat, pair.from.lng, pair.to.lat, pair.to.lng, pair.roadKm];
    if (!numbers.every(Number.isFinite) || !(pair.roadKm > 0) || pair.region === "")
      throw new Error(
        `calibration-pairs.csv: ${pair.from.name}-${pair.to.name}: missing coordinates, road_km or region`,
      );
    return pair;
  });
}

export interface PairUse {
  pair: string;
  region: string;
  publishedKm: number;
  /** Model km before this step (null: an end off the network or no route). */
  modelKm: number | null;
  ratio: number | null;
}

export interface RegionEvidence {
  region: string;
  pairs: number;
  /** Median published / model km of the region's pairs (reported, not applied). */
  ratio: number;
}

export interface PairCalibration {
  /** Median published / model km over every measured pair; every factor was multiplied by it. */
  scale: number;
  factors: Map<string, number>;
  uses: PairUse[];
  regions: RegionEvidence[];
}

/**
 * Model km of each pair on the road links weighted as applyFactors will weight them (gc x mean
 * of both ends' factors), ends joined to their nearest linked node by great circle x that country's
 * factor (the planner's access legs). Ferries are left out, as in the zig-zag calibration.
 */
function measure(
  nodes: RoadNode[],
  links: RoadLink[],
  factors: Map<string, number>,
  pairs: PublishedPair[],
): Array<number | null> {
  const roads = (l: RoadLink) => l.kind !== "ferry";
  const linked = new Uint8Array(nodes.length);
  for (const l of links) if (roads(l)) linked[l.a] = linked[l.b] = 1;
  const grid = new NodeGrid(nodes);
  const g = adjacency(
    nodes.length,
    links,
    roads,
    (l) => (l.gcM * ((factors.get(l.country) ?? 1) + (factors.get(l.countryB) ?? 1))) / 2,
  );
  const snap = (p: PublishedPair["from"]) => {
    const [hit] = grid.nearest(p.lat, p.lng, 1, MAX_SNAP_M, (i) => linked[i] === 1);
    return hit ? { node: hit[0], accessM: hit[1] * (factors.get(p.country) ?? 1) } : null;
  };
  return pairs.map((p) => {
    const a = snap(p.from);
    const b = snap(p.to);
    if (!a || !b) return null;
    const gc = haversineM(p.from.lat, p.from.lng, p.to.lat, p.to.lng);
    const dist = dijkstra(g, a.node, gc * 4);
    const m = dist[b.node]!;
    return Number.isFinite(m) ? (m + a.accessM + b.accessM) / 1000 : null;
  });
}

/** One scale from the published pairs, applied to the zig-zag calibration's per-edge factors. */
export function fitPublishedPairs(
  nodes: RoadNode[],
  links: RoadLink[],
  model: RoadModel,
  factors: Map<string, number>,
  pairs: PublishedPair[],
): PairCalibration {
  const regionOf = (c: string) => model.countries.get(c)?.region ?? "";
  // A pair speaks for its region when both ends lie in it (the table says which region it samples).
  const usable = pairs.filter(
    (p) => regionOf(p.from.country) === p.region && regionOf(p.to.country) === p.region,
  );
  const km = measure(nodes, links, factors, usable);
  const uses: PairUse[] = usable.map((p, i) => ({
    pair: `${p.from.name} (${p.from.country}) - ${p.to.name} (${p.to.country})`,
    region: p.region,
    publishedKm: p.roadKm,
    modelKm: km[i] === null ? null : Math.round(km[i]! * 10) / 10,
    ratio: km[i] === null ? null : Math.round((p.roadKm / km[i]!) * 1000) / 1000,
  }));
  const measured = uses.filter((u) => u.ratio !== null);
  const byRegion = new Map<string, number[]>();
  for (const u of measured) byRegion.set(u.region, [...(byRegion.get(u.region) ?? []), u.ratio!]);
  const regions = [...byRegion]
    .map(([region, ratios]) => ({
      region,
      pairs: ratios.length,
      ratio: Math.round(median(ratios) * 1000) / 1000,
    }))
    .sort((x, y) => y.pairs - x.pairs || x.region.localeCompare(y.region));
  // No measured pair (a tiny test map): the factors stay as they are.
  const scale = measured.length === 0 ? 1 : Math.round(median(measured.map((u) => u.ratio!)) * 1000) / 1000;
  const fitted = new Map<string, number>();
  for (const [country, f] of factors) fitted.set(country, Math.max(1, f * scale));
  return { scale, factors: fitted, uses, regions };
}
