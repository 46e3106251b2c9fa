/**
 * The load planner through the real router.wasm: hand-made loads in real equipment (mm, kg), unit
 * conversion, and the typed errors of bad input. Every plan also passes the independent checker.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { EQUIPMENT, EQUIPMENT_CODES, type EquipmentCode } from "../../engine/loadplan/equipment.ts";
import { LoadPlanError } from "../../engine/loadplan/errors.ts";
import type { LoadPlanner } from "../../engine/loadplan/planner.ts";
import type { LoadPlanInput, ReasonCode } from "../../engine/loadplan/types.ts";
import { planner, planViolations } from "./fixture.ts";

let lp: LoadPlanner;
beforeAll(async () => {
  lp = await planner();
});

/** A small budget: these loads are easy, and tests stay fast. */
const WORK = 300_000;
const pallet = { length: 1200, width: 800, height: 1400, weight: 600, orientations: "this_side_up" as const };

function run(input: LoadPlanInput) {
  const plan = lp.plan({ workBudget: WORK, ...input });
  expect(planViolations(input, plan)).toEqual([]);
  return plan;
}

describe("loads", () => {
  const cases: Array<{
    name: string;
    input: LoadPlanInput;
    units: EquipmentCode[];
    placed: number;
    unplaced: Array<[number, number, ReasonCode]>;
  }> = [
    {
      name: "11 euro pallets, one high, fill a 20' floor",
      input: {
        dimensionUnit: "mm",
        items: [{ ...pallet, quantity: 11, stackable: false }],
        equipment: ["20GP"],
      },
      units: ["20GP"],
      placed: 11,
      unplaced: [],
    },
    {
      name: "12 non-stackable pallets: the 12th needs a second box",
      input: {
        dimensionUnit: "mm",
        items: [{ ...pallet, quantity: 12, stackable: false }],
        equipment: ["20GP"],
      },
      units: ["20GP", "20GP"],
      placed: 12,
      unplaced: [],
    },
    {
      name: "stacked two high they fit one 20'",
      input: {
        dimensionUnit: "mm",
        items: [{ ...pallet, height: 1100, quantity: 12 }],
        equipment: ["20GP"],
      },
      units: ["20GP"],
      placed: 12,
      unplaced: [],
    },
    {
      name: "max load on top 0: nothing stacked, the 12th does not fit",
      input: {
        dimensionUnit: "mm",
        items: [{ ...pallet, height: 1100, quantity: 12, maxLoadOnTop: 0 }],
        equipment: [{ type: "20GP", maxCount: 1 }],
      },
      units: ["20GP"],
      placed: 11,
      unplaced: [[0, 1, "no_space"]],
    },
    {
      name: "too tall to stand in a 20' door, this side up",
      input: {
        dimensionUnit: "mm",
        items: [
          { length: 1000, width: 1000, height: 2300, weight: 100, quantity: 1, orientations: "this_side_up" },
        ],
        equipment: ["20GP"],
      },
      units: [],
      placed: 0,
      unplaced: [[0, 1, "too_big_for_any_unit"]],
    },
    {
      name: "the same through a 40' high cube door",
      input: {
        dimensionUnit: "mm",
        items: [
          { length: 1000, width: 1000, height: 2300, weight: 100, quantity: 1, orientations: "this_side_up" },
        ],
        equipment: ["20GP", "40HC"],
      },
      units: ["40HC"],
      placed: 1,
      unplaced: [],
    },
    {
      name: "laid down it passes the 20' door",
      input: {
        dimensionUnit: "mm",
        items: [{ length: 1000, width: 1000, height: 2300, weight: 100, quantity: 1 }],
        equipment: ["20GP"],
      },
      units: ["20GP"],
      placed: 1,
      unplaced: [],
    },
    {
      name: "payload: 30 t of steel needs two 20' boxes",
      input: {
        dimensionUnit: "mm",
        items: [{ length: 1000, width: 1000, height: 500, weight: 1500, quantity: 20 }],
        equipment: ["20GP"],
      },
      units: ["20GP", "20GP"],
      placed: 20,
      unplaced: [],
    },
    {
      name: "payload with one box allowed",
      input: {
        dimensionUnit: "mm",
        items: [{ length: 1000, width: 1000, height: 500, weight: 1500, quantity: 20 }],
        equipment: ["20GP"],
        maxUnits: 1,
      },
      units: ["20GP"],
      placed: 18,
      unplaced: [[0, 2, "payload"]],
    },
    {
      name: "heavier than any payload",
      input: {
        dimensionUnit: "mm",
        items: [{ length: 1000, width: 1000, height: 500, weight: 30_000, quantity: 1 }],
        equipment: ["20GP", "40HC"],
      },
      units: [],
      placed: 0,
      unplaced: [[0, 1, "too_heavy_for_any_unit"]],
    },
    {
      name: "fewest units: one 40' rather than two 20'",
      input: {
        dimensionUnit: "mm",
        items: [{ ...pallet, quantity: 20, stackable: false }],
        equipment: ["20GP", "40GP"],
      },
      units: ["40GP"],
      placed: 20,
      unplaced: [],
    },
    {
      name: "cheapest: two 20' when a 40' costs more than both",
      input: {
        dimensionUnit: "mm",
        items: [{ ...pallet, quantity: 20, stackable: false }],
        equipment: [
          { type: "20GP", cost: 1000 },
          { type: "40GP", cost: 2500 },
        ],
        objective: "cheapest",
      },
      units: ["20GP", "20GP"],
      placed: 20,
      unplaced: [],
    },
    {
      name: "a 13.6 m trailer takes 33 euro pallets on the floor",
      input: {
        dimensionUnit: "mm",
        items: [{ ...pallet, quantity: 33, stackable: false, weight: 700 }],
        equipment: ["TRAILER_13_6"],
      },
      units: ["TRAILER_13_6"],
      placed: 33,
      unplaced: [],
    },
  ];
  test.each(cases)("$name", ({ input, units, placed, unplaced }) => {
    const plan = run(input);
    expect(plan.units.map((u) => u.equipment)).toEqual(units);
    expect(plan.units.reduce((s, u) => s + u.placements.length, 0)).toBe(placed);
    expect(plan.unplaced.map((x): [number, number, ReasonCode] => [x.item, x.quantity, x.reason])).toEqual(
      unplaced,
    );
  });
});

