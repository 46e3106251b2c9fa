/**
 * Input checks and unit conversion for the load planner: every field checked by name, lengths
 * converted to whole mm (rounded up: a box is never planned smaller than it is), weights to kg.
 */
import {
  ALL_ORIENTATIONS_MASK,
  ORIENTATIONS,
  type OrientationName,
  type RawProblem,
  THIS_SIDE_UP_MASK,
} from "../../router-wasm/binding/loadplan.ts";
import { EQUIPMENT, EQUIPMENT_CODES, type EquipmentCode } from "./equipment.ts";
import { LoadPlanError } from "./errors.ts";
import type { DimensionUnit, LoadPlanInput, Objective, WeightUnit } from "./types.ts";

export const MM_PER: Readonly<Record<DimensionUnit, number>> = { mm: 1, cm: 10, m: 1000, in: 25.4 };
export const KG_PER: Readonly<Record<WeightUnit, number>> = { kg: 1, lb: 0.45359237 };
/** Default CoG bounds: within the middle 20 % of the length and 10 % of the width. */
export const DEFAULT_COG = { longitudinal: 0.1, lateral: 0.05 } as const;
/** Bounds on one plan's size, so one request cannot hold the engine for long. */
/** Sides of a piece in mm after conversion: the engine works in whole mm, far below i64 limits. */
export const SIDE_MM = { min: 1, max: 100_000 } as const;
export const LIMITS = { itemTypes: 500, boxes: 5000, workBudget: 200_000_000 } as const;

/** A validated problem, in the engine's units, with what the result needs to map back. */
export interface Prepared {
  raw: RawProblem;
  input: LoadPlanInput;
  equipment: Array<{ code: EquipmentCode; cost: number | null }>;
  objective: Objective;
  cog: { longitudinal: number; lateral: number };
}

const bad = (field: string, message: string): never => {
  throw new LoadPlanError("invalid_request", `${field}: ${message}`, field);
};
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function num(
  v: unknown,
  field: string,
  opts: { min?: number; int?: boolean; positive?: boolean } = {},
): number {
  if (typeof v !== "number" || !Number.isFinite(v)) return bad(field, "must be a finite number");
  if (opts.int && !Number.isInteger(v)) bad(field, "must be an integer");
  if (opts.positive && v <= 0) bad(field, "must be > 0");
  if (opts.min !== undefined && v < opts.min) bad(field, `must be >= ${opts.min}`);
  return v;
}

function oneOf<T extends string>(v: unknown, allowed: readonly T[], field: string): T {
  if (typeof v !== "string" || !allowed.includes(v as T)) bad(field, `must be one of ${allowed.join(", ")}`);
  return v as T;
}

function orientationMask(v: unknown, field: string): number {
  if (v === undefined || v === "any") return ALL_ORIENTATIONS_MASK;
  if (v === "this_side_up") return THIS_SIDE_UP_MASK;
  if (!Array.isArray(v) || v.length === 0)
    return bad(field, 'must be "any", "this_side_up" or orientation names');
  let mask = 0;
  v.forEach((name, k) => {
    const o = oneOf<OrientationName>(name, ORIENTATIONS, `${field}[${k}]`);
    const bit = 1 << ORIENTATIONS.indexOf(o);
    if (mask & bit) bad(`${field}[${k}]`, "duplicate orientation");
    mask |= bit;
  });
  return mask;
}

/** Unit conversions of one request: sides to whole mm, weights to kg. */
interface Units {
  mm(v: unknown, field: string): number;
  kg(v: unknown, field: string): number;
}

function unitsOf(dimensionUnit: DimensionUnit, weightUnit: WeightUnit): Units {
  return {
    mm(v, field) {
      const given = num(v, field, { positive: true });
      const exact = given * MM_PER[dimensionUnit];
      // Below 1 mm the whole-mm rounding would give a piece of no size.
      if (exact < SIDE_MM.min || exact > SIDE_MM.max)
        bad(
          field,
          `must be from ${SIDE_MM.min} mm to ${SIDE_MM.max / 1000} m; got ${given} ${dimensionUnit}`,
        );
      return Math.ceil(exact - 1e-9);
    },
    kg: (v, field) => num(v, field, { min: 0 }) * KG_PER[weightUnit],
  };
}

