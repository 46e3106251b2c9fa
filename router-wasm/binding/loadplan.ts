/**
 * Hand-written binding for the load planner in router.wasm (router-wasm/src/packing/ffi.rs).
 * Web-standard APIs only, like router.ts. One WasmPacker = one WebAssembly instance; a plan call
 * runs to completion synchronously (its length is bounded by the work budget, not the clock).
 */

/** Orientation names in bitmask order (packing/mod.rs ORIENTATIONS): which of the item's own
 * dimensions (x = length, y = width, z = height as given) lies along the unit's length, width,
 * height. "xyz" and "yxz" keep the height vertical ("this side up"). */
export const ORIENTATIONS = ["xyz", "yxz", "zyx", "xzy", "zxy", "yzx"] as const;
export type OrientationName = (typeof ORIENTATIONS)[number];
export const THIS_SIDE_UP_MASK = 0b11;
export const ALL_ORIENTATIONS_MASK = 0b111111;

/** Reason codes of unplaced items (packing/mod.rs Reason), by code. */
export const REASONS = [
  "",
  "too_big_for_any_unit",
  "too_heavy_for_any_unit",
  "payload",
  "no_space",
  "cog",
  "unit_limit",
] as const;
export type ReasonCode = Exclude<(typeof REASONS)[number], "">;

/** One item type, in the caller's integer length unit and kg. */
export interface RawItem {
  length: number;
  width: number;
  height: number;
  quantity: number;
  /** Bitmask over ORIENTATIONS. */
  orientations: number;
  weight: number;
  stackable: boolean;
  /** kg on the item's top in total; Infinity = no limit. */
  maxLoadOnTop: number;
  /** Higher first when not everything fits. */
  priority: number;
}

export interface RawUnitType {
  length: number;
  width: number;
  height: number;
  /** Door opening (0 = no limit): a box's placed width and height must pass it. */
  doorWidth: number;
  doorHeight: number;
  /** kg; Infinity = no limit. */
  payload: number;
  cost: number;
  /** Units available (0 = unlimited). */
  maxCount: number;
}

export interface RawParams {
  objective: "fewest_units" | "cheapest";
  /** Work units per unit packed (packing/mod.rs DEFAULT_WORK); 0 = one greedy pass. */
  workBudget: number;
  /** CoG at most this fraction of the inside length/width from the middle; Infinity = unchecked. */
  cogLongitudinal: number;
  cogLateral: number;
  /** Most units (0 = no cap). */
  maxUnits: number;
}

export interface RawProblem {
  items: RawItem[];
  units: RawUnitType[];
  params: RawParams;
}

export interface RawPlacement {
  item: number;
  /** Index into ORIENTATIONS. */
  orientation: number;
  x: number;
  y: number;
  z: number;
  /** Placed dimensions along the unit's length, width, height. */
  length: number;
  width: number;
  height: number;
  /** 0-based position in the unit's load sequence. */
  loadOrder: number;
  /** 0-based wall from the front. */
  wall: number;
}

export interface RawUnit {
  unitType: number;
  /** In load order. */
  placements: RawPlacement[];
  volume: number;
  weight: number;
  cog: [number, number, number];
  volumeUtilisation: number;
  weightUtilisation: number;
}

export interface RawUnplaced {
  item: number;
  quantity: number;
  reason: ReasonCode;
}

export interface RawPlan {
  units: RawUnit[];
  unplaced: RawUnplaced[];
  /** Work units spent. */
  work: number;
}

/** ffi.rs `input` and `output` layouts. */
const IN = { version: 1, head: 8, item: 9, unit: 8 } as const;
const OUT = { head: 4, unit: 9, placement: 9, unplaced: 3 } as const;

interface Exports {
  memory: WebAssembly.Memory;
  lp_input(len: number): number;
  lp_plan(len: number): number;
  lp_baseline(len: number): number;
  lp_result_ptr(): number;
  lp_result_len(): number;
  lp_error_ptr(): number;
  lp_error_len(): number;
}