test("a plan reports utilisation, weight, centre of gravity and load order", () => {
  const input: LoadPlanInput = {
    dimensionUnit: "mm",
    items: [{ id: "P", ...pallet, quantity: 10, stackable: false }],
    equipment: ["20GP"],
  };
  const plan = run(input);
  const u = plan.units[0]!;
  expect(u.weightKg).toBe(6000);
  expect(u.weightUtilisation).toBeCloseTo(6000 / EQUIPMENT["20GP"].payloadKg, 12);
  expect(u.loadedVolumeM3).toBeCloseTo(10 * 1.2 * 0.8 * 1.4, 9);
  expect(u.volumeUtilisation).toBeCloseTo((10 * 1200 * 800 * 1400) / (5898 * 2352 * 2393), 12);
  expect(u.placements.map((p) => p.loadOrder)).toEqual([...Array(10).keys()]);
  expect(u.placements.every((p) => p.itemId === "P" && p.orientation.endsWith("z"))).toBe(true);
  // Loaded from the front: the sequence never steps back more than one wall's depth.
  const walls = u.placements.map((p) => p.wall);
  expect(walls).toEqual([...walls].sort((a, b) => a - b));
  expect(Math.abs(u.cog.x - 5898 / 2)).toBeLessThanOrEqual(0.1 * 5898);
  expect(plan.totalCost).toBeNull();
});

