/**
 * How a stored load plan reads over HTTP and in event payloads (snake_case, lengths in mm, weights
 * in kg whatever units the input used). Units are numbered from 1, as their SVG route is.
 */
import type { PlanSummary } from "../../common/events/loading.ts";
import { EQUIPMENT } from "../../engine/loadplan/equipment.ts";
import type { LoadPlanResult, PlannedUnit } from "../../engine/loadplan/types.ts";
import type { LoadPlanRow } from "../../storage/load-plans.ts";

export type PlanStatus = "complete" | "partial";

export const statusOf = (r: LoadPlanResult): PlanStatus => (r.unplaced.length === 0 ? "complete" : "partial");

export const resultOf = (row: LoadPlanRow) => row.result as unknown as LoadPlanResult;

/** Where a unit's picture is served (the public URL of the load-plan host). */
export const svgUrl = (base: string, planId: string, n: number) =>
  `${base}/v1/load-plans/${encodeURIComponent(planId)}/units/${n}.svg`;

const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

function unitSummary(base: string, planId: string, u: PlannedUnit, k: number) {
  return {
    number: k + 1,
    equipment: u.equipment,
    pieces: u.placements.length,
    volume_utilisation: round(u.volumeUtilisation, 4),
    weight_utilisation: round(u.weightUtilisation, 4),
    svg_url: svgUrl(base, planId, k + 1),
  };
}

/** What names a plan and its state, first in every view of it. */
function planHead(row: LoadPlanRow) {
  return { id: row.id, name: row.name, reference: row.reference, status: row.status, version: row.version };
}

/** The list item and event subject: the plan without its input and placements. */
export function planSummary(base: string, row: LoadPlanRow): PlanSummary {
  const r = resultOf(row);
  return {
    ...planHead(row),
    objective: r.objective,
    units_used: r.units.length,
    pieces_placed: r.units.reduce((s, u) => s + u.placements.length, 0),
    pieces_unplaced: r.unplaced.reduce((s, x) => s + x.quantity, 0),
    total_cost: r.totalCost,
    units: r.units.map((u, k) => unitSummary(base, row.id, u, k)),
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

/** The whole plan: input as sent, every placement, CoG and utilisation per unit, unplaced pieces. */
export function planView(base: string, row: LoadPlanRow) {
  const r = resultOf(row);
  return {
    ...planHead(row),
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    input: row.input,
    result: {
      objective: r.objective,
      total_cost: r.totalCost,
      cog_bounds: r.cogBounds,
      units_used: r.units.length,
      units: r.units.map((u, k) => {
        const e = EQUIPMENT[u.equipment];
        return {
          ...unitSummary(base, row.id, u, k),
          equipment_name: e.name,
          inside_mm: e.inside,
          door_mm: e.door,
          payload_kg: e.payloadKg,
          loaded_volume_m3: round(u.loadedVolumeM3, 4),
          weight_kg: round(u.weightKg, 3),
          cost: u.cost,
          cog_mm: { x: round(u.cog.x, 1), y: round(u.cog.y, 1), z: round(u.cog.z, 1) },
          /** Signed offset of the CoG from the middle, as fractions of the inside length and width. */
          cog_offset: {
            longitudinal: round(u.cog.x / e.inside.length - 0.5, 4),
            lateral: round(u.cog.y / e.inside.width - 0.5, 4),
          },
          placements: u.placements.map((p) => ({
            item: p.item,
            item_id: p.itemId,
            position_mm: p.position,
            size_mm: p.size,
            orientation: p.orientation,
            load_order: p.loadOrder,
            wall: p.wall,
          })),
        };
      }),
      unplaced: r.unplaced.map((x) => ({
        item: x.item,
        item_id: x.itemId,
        quantity: x.quantity,
        reason: x.reason,
      })),
    },
  };
}
