/**
 * A load plan's input as the HTTP API takes it: snake_case JSON like every other body of the
 * family (the engine's LoadPlanInput is camelCase), its TypeBox schema for validation and OpenAPI,
 * and the conversion to the engine's input. The engine checks the meaning (engine/loadplan/
 * validate.ts); the schema bounds sizes so no number reaching it can overflow its integer mm.
 */
import { t } from "elysia";
import { log } from "../../common/log.ts";
import { EQUIPMENT_CODES } from "../../engine/loadplan/equipment.ts";
import type { LoadPlanError } from "../../engine/loadplan/errors.ts";
import { DEFAULT_WORK_BUDGET } from "../../engine/loadplan/planner.ts";
import type { CargoItem, EquipmentChoice, LoadPlanInput } from "../../engine/loadplan/types.ts";
import { LIMITS, SIDE_MM } from "../../engine/loadplan/validate.ts";
import { ORIENTATIONS } from "../../router-wasm/binding/loadplan.ts";
import { ApiError } from "../shared/errors.ts";

/** Per piece; the heaviest payload is 29.5 t, so beyond this a piece is a typo. */
export const MAX_WEIGHT = 1_000_000;
export const MAX_COST = 1_000_000_000;
export const MAX_UNITS = 1000;
export const MAX_PRIORITY = 1_000_000;
export const NAME_MAX = 200;
export const REFERENCE_MAX = 100;

/** Caller text without control characters (PostgreSQL refuses NUL in text; none belong in a name). */
export const PRINTABLE = "^[^\\u0000-\\u001f\\u007f]*$";

const literals = <T extends string>(values: readonly T[], description?: string) =>
  t.Union(
    values.map((v) => t.Literal(v)),
    description ? { description } : {},
  );

const size = (description: string) => t.Number({ exclusiveMinimum: 0, maximum: SIDE_MM.max, description });

export const ItemSchema = t.Object(
  {
    id: t.Optional(
      t.String({ maxLength: 100, pattern: PRINTABLE, description: "Your reference, echoed in placements" }),
    ),
    length: size("In dimension_unit"),
    width: size("In dimension_unit"),
    height: size("In dimension_unit"),
    quantity: t.Integer({ minimum: 1, maximum: LIMITS.boxes, description: "Pieces of this item" }),
    weight: t.Number({ minimum: 0, maximum: MAX_WEIGHT, description: "Per piece, in weight_unit" }),
    orientations: t.Optional(
      t.Union(
        [literals(["any", "this_side_up"]), t.Array(literals(ORIENTATIONS), { minItems: 1, maxItems: 6 })],
        {
          description: `"any" (default), "this_side_up" (height stays vertical) or orientation names (${ORIENTATIONS.join(", ")}: which own dimension lies along the unit's length, width, height)`,
        },
      ),
    ),
    stackable: t.Optional(t.Boolean({ description: "Default true; false = nothing on top" })),
    max_load_on_top: t.Optional(
      t.Union([t.Number({ minimum: 0, maximum: MAX_WEIGHT * LIMITS.boxes }), t.Null()], {
        description: "Most weight its top carries in total (weight_unit); null or absent = no limit",
      }),
    ),
    priority: t.Optional(
      t.Integer({
        minimum: -MAX_PRIORITY,
        maximum: MAX_PRIORITY,
        description: "Higher first when not everything fits (default 0)",
      }),
    ),
  },
  { additionalProperties: false },
);

// Codes as plain strings: the engine names the allowed ones in its message (a union of literals
// inside a union would only say "should be one of: 'undefined', 'object'").
const code = t.String({ maxLength: 20, description: EQUIPMENT_CODES.join(", ") });
const EquipmentSchema = t.Union([
  code,
  t.Object(
    {
      type: code,
      cost: t.Optional(
        t.Number({
          minimum: 0,
          maximum: MAX_COST,
          description: "Per unit, any currency (cheapest needs it)",
        }),
      ),
      max_count: t.Optional(t.Integer({ minimum: 1, maximum: MAX_UNITS, description: "Units available" })),
    },
    { additionalProperties: false },
  ),
]);

const CogSchema = t.Object(
  {
    longitudinal: t.Number({ minimum: 0, maximum: 0.5 }),
    lateral: t.Number({ minimum: 0, maximum: 0.5 }),
  },
  {
    additionalProperties: false,
    description:
      "Centre-of-gravity bounds: fractions of the inside length / width either side of the middle (default 0.1 / 0.05)",
  },
);

