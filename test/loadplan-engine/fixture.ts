/** The real router.wasm from the build directory, and plans run through the independent checker. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildDirFrom } from "../../common/build-dir.ts";
import { EQUIPMENT } from "../../engine/loadplan/equipment.ts";
import { LoadPlanner } from "../../engine/loadplan/planner.ts";
import type { LoadPlanInput, LoadPlanResult } from "../../engine/loadplan/types.ts";
import {
  ALL_ORIENTATIONS_MASK,
  ORIENTATIONS,
  THIS_SIDE_UP_MASK,
} from "../../router-wasm/binding/loadplan.ts";
import { type CheckItem, unitViolations } from "./check.ts";

export const routerWasm = () => readFileSync(join(buildDirFrom(), "router.wasm"));
export const planner = () => LoadPlanner.fromBytes(routerWasm());

/** Items of an input in mm (the tests give mm) as the checker reads them. */
function checkItems(input: LoadPlanInput): CheckItem[] {
  return input.items.map((it) => ({
    length: it.length,
    width: it.width,
    height: it.height,
    orientations:
      it.orientations === undefined || it.orientations === "any"
        ? ALL_ORIENTATIONS_MASK
        : it.orientations === "this_side_up"
          ? THIS_SIDE_UP_MASK
          : it.orientations.reduce((m, n) => m | (1 << ORIENTATIONS.indexOf(n)), 0),
    weight: it.weight,
    stackable: it.stackable !== false,
    maxLoadOnTop: it.maxLoadOnTop ?? Number.POSITIVE_INFINITY,
  }));
}

/** Every rule broken by `plan` for `input` (mm and kg input), plus pieces not accounted for. */
export function planViolations(input: LoadPlanInput, plan: LoadPlanResult): string[] {
  const items = checkItems(input);
  const out = plan.units.flatMap((u, k) => {
    const e = EQUIPMENT[u.equipment];
    const unit = {
      length: e.inside.length,
      width: e.inside.width,
      height: e.inside.height,
      doorWidth: e.door.width,
      doorHeight: e.door.height,
      payload: e.payloadKg,
    };
    const boxes = u.placements.map((p) => ({
      item: p.item,
      ...p.position,
      ...p.size,
      loadOrder: p.loadOrder,
    }));
    return unitViolations(items, unit, boxes, plan.cogBounds).map((v) => `unit ${k} (${u.equipment}): ${v}`);
  });
  input.items.forEach((it, i) => {
    const placed = plan.units.reduce((s, u) => s + u.placements.filter((p) => p.item === i).length, 0);
    const left = plan.unplaced.filter((x) => x.item === i).reduce((s, x) => s + x.quantity, 0);
    if (placed + left !== it.quantity)
      out.push(`item ${i}: ${placed} placed + ${left} unplaced of ${it.quantity}`);
  });
  return out;
}