test("cm input gives the plan of the same cargo in mm", () => {
  const mm = lp.plan({
    workBudget: WORK,
    dimensionUnit: "mm",
    items: [{ length: 600, width: 400, height: 300, weight: 12, quantity: 40 }],
    equipment: ["20GP"],
  });
  const cm = lp.plan({
    workBudget: WORK,
    dimensionUnit: "cm",
    items: [{ length: 60, width: 40, height: 30, weight: 12, quantity: 40 }],
    equipment: ["20GP"],
  });
  expect(cm).toEqual(mm);
  const lb = lp.plan({
    workBudget: WORK,
    dimensionUnit: "mm",
    weightUnit: "lb",
    items: [{ length: 600, width: 400, height: 300, weight: 100, quantity: 1 }],
    equipment: ["20GP"],
  });
  expect(lb.units[0]!.weightKg).toBeCloseTo(45.359237, 9);
});

describe("bad input: LoadPlanError invalid_request naming the field", () => {
  const ok = {
    dimensionUnit: "mm",
    items: [{ length: 1, width: 1, height: 1, weight: 1, quantity: 1 }],
    equipment: ["20GP"],
  };
  const cases: Array<[string, unknown, string]> = [
    ["not an object", 3, "$"],
    ["unknown unit", { ...ok, dimensionUnit: "ft" }, "dimensionUnit"],
    ["no items", { ...ok, items: [] }, "items"],
    ["zero width", { ...ok, items: [{ ...ok.items[0], width: 0 }] }, "items[0].width"],
    ["negative weight", { ...ok, items: [{ ...ok.items[0], weight: -1 }] }, "items[0].weight"],
    ["fractional quantity", { ...ok, items: [{ ...ok.items[0], quantity: 1.5 }] }, "items[0].quantity"],
    [
      "unknown orientation",
      { ...ok, items: [{ ...ok.items[0], orientations: ["abc"] }] },
      "items[0].orientations[0]",
    ],
    [
      "duplicate orientation",
      { ...ok, items: [{ ...ok.items[0], orientations: ["xyz", "xyz"] }] },
      "items[0].orientations[1]",
    ],
    [
      "stackable not a boolean",
      { ...ok, items: [{ ...ok.items[0], stackable: "no" }] },
      "items[0].stackable",
    ],
    ["unknown equipment", { ...ok, equipment: ["53HC"] }, "equipment[0]"],
    ["equipment twice", { ...ok, equipment: ["20GP", { type: "20GP" }] }, "equipment[1]"],
    ["cheapest without a cost", { ...ok, objective: "cheapest" }, "equipment[0].cost"],
    ["cog bound over a half", { ...ok, cog: { longitudinal: 0.6, lateral: 0.1 } }, "cog"],
    ["too many pieces", { ...ok, items: [{ ...ok.items[0], quantity: 5001 }] }, "items"],
  ];
  test.each(cases)("%s", (_name, input, field) => {
    let err: unknown;
    try {
      lp.plan(input);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(LoadPlanError);
    expect((err as LoadPlanError).code).toBe("invalid_request");
    expect((err as LoadPlanError).field).toBe(field);
  });
});

test("the equipment catalogue: every door fits its box, every figure positive", () => {
  expect(Object.keys(EQUIPMENT).sort()).toEqual([...EQUIPMENT_CODES].sort());
  for (const e of Object.values(EQUIPMENT)) {
    expect(e.door.width).toBeLessThanOrEqual(e.inside.width);
    expect(e.door.height).toBeLessThanOrEqual(e.inside.height);
    expect(Math.min(e.inside.length, e.inside.width, e.inside.height, e.payloadKg)).toBeGreaterThan(0);
  }
  expect(EQUIPMENT["40HC"].inside.height - EQUIPMENT["40GP"].inside.height).toBe(305);
  expect(EQUIPMENT["20RF"].reefer && EQUIPMENT["40RH"].reefer && !EQUIPMENT["40HC"].reefer).toBe(true);
});
