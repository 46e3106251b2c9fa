/**
 * When a Sea + River chain is dropped (spec, chain rule 2): when it exceeds 1.3 times the River km,
 * or is not at least 3 % shorter than River, or exceeds 2.5 times the great circle while a direct
 * chain exists, or exceeds 1.6 times the shortest chain without air, or is more than half road and
 * rail access. Pure: figures in, the rules that fire out (all of them, for the diagnostics).
 *
 * Our readings, where the spec leaves a word open (docs/multimodal.md, "Drop rules"):
 * - "the River km" is the River chain's km; "3 % shorter than River" compares durations: read as
 *   km too it would make the 1.3 x rule unreachable (a chain 3 % shorter is never 1.3 x longer),
 *   so the second rule asks the detour by sea to save time.
 * - Both compare with the River chain (road, barge, road) between the same ends; with none there
 *   is nothing to compare and neither fires.
 * - "a direct chain" is any chain of another type (Sea, River, Rail, Air, Road: one main mode,
 *   where Sea + River has two).
 * - "the shortest chain without air" is the shortest in km of all chains with no AIR section,
 *   every Sea + River candidate included (so it is never longer than the chain judged).
 * - "road and rail access" is the km of the chain's ROAD and RAIL sections.
 */

export const DROP_RULES = {
  riverKm: { id: "over_1.3x_river_km", factor: 1.3 },
  riverTime: { id: "not_3pct_faster_than_river", factor: 0.97 },
  greatCircle: { id: "over_2.5x_great_circle", factor: 2.5 },
  shortest: { id: "over_1.6x_shortest_without_air", factor: 1.6 },
  access: { id: "over_half_road_and_rail_access", factor: 0.5 },
} as const;

export type DropReason = (typeof DROP_RULES)[keyof typeof DROP_RULES]["id"];

/** What the rules read of a Sea + River chain. */
export interface SeaRiverFigures {
  km: number;
  hours: number;
  /** Km of its ROAD and RAIL sections. */
  accessKm: number;
}

/** What they compare it with. */
export interface DropContext {
  /** The River chain between the same ends, when one exists. */
  river: { km: number; hours: number } | null;
  greatCircleKm: number;
  /** A chain of another type exists. */
  directExists: boolean;
  /** Km of the shortest chain without an AIR section (this one included). */
  shortestWithoutAirKm: number;
}

/** The rules that drop the chain, in the spec's order; empty: it is kept. */
export function dropReasons(c: SeaRiverFigures, ctx: DropContext): DropReason[] {
  const out: DropReason[] = [];
  const r = DROP_RULES;
  if (ctx.river && c.km > r.riverKm.factor * ctx.river.km) out.push(r.riverKm.id);
  if (ctx.river && !(c.hours <= r.riverTime.factor * ctx.river.hours)) out.push(r.riverTime.id);
  if (ctx.directExists && c.km > r.greatCircle.factor * ctx.greatCircleKm) out.push(r.greatCircle.id);
  if (c.km > r.shortest.factor * ctx.shortestWithoutAirKm) out.push(r.shortest.id);
  if (c.accessKm > r.access.factor * c.km) out.push(r.access.id);
  return out;
}
