/**
 * Road access legs at the main inland ports (data-build/river/main-river-ports.csv): from each
 * listed quay, the river chain to the nearest listed port 100 km or more away on the same river
 * (the first name of its waterway column) on a summer date; the figure is the chain's first road
 * leg (0 when the quay is the port). A port set that lacks a town's harbour shows here as a long drive to the
 * next town's (Memphis to a port 16 km off, Geesthacht to Lauenburg).
 */
import { haversineM } from "../common/geo.ts";
import { type MainRiverPort, parseMainRiverPorts } from "../data-build/river/ports.ts";
import type { RiverPlanner } from "../engine/river/planner.ts";
import type { RoadRoutePlanner } from "../engine/road/planner.ts";
import { quantile } from "./leg-timing.ts";

const MIN_KM = 100;
/** A summer date: the rivers closed in winter (Volga, Mississippi above St Louis) are open. */
const DATE = "2026-06-15";

export interface AccessFigures {
  /** Listed quays whose chain was planned, of all listed. */
  routed: number;
  of: number;
  median: number;
  worst: { km: number; name: string };
  /** Chains whose road leg is over 10 km. */
  over10: number;
}

/** The first name of a waterway column (its pattern is `\b(?:Name|...)\b`). */
const riverOf = (p: MainRiverPort) => /\(\?:([^|)]+)/.exec(p.waterway.source)?.[1] ?? "";

/** The nearest listed port MIN_KM or more away on the same river. */
function partner(p: MainRiverPort, rows: readonly MainRiverPort[]): MainRiverPort | undefined {
  let best: { q: MainRiverPort; km: number } | undefined;
  for (const q of rows) {
    if (riverOf(q) !== riverOf(p)) continue;
    const km = haversineM(p.lat, p.lng, q.lat, q.lng) / 1000;
    if (km >= MIN_KM && (!best || km < best.km)) best = { q, km };
  }
  return best?.q;
}

export async function accessLegs(river: RiverPlanner, road: RoadRoutePlanner): Promise<AccessFigures> {
  const rows = parseMainRiverPorts();
  const legs: Array<{ km: number; name: string }> = [];
  for (const p of rows) {
    const q = partner(p, rows);
    if (!q) continue;
    try {
      const { route } = await river.plan({ from: p, to: q, alternatives: false, date: DATE }, road);
      const at = route.sections.findIndex((s) => s.transport_mode === "RIVER");
      // A road fallback (the date's closures) has no access leg to measure.
      if (at < 0) continue;
      legs.push({ km: at === 0 ? 0 : route.sections[0]!.distance.km, name: p.name });
    } catch {
      // no_route (no river route between the two on the date): not counted.
    }
  }
  const km = legs.map((l) => l.km).sort((a, b) => a - b);
  const worst = legs.reduce((w, l) => (l.km > w.km ? l : w), { km: 0, name: "" });
  return {
    routed: legs.length,
    of: rows.length,
    median: quantile(km, 0.5),
    worst,
    over10: km.filter((x) => x > 10).length,
  };
}
