/**
 * What a load plan takes and gives (docs/loadplan.md). Lengths in the output are mm, weights kg,
 * whatever units the input used.
 */
import type { OrientationName, ReasonCode } from "../../router-wasm/binding/loadplan.ts";
import type { EquipmentCode } from "./equipment.ts";

export type { OrientationName, ReasonCode };
export type DimensionUnit = "mm" | "cm" | "m" | "in";
export type WeightUnit = "kg" | "lb";
export type Objective = "fewest_units" | "cheapest";

export interface CargoItem {
  /** The caller's reference, echoed in placements. */
  id?: string;
  length: number;
  width: number;
  height: number;
  quantity: number;
  /** Per piece. */
  weight: number;
  /** "any" (default), "this_side_up" (height stays vertical) or the allowed names. */
  orientations?: "any" | "this_side_up" | OrientationName[];
  /** Default true; false = nothing on top. */
  stackable?: boolean;
  /** Most weight its top may carry in total (weight unit); null/absent = no limit. */
  maxLoadOnTop?: number | null;
  /** Integer, higher first when not everything fits; default 0. */
  priority?: number;
}

export interface EquipmentChoice {
  type: EquipmentCode;
  /** Cost per unit (any currency); required for the cheapest objective. */
  cost?: number;
  /** Units of this type available; absent = unlimited. */
  maxCount?: number;
}

export interface LoadPlanInput {
  items: CargoItem[];
  dimensionUnit: DimensionUnit;
  /** Default kg. */
  weightUnit?: WeightUnit;
  /** Allowed equipment: codes or choices with cost and availability. */
  equipment: Array<EquipmentCode | EquipmentChoice>;
  /** Default fewest_units. */
  objective?: Objective;
  /** Centre-of-gravity bounds as fractions of inside length / width either side of the middle. */
  cog?: { longitudinal: number; lateral: number };
  /** Most units in the plan (default: no cap beyond each type's maxCount). */
  maxUnits?: number;
  /** Search work per unit type tried and unit (default DEFAULT_WORK_BUDGET, about 1 s); 0 = one greedy pass. */
  workBudget?: number;
}

export interface PlacedItem {
  /** Index into the input's items. */
  item: number;
  itemId: string | null;
  /** mm from the front wall (x, towards the door), the left side (y) and the floor (z). */
  position: { x: number; y: number; z: number };
  /** Placed size in mm along length, width, height. */
  size: { length: number; width: number; height: number };
  orientation: OrientationName;
  /** 0-based place in the unit's loading sequence. */
  loadOrder: number;
  /** 0-based wall from the front. */
  wall: number;
}

export interface PlannedUnit {
  equipment: EquipmentCode;
  /** In load order. */
  placements: PlacedItem[];
  /** Loaded volume / inside volume, 0..1. */
  volumeUtilisation: number;
  /** Loaded weight / payload, 0..1. */
  weightUtilisation: number;
  loadedVolumeM3: number;
  weightKg: number;
  /** mm; weighted by weight (by volume when nothing weighs anything). */
  cog: { x: number; y: number; z: number };
  cost: number | null;
}

export interface UnplacedItem {
  item: number;
  itemId: string | null;
  quantity: number;
  reason: ReasonCode;
}

export interface LoadPlanResult {
  units: PlannedUnit[];
  unplaced: UnplacedItem[];
  objective: Objective;
  /** Sum of unit costs when every unit used has one, else null. */
  totalCost: number | null;
  /** The bounds applied (fractions). */
  cogBounds: { longitudinal: number; lateral: number };
  /** Work units the search spent. */
  work: number;
}