/** The input fields: required ones, then optional ones (which PATCH may reset with null). */
const REQUIRED_INPUT = {
  items: t.Array(ItemSchema, {
    minItems: 1,
    maxItems: LIMITS.itemTypes,
    description: `Item types (at most ${LIMITS.itemTypes}; at most ${LIMITS.boxes} pieces in all)`,
  }),
  dimension_unit: literals(["mm", "cm", "m", "in"], "Unit of every item's length, width and height"),
  equipment: t.Array(EquipmentSchema, {
    minItems: 1,
    maxItems: EQUIPMENT_CODES.length,
    description: `Allowed equipment: codes (${EQUIPMENT_CODES.join(", ")}) or {type, cost, max_count}`,
  }),
};
const OPTIONAL_INPUT = {
  weight_unit: literals(["kg", "lb"], "Default kg"),
  objective: literals(["fewest_units", "cheapest"], "Default fewest_units; cheapest needs every cost"),
  cog: CogSchema,
  max_units: t.Integer({ minimum: 1, maximum: MAX_UNITS, description: "Most units in the plan" }),
  work_budget: t.Integer({
    minimum: 0,
    maximum: DEFAULT_WORK_BUDGET,
    description: `Search work per unit (default and most ${DEFAULT_WORK_BUDGET}, about a second); 0 = one greedy pass`,
  }),
};
export const INPUT_FIELDS = [...Object.keys(REQUIRED_INPUT), ...Object.keys(OPTIONAL_INPUT)] as const;

const name = t.String({
  minLength: 1,
  maxLength: NAME_MAX,
  pattern: PRINTABLE,
  description: "Your name for the plan",
});
const reference = t.String({
  maxLength: REFERENCE_MAX,
  pattern: PRINTABLE,
  description: "Your reference (booking, order)",
});

export const CreateBody = t.Object(
  {
    name,
    reference: t.Optional(reference),
    ...REQUIRED_INPUT,
    ...Object.fromEntries(Object.entries(OPTIONAL_INPUT).map(([k, s]) => [k, t.Optional(s)])),
  },
  { additionalProperties: false },
);

/** PATCH: any field; an input field replaces the stored one whole, null resets an optional one. */
export const PatchBody = t.Object(
  {
    name: t.Optional(name),
    reference: t.Optional(t.Union([reference, t.Null()])),
    ...Object.fromEntries(Object.entries(REQUIRED_INPUT).map(([k, s]) => [k, t.Optional(s)])),
    ...Object.fromEntries(
      Object.entries(OPTIONAL_INPUT).map(([k, s]) => [k, t.Optional(t.Union([s, t.Null()]))]),
    ),
  },
  { additionalProperties: false },
);

/** The stored input: the input fields of a body as sent (null and absent fields left out). */
export type PlanInputJson = Record<string, unknown>;

export function inputOf(body: Record<string, unknown>, base: PlanInputJson = {}): PlanInputJson {
  const out: PlanInputJson = { ...base };
  for (const key of INPUT_FIELDS) {
    if (!(key in body)) continue;
    if (body[key] === null) delete out[key];
    else out[key] = body[key];
  }
  // A stable key order, so equal inputs compare equal as text.
  return Object.fromEntries(INPUT_FIELDS.filter((k) => k in out).map((k) => [k, out[k]]));
}

type Json = Record<string, unknown>;

/** The engine's camelCase input; the engine checks sizes in mm (the schema cannot know the unit). */
export function engineInput(input: PlanInputJson): LoadPlanInput {
  const unit = input.dimension_unit as LoadPlanInput["dimensionUnit"];
  const items = (input.items as Json[]).map((it): CargoItem => {
    return {
      id: it.id as string | undefined,
      length: it.length as number,
      width: it.width as number,
      height: it.height as number,
      quantity: it.quantity as number,
      weight: it.weight as number,
      orientations: it.orientations as CargoItem["orientations"],
      stackable: it.stackable as boolean | undefined,
      maxLoadOnTop: it.max_load_on_top as number | null | undefined,
      priority: it.priority as number | undefined,
    };
  });
  const equipment = (input.equipment as Array<string | Json>).map((e) =>
    typeof e === "string"
      ? (e as EquipmentChoice["type"])
      : {
          type: e.type as EquipmentChoice["type"],
          cost: e.cost as number | undefined,
          maxCount: e.max_count as number | undefined,
        },
  );
  const out: Record<string, unknown> = {
    items: items.map(dropUndefined),
    dimensionUnit: unit,
    weightUnit: input.weight_unit,
    equipment: equipment.map((e) => (typeof e === "string" ? e : dropUndefined(e))),
    objective: input.objective,
    cog: input.cog,
    maxUnits: input.max_units,
    workBudget: input.work_budget,
  };
  return dropUndefined(out) as unknown as LoadPlanInput;
}

function dropUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

const snake = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The engine's refusal as the API's: the field named as the caller wrote it (snake_case). */
export function apiErrorOf(err: LoadPlanError): ApiError {
  if (err.code === "invalid_request") {
    const field = err.field ?? "";
    const message =
      field && err.message.startsWith(`${field}: `)
        ? `${snake(field)}: ${err.message.slice(field.length + 2)}`
        : err.message;
    return new ApiError("validation", message.endsWith(".") ? message : `${message}.`);
  }
  // engine_failure: the core refused what validation let through, a bug on our side.
  log.error({ component: "loading" }, err.message);
  return new ApiError("internal", "The packing engine failed on this input; retry, or report it.");
}