/** The item types, in engine units, within the type and piece limits. */
function itemsOf(value: unknown, units: Units): RawProblem["items"] {
  if (!Array.isArray(value) || value.length === 0) bad("items", "must be a non-empty array");
  const rawItems = value as unknown[];
  if (rawItems.length > LIMITS.itemTypes) bad("items", `at most ${LIMITS.itemTypes} item types`);
  let boxes = 0;
  const items = rawItems.map((it, i) => {
    const f = `items[${i}]`;
    if (!isObject(it)) return bad(f, "must be an object");
    if (it.id !== undefined && typeof it.id !== "string") bad(`${f}.id`, "must be a string");
    const quantity = num(it.quantity, `${f}.quantity`, { int: true, positive: true });
    boxes += quantity;
    if (it.stackable !== undefined && typeof it.stackable !== "boolean")
      bad(`${f}.stackable`, "must be a boolean");
    const maxTop = it.maxLoadOnTop ?? null;
    return {
      length: units.mm(it.length, `${f}.length`),
      width: units.mm(it.width, `${f}.width`),
      height: units.mm(it.height, `${f}.height`),
      quantity,
      orientations: orientationMask(it.orientations, `${f}.orientations`),
      weight: units.kg(it.weight, `${f}.weight`),
      stackable: it.stackable !== false,
      maxLoadOnTop: maxTop === null ? Number.POSITIVE_INFINITY : units.kg(maxTop, `${f}.maxLoadOnTop`),
      priority: it.priority === undefined ? 0 : num(it.priority, `${f}.priority`, { int: true }),
    };
  });
  if (boxes > LIMITS.boxes) bad("items", `at most ${LIMITS.boxes} pieces in one plan`);
  return items;
}

/** The equipment choices: each code once, with a cost where the objective needs one. */
function equipmentOf(
  value: unknown,
  objective: Objective,
): Array<{ code: EquipmentCode; cost: number | null; maxCount: number }> {
  if (!Array.isArray(value) || value.length === 0) bad("equipment", "must be a non-empty array");
  const seen = new Set<string>();
  return (value as unknown[]).map((e, k) => {
    const f = `equipment[${k}]`;
    const choice =
      typeof e === "string" ? { type: e } : isObject(e) ? e : bad(f, "must be a code or an object");
    const code = oneOf<EquipmentCode>(choice.type, EQUIPMENT_CODES, typeof e === "string" ? f : `${f}.type`);
    if (seen.has(code)) bad(f, `${code} listed twice`);
    seen.add(code);
    const cost = choice.cost === undefined ? null : num(choice.cost, `${f}.cost`, { min: 0 });
    if (objective === "cheapest" && cost === null) bad(`${f}.cost`, "required for the cheapest objective");
    const maxCount =
      choice.maxCount === undefined
        ? 0
        : num(choice.maxCount, `${f}.maxCount`, { int: true, positive: true });
    return { code, cost, maxCount };
  });
}

/** The centre-of-gravity bounds, fractions of the unit's length and width. */
function cogOf(value: unknown): { longitudinal: number; lateral: number } {
  if (value === undefined) return { ...DEFAULT_COG };
  if (!isObject(value)) bad("cog", "must be an object");
  const c = value as Record<string, unknown>;
  const cog = {
    longitudinal: num(c.longitudinal, "cog.longitudinal", { min: 0 }),
    lateral: num(c.lateral, "cog.lateral", { min: 0 }),
  };
  if (cog.longitudinal > 0.5 || cog.lateral > 0.5) bad("cog", "bounds are fractions of at most 0.5");
  return cog;
}

/** Checks `input` and converts it for the engine; throws LoadPlanError("invalid_request"). */
export function prepare(input: unknown, defaultWork: number): Prepared {
  if (!isObject(input)) return bad("$", "must be an object");
  const dimensionUnit = oneOf<DimensionUnit>(input.dimensionUnit, ["mm", "cm", "m", "in"], "dimensionUnit");
  const weightUnit = oneOf<WeightUnit>(input.weightUnit ?? "kg", ["kg", "lb"], "weightUnit");
  const objective = oneOf<Objective>(
    input.objective ?? "fewest_units",
    ["fewest_units", "cheapest"],
    "objective",
  );
  const items = itemsOf(input.items, unitsOf(dimensionUnit, weightUnit));
  const equipment = equipmentOf(input.equipment, objective);
  const cog = cogOf(input.cog);
  const maxUnits =
    input.maxUnits === undefined ? 0 : num(input.maxUnits, "maxUnits", { int: true, positive: true });
  const workBudget =
    input.workBudget === undefined ? defaultWork : num(input.workBudget, "workBudget", { int: true, min: 0 });
  if (workBudget > LIMITS.workBudget) bad("workBudget", `at most ${LIMITS.workBudget}`);

  const raw: RawProblem = {
    items,
    units: equipment.map(({ code, cost, maxCount }) => {
      const e = EQUIPMENT[code];
      return {
        length: e.inside.length,
        width: e.inside.width,
        height: e.inside.height,
        doorWidth: e.door.width,
        doorHeight: e.door.height,
        payload: e.payloadKg,
        cost: cost ?? 1,
        maxCount,
      };
    }),
    params: { objective, workBudget, cogLongitudinal: cog.longitudinal, cogLateral: cog.lateral, maxUnits },
  };
  return {
    raw,
    input: input as unknown as LoadPlanInput,
    equipment: equipment.map(({ code, cost }) => ({ code, cost })),
    objective,
    cog,
  };
}
