/**
 * road.graph records what it bakes in (its edges carry car speed: truck speed x the truck time
 * factor) and the road planner, which applies the factor again at query time, refuses a graph
 * built with another factor or without the record, naming the setting and the rebuild.
 */
import { expect, test } from "bun:test";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildDirFrom } from "../../common/build-dir.ts";
import { encodeGraph } from "../../data-build/graph/encode.ts";
import { buildRoadGraph } from "../../data-build/road/graph.ts";
import { RoadPlanner } from "../../engine/road/planner.ts";
import { TRUCK_TIME_FACTOR } from "../../engine/road/truck.ts";
import { roadLinker, roadNode, routerWasm } from "../support/tiny-road.ts";

const NODES = [roadNode("A", 0, 0), roadNode("B", 0, 1)];
const { spec } = buildRoadGraph({ nodes: NODES, links: [roadLinker(NODES)("A", "B", "road", 120_000)] });

/** The tiny graph's bytes with `settings` as recorded (undefined: none recorded). */
const graphWith = (settings: Record<string, number> | undefined) =>
  encodeGraph({ ...spec, settings }, "test-build");

test("a road graph records the truck time factor the planner applies", async () => {
  expect(spec.settings).toEqual({ truck_time_factor: TRUCK_TIME_FACTOR });
  const planner = RoadPlanner.fromBytes(await routerWasm(), graphWith(spec.settings), {
    path: "tiny road.graph",
  });
  expect(planner.plan({ from: { lat: 0, lng: 0 }, to: { lat: 0, lng: 1 } }).route.distance_m).toBeCloseTo(
    120_000,
    0,
  );
});

test.each([
  ["another factor", { truck_time_factor: 1 }, "truck_time_factor 1, this engine applies 1.2"],
  ["no record", undefined, "truck_time_factor not recorded, this engine applies 1.2"],
])("a road graph with %s is refused", async (_, settings, said) => {
  const wasm = await routerWasm();
  expect(() => RoadPlanner.fromBytes(wasm, graphWith(settings), { path: "old road.graph" })).toThrow(
    `old road.graph was built with other settings (${said}): run \`npm run build\``,
  );
  // The refused graph is not left loaded: the same instance takes a good one.
  expect(RoadPlanner.fromBytes(wasm, graphWith(spec.settings)).buildId).toBe("test-build");
});

test("a build directory whose road.graph has another factor does not load", async () => {
  const dir = mkdtempSync(join(tmpdir(), "baked-road-"));
  try {
    writeFileSync(join(dir, "road.graph"), graphWith({ truck_time_factor: 1.5 }));
    copyFileSync(join(buildDirFrom(), "router.wasm"), join(dir, "router.wasm"));
    await expect(RoadPlanner.load(dir)).rejects.toThrow(
      `${join(dir, "road.graph")} was built with other settings (truck_time_factor 1.5, this engine applies 1.2)`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
