/**
 * The load-plan events' payloads (docs/loadplan.md, "The load-plan product"), in catalogue order.
 * Raised by api/loading/events.ts in the transaction of the plan write.
 */
import { type Static, Type } from "@sinclair/typebox";
import { Bool, Int, NNum, NStr, Num, Obj, Str } from "./fields.ts";

const UnitSummary = Obj({
  number: Int,
  equipment: Str,
  pieces: Int,
  volume_utilisation: Num,
  weight_utilisation: Num,
  svg_url: Str,
});

/** The plan without its input and placements: the list item and the event subject. */
const PLAN_SUMMARY = {
  id: Str,
  name: Str,
  reference: NStr,
  status: Str,
  version: Int,
  objective: Type.Union([Type.Literal("fewest_units"), Type.Literal("cheapest")]),
  units_used: Int,
  pieces_placed: Int,
  pieces_unplaced: Int,
  total_cost: NNum,
  units: Type.Array(UnitSummary),
  created_at: Str,
  updated_at: Str,
};

const Summary = Obj(PLAN_SUMMARY);
export type PlanSummary = Static<typeof Summary>;

export const PLAN_EVENTS = {
  plan_created: Summary,
  plan_updated: Obj({
    ...PLAN_SUMMARY,
    previous_version: Int,
    previous_status: Str,
    /** The request fields that changed; "input" means the plan was made again. */
    changed: Type.Array(Str),
    replanned: Bool,
  }),
  plan_deleted: Obj({ id: Str, name: Str, reference: NStr, version: Int, deleted_at: Str }),
};
