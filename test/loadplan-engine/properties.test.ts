/**
 * fast-check over random cargo through the real router.wasm: every returned plan satisfies every
 * physical rule (checked by check.ts, not by the engine), accounts for every piece, and the same
 * input gives the same plan.
 */
import { beforeAll, expect, test } from "bun:test";
import fc from "fast-check";
import { EQUIPMENT_CODES } from "../../engine/loadplan/equipment.ts";
import type { LoadPlanner } from "../../engine/loadplan/planner.ts";
import type { CargoItem, LoadPlanInput } from "../../engine/loadplan/types.ts";
import { ORIENTATIONS, type RawProblem, REASONS, WasmPacker } from "../../router-wasm/binding/loadplan.ts";
import { generate, rawProblem } from "../support/bischoff-ratcliff.ts";
import { unitViolations } from "./check.ts";
import { planner, planViolations, routerWasm } from "./fixture.ts";

let lp: LoadPlanner;
let packer: WasmPacker;
beforeAll(async () => {
  lp = await planner();
  packer = await WasmPacker.instantiate(routerWasm());
});

const orientations = fc.oneof(
  fc.constant<CargoItem["orientations"]>("any"),
  fc.constant<CargoItem["orientations"]>("this_side_up"),
  fc.subarray([...ORIENTATIONS], { minLength: 1 }),
);

const cargoItem: fc.Arbitrary<CargoItem> = fc.record({
  length: fc.integer({ min: 150, max: 2600 }),
  width: fc.integer({ min: 150, max: 2400 }),
  height: fc.integer({ min: 100, max: 2600 }),
  quantity: fc.integer({ min: 1, max: 14 }),
  weight: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 2500 })),
  orientations,
  stackable: fc.boolean(),
  maxLoadOnTop: fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 4000 })),
  priority: fc.integer({ min: 0, max: 2 }),
});

const loadPlanInput: fc.Arbitrary<LoadPlanInput> = fc.record({
  dimensionUnit: fc.constant("mm" as const),
  items: fc.array(cargoItem, { minLength: 1, maxLength: 5 }),
  equipment: fc
    .subarray([...EQUIPMENT_CODES], { minLength: 1, maxLength: 3 })
    .chain((codes) =>
      fc.tuple(
        ...codes.map((type) =>
          fc.record({ type: fc.constant(type), cost: fc.integer({ min: 0, max: 5000 }) }),
        ),
      ),
    ),
  objective: fc.constantFrom("fewest_units" as const, "cheapest" as const),
  cog: fc.record({
    longitudinal: fc.double({ min: 0.01, max: 0.5, noNaN: true }),
    lateral: fc.double({ min: 0.01, max: 0.5, noNaN: true }),
  }),
  maxUnits: fc.integer({ min: 1, max: 4 }),
  workBudget: fc.integer({ min: 0, max: 60_000 }),
});

test("fast-check: random cargo in real equipment keeps every rule, same input same plan", () => {
  fc.assert(
    fc.property(loadPlanInput, (input) => {
      const plan = lp.plan(input);
      expect(planViolations(input, plan)).toEqual([]);
      expect(plan.unplaced.every((x) => REASONS.includes(x.reason) && x.quantity > 0)).toBe(true);
      expect(plan.units.length).toBeLessThanOrEqual(input.maxUnits!);
      expect(lp.plan(structuredClone(input))).toEqual(plan);
    }),
    { numRuns: 60 },
  );
});

/** Small integer boxes in a small unit: dense stacks, boxes on several boxes, shared loads. */
const denseProblem: fc.Arbitrary<RawProblem> = fc.record({
  items: fc.array(
    fc.record({
      length: fc.integer({ min: 1, max: 6 }),
      width: fc.integer({ min: 1, max: 6 }),
      height: fc.integer({ min: 1, max: 5 }),
      quantity: fc.integer({ min: 1, max: 12 }),
      orientations: fc.integer({ min: 1, max: 63 }),
      weight: fc.integer({ min: 0, max: 30 }),
      stackable: fc.boolean(),
      maxLoadOnTop: fc.oneof(fc.constant(Number.POSITIVE_INFINITY), fc.integer({ min: 0, max: 60 })),
      priority: fc.constant(0),
    }),
    { minLength: 1, maxLength: 6 },
  ),
  units: fc.tuple(
    fc.record({
      length: fc.integer({ min: 6, max: 14 }),
      width: fc.integer({ min: 4, max: 9 }),
      height: fc.integer({ min: 4, max: 9 }),
      doorWidth: fc.constant(0),
      doorHeight: fc.constant(0),
      payload: fc.oneof(fc.constant(Number.POSITIVE_INFINITY), fc.integer({ min: 10, max: 400 })),
      cost: fc.constant(1),
      maxCount: fc.constant(1),
    }),
  ),
  params: fc.record({
    objective: fc.constant("fewest_units" as const),
    workBudget: fc.integer({ min: 0, max: 50_000 }),
    cogLongitudinal: fc.oneof(
      fc.constant(Number.POSITIVE_INFINITY),
      fc.double({ min: 0.05, max: 0.5, noNaN: true }),
    ),
    cogLateral: fc.oneof(
      fc.constant(Number.POSITIVE_INFINITY),
      fc.double({ min: 0.05, max: 0.5, noNaN: true }),
    ),
    maxUnits: fc.constant(1),
  }),
});

test("fast-check: dense small loads keep every rule, same input same plan", () => {
  fc.assert(
    fc.property(denseProblem, (p) => {
      const plan = packer.plan(p);
      const u = p.units[0]!;
      const cog = { longitudinal: p.params.cogLongitudinal, lateral: p.params.cogLateral };
      for (const unit of plan.units) expect(unitViolations(p.items, u, unit.placements, cog)).toEqual([]);
      p.items.forEach((it, i) => {
        const placed = plan.units.reduce((s, x) => s + x.placements.filter((b) => b.item === i).length, 0);
        const left = plan.unplaced.filter((x) => x.item === i).reduce((s, x) => s + x.quantity, 0);
        expect(placed + left).toBe(it.quantity);
      });
      expect(packer.plan(p)).toEqual(plan);
    }),
    { numRuns: 300 },
  );
});

test("fast-check: strongly heterogeneous Bischoff-Ratcliff cargo (20-100 types) keeps every rule, same input same plan", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 20, max: 100 }),
      fc.integer({ min: 1, max: 2 ** 31 - 2 }),
      fc.integer({ min: 0, max: 400_000 }),
      (types, seed, work) => {
        const p = rawProblem(generate(types, seed), work);
        const plan = packer.plan(p);
        const u = p.units[0]!;
        const cog = { longitudinal: 1, lateral: 1 };
        for (const unit of plan.units) expect(unitViolations(p.items, u, unit.placements, cog)).toEqual([]);
        p.items.forEach((it, i) => {
          const placed = plan.units.reduce((s, x) => s + x.placements.filter((b) => b.item === i).length, 0);
          const left = plan.unplaced.filter((x) => x.item === i).reduce((s, x) => s + x.quantity, 0);
          expect(placed + left).toBe(it.quantity);
        });
        expect(packer.plan(p)).toEqual(plan);
      },
    ),
    { numRuns: 25 },
  );
});
