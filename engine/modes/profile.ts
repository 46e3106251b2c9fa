/**
 * What a transport mode is to the engine, in one place per mode (engine/modes/<mode>.ts, the way
 * Valhalla's sif/ keeps one costing per mode): the spellings a request may use for it, the
 * spec's cost-index weight, its default emission intensity and, where the mode hands freight over
 * at a terminal, the handling hours there, and the speeds a mode's figures assume. The chain renderer, the emissions and the planners read
 * these; a new mode or factor is a new or edited file here and its line in index.ts.
 */

/** The spec's transport modes. */
export type TransportMode = "SEA" | "RIVER" | "RAIL" | "ROAD" | "AIR";

export interface IntensityFactor {
  /** What the default stands for (vehicle class, load, region). */
  basis: string;
  /** g CO2e per tonne-km. */
  wtw: number;
  ttw: number;
  source: string;
}

export interface ModeProfile {
  /** Upper-case spellings a request may name the mode by, its own name (MODE_PROFILES's key) first. */
  aliases: readonly string[];
  /** Spec, summary.cost_index: weight per km. */
  costWeight: number;
  /** Default intensity, g CO2e per tonne-km (ISO 14083 / GLEC; docs/emissions.md). */
  intensity: IntensityFactor;
  /** Spec, Limits: terminal handling per transfer where a leg of this mode starts or ends (0: none). */
  handlingHours: number;
  /** GET /v1/distance/route's alternatives when the query leaves it out (the spec's per-mode default). */
  alternatives: boolean;
}

/**
 * Fuel WTW/TTW ratios read off GLEC v3.0 rows, to derive a factor's missing half
 * (docs/emissions.md).
 */
export const WTW_PER_TTW = {
  /** Table 14, Ferry-RoPax >20000 GT, VLSFO: WTW 0.098 / TTW 0.0835 kg per tonne-km. */
  vlsfo: 0.098 / 0.0835,
  /** Table 8, articulated truck <34 t, average/mixed, diesel: WTW 116 / TTW 89 g per tonne-km. */
  diesel: 116 / 89,
  /** Table 1, air freight >1500 km and <1500 km, aircraft unknown: WTT/TTW 0.2647 and 0.2642. */
  jet: 1.2644,
};
