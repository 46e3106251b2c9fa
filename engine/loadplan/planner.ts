/**
 * The load planner: validates a LoadPlanInput, runs the packing engine in router.wasm (Rust:
 * router-wasm/src/packing) and returns typed results in mm and kg. docs/loadplan.md.
 */

import { buildDirFrom } from "../../common/build-dir.ts";
import { ORIENTATIONS, WasmPacker } from "../../router-wasm/binding/loadplan.ts";
import { readArtifact } from "../artifacts.ts";
import { LoadPlanError } from "./errors.ts";
import type { LoadPlanResult } from "./types.ts";
import { prepare } from "./validate.ts";

/** packing/mod.rs DEFAULT_WORK: about 1 s per unit type tried and unit (docs/loadplan.md). */
export const DEFAULT_WORK_BUDGET = 40_000_000;

export class LoadPlanner {
  private constructor(private readonly packer: WasmPacker) {}

  static async fromBytes(wasm: BufferSource | WebAssembly.Module): Promise<LoadPlanner> {
    return new LoadPlanner(await WasmPacker.instantiate(wasm));
  }

  /** Loads router.wasm from a build directory (default data/build or PORTOLAN_BUILD_DIR). */
  static async fromBuildDir(dir: string = buildDirFrom()): Promise<LoadPlanner> {
    const { bytes } = await readArtifact(dir, "router.wasm");
    return LoadPlanner.fromBytes(bytes);
  }

  /** Plans `input` (unchecked JSON is fine); throws LoadPlanError. Same input, same plan. */
  plan(input: unknown): LoadPlanResult {
    const p = prepare(input, DEFAULT_WORK_BUDGET);
    let raw: ReturnType<WasmPacker["plan"]>;
    try {
      raw = this.packer.plan(p.raw);
    } catch (e) {
      throw new LoadPlanError(
        "engine_failure",
        `packing engine refused the problem: ${(e as Error).message}`,
      );
    }
    const ids = p.input.items.map((it) => it.id ?? null);
    const units = raw.units.map((u) => {
      const eq = p.equipment[u.unitType]!;
      return {
        equipment: eq.code,
        placements: u.placements.map((x) => ({
          item: x.item,
          itemId: ids[x.item] ?? null,
          position: { x: x.x, y: x.y, z: x.z },
          size: { length: x.length, width: x.width, height: x.height },
          orientation: ORIENTATIONS[x.orientation]!,
          loadOrder: x.loadOrder,
          wall: x.wall,
        })),
        volumeUtilisation: u.volumeUtilisation,
        weightUtilisation: u.weightUtilisation,
        loadedVolumeM3: u.volume / 1e9,
        weightKg: u.weight,
        cog: { x: u.cog[0], y: u.cog[1], z: u.cog[2] },
        cost: eq.cost,
      };
    });
    const costs = units.map((u) => u.cost);
    return {
      units,
      unplaced: raw.unplaced.map((x) => ({ ...x, itemId: ids[x.item] ?? null })),
      objective: p.objective,
      totalCost: costs.every((c) => c !== null) ? costs.reduce((a: number, c) => a + c!, 0) : null,
      cogBounds: p.cog,
      work: raw.work,
    };
  }
}