export class WasmPacker {
  private constructor(private readonly x: Exports) {}

  static async instantiate(wasm: BufferSource | WebAssembly.Module): Promise<WasmPacker> {
    const module = wasm instanceof WebAssembly.Module ? wasm : await WebAssembly.compile(wasm);
    const instance = await WebAssembly.instantiate(module, {});
    return new WasmPacker(instance.exports as unknown as Exports);
  }

  /** Plans `p`; throws the engine's message on a malformed problem. */
  plan(p: RawProblem): RawPlan {
    return this.call(p, (len) => this.x.lp_plan(len));
  }

  /** The first-fit baseline (one unit of the first type, no weight rules): the bench's yardstick. */
  baseline(p: RawProblem): RawPlan {
    return this.call(p, (len) => this.x.lp_baseline(len));
  }

  private call(p: RawProblem, run: (len: number) => number): RawPlan {
    const len = IN.head + p.items.length * IN.item + p.units.length * IN.unit;
    // lp_input may grow the memory: take the view after it.
    const ptr = this.x.lp_input(len);
    const buf = new Float64Array(this.x.memory.buffer, ptr, len);
    const q = p.params;
    buf.set([
      IN.version,
      p.items.length,
      p.units.length,
      q.objective === "cheapest" ? 1 : 0,
      q.workBudget,
      q.cogLongitudinal,
      q.cogLateral,
      q.maxUnits,
    ]);
    let at = IN.head;
    for (const i of p.items) {
      buf.set(
        [
          i.length,
          i.width,
          i.height,
          i.quantity,
          i.orientations,
          i.weight,
          i.stackable ? 1 : 0,
          i.maxLoadOnTop,
          i.priority,
        ],
        at,
      );
      at += IN.item;
    }
    for (const u of p.units) {
      buf.set([u.length, u.width, u.height, u.doorWidth, u.doorHeight, u.payload, u.cost, u.maxCount], at);
      at += IN.unit;
    }
    if (run(len) !== 0) {
      const msgAt = this.x.lp_error_ptr();
      const msg = new Uint8Array(this.x.memory.buffer, msgAt, this.x.lp_error_len());
      throw new Error(new TextDecoder().decode(msg));
    }
    // Copy out: the next call reuses the result buffer.
    const resultAt = this.x.lp_result_ptr();
    const r = new Float64Array(this.x.memory.buffer, resultAt, this.x.lp_result_len()).slice();
    return decodePlan(r);
  }
}

function decodePlan(r: Float64Array): RawPlan {
  const [unitCount, , unplacedCount, work] = [r[0]!, r[1]!, r[2]!, r[3]!];
  let at = OUT.head;
  const heads: Array<{ unit: RawUnit; count: number }> = [];
  for (let u = 0; u < unitCount; u++, at += OUT.unit) {
    heads.push({
      count: r[at + 1]!,
      unit: {
        unitType: r[at]!,
        placements: [],
        volume: r[at + 2]!,
        weight: r[at + 3]!,
        cog: [r[at + 4]!, r[at + 5]!, r[at + 6]!],
        volumeUtilisation: r[at + 7]!,
        weightUtilisation: r[at + 8]!,
      },
    });
  }
  for (const { unit, count } of heads) {
    for (let k = 0; k < count; k++, at += OUT.placement) {
      unit.placements.push({
        item: r[at]!,
        orientation: r[at + 1]!,
        x: r[at + 2]!,
        y: r[at + 3]!,
        z: r[at + 4]!,
        length: r[at + 5]!,
        width: r[at + 6]!,
        height: r[at + 7]!,
        loadOrder: k,
        wall: r[at + 8]!,
      });
    }
  }
  const unplaced: RawUnplaced[] = [];
  for (let k = 0; k < unplacedCount; k++, at += OUT.unplaced) {
    unplaced.push({ item: r[at]!, quantity: r[at + 1]!, reason: REASONS[r[at + 2]!] as ReasonCode });
  }
  return { units: heads.map((h) => h.unit), unplaced, work };
}
