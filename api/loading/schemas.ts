/**
 * The load-plan resources' shapes as the OpenAPI document names them: the plan summary (list item,
 * event subject) and the whole plan with every placement, as view.ts renders them.
 */
import { t } from "elysia";
import { DateTime, Int, nullable, strict } from "../shared/openapi/responses.ts";

const Text = nullable(t.String());
const Share = t.Number({ minimum: 0, maximum: 1 });
const Box = strict({ length: t.Number(), width: t.Number(), height: t.Number() });
const Objective = t.Union([t.Literal("fewest_units"), t.Literal("cheapest")]);

const HEAD = {
  id: t.String(),
  name: t.String(),
  reference: Text,
  status: t.Union([t.Literal("complete"), t.Literal("partial")]),
  version: Int({ minimum: 1 }),
};

const UNIT_SUMMARY = {
  number: Int({ minimum: 1 }),
  equipment: t.String(),
  pieces: Int({ minimum: 0 }),
  volume_utilisation: Share,
  weight_utilisation: Share,
  svg_url: t.String({ format: "uri" }),
};

export const LoadPlanSummary = strict(
  {
    ...HEAD,
    objective: Objective,
    units_used: Int({ minimum: 0 }),
    pieces_placed: Int({ minimum: 0 }),
    pieces_unplaced: Int({ minimum: 0 }),
    total_cost: nullable(t.Number()),
    units: t.Array(strict(UNIT_SUMMARY)),
    created_at: DateTime,
    updated_at: DateTime,
  },
  { $id: "LoadPlanSummary", description: "A load plan without its input and placements" },
);

const Unit = strict({
  ...UNIT_SUMMARY,
  equipment_name: t.String(),
  inside_mm: Box,
  door_mm: strict({ width: t.Number(), height: t.Number() }),
  payload_kg: t.Number(),
  loaded_volume_m3: t.Number({ minimum: 0 }),
  weight_kg: t.Number({ minimum: 0 }),
  cost: nullable(t.Number()),
  cog_mm: strict({ x: t.Number(), y: t.Number(), z: t.Number() }),
  cog_offset: strict({ longitudinal: t.Number(), lateral: t.Number() }),
  placements: t.Array(
    strict({
      item: Int({ minimum: 0, description: "Index of the item in the input" }),
      item_id: Text,
      position_mm: strict({ x: t.Number(), y: t.Number(), z: t.Number() }),
      size_mm: Box,
      orientation: t.String({ description: "Axis order of the piece as placed (xyz is as given)" }),
      load_order: Int({ minimum: 0 }),
      wall: Int({ minimum: 0 }),
    }),
  ),
});

export const LoadPlan = strict(
  {
    ...HEAD,
    created_at: DateTime,
    updated_at: DateTime,
    input: t.Object({}, { additionalProperties: true, description: "The plan's input as sent" }),
    result: strict({
      objective: Objective,
      total_cost: nullable(t.Number()),
      cog_bounds: strict({ longitudinal: t.Number(), lateral: t.Number() }),
      units_used: Int({ minimum: 0 }),
      units: t.Array(Unit),
      unplaced: t.Array(
        strict({
          item: Int({ minimum: 0 }),
          item_id: Text,
          quantity: Int({ minimum: 1 }),
          reason: t.String(),
        }),
      ),
    }),
  },
  { $id: "LoadPlan", description: "A load plan with its input and every placement" },
);
