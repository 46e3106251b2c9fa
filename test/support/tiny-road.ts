/**
 * Tiny hand-made road networks through the real pipeline: RoadNode/RoadLink table ->
 * buildRoadGraph -> encodeGraph -> the real router.wasm -> RoadPlanner. The road planner's own
 * tables use it, and so do the rail and air chains for their access legs.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildDirFrom } from "../../common/build-dir.ts";
import { haversineM } from "../../common/geo.ts";
import { encodeGraph } from "../../data-build/graph/encode.ts";
import { buildRoadGraph, type RoadGraphStats } from "../../data-build/road/graph.ts";
import type { RoadLink, RoadNode } from "../../data-build/road/network.ts";
import { RoadPlanner } from "../../engine/road/planner.ts";
import type { LinkKind } from "../../formats/road-graph.ts";
import { WasmRouter } from "../../router-wasm/binding/router.ts";

/** Truck speed on tiny road links: 75 km/h truck = 90 km/h car (the graph stores car speed). */
export const TRUCK_KMH = 75;

export const roadNode = (name: string, lat: number, lng: number): RoadNode => ({
  name,
  lat,
  lng,
  kind: "city",
  country: "XA",
  population: 0,
});

/** A link maker over a node table: links name their ends; lengths are given, not derived. */
export function roadLinker(nodes: readonly RoadNode[]) {
  const ix = (name: string) => {
    const i = nodes.findIndex((n) => n.name === name);
    if (i < 0) throw new Error(`tiny road map: no node ${name}`);
    return i;
  };
  return (a: string, b: string, kind: LinkKind, lengthM: number, opts: Partial<RoadLink> = {}): RoadLink => {
    const [na, nb] = [nodes[ix(a)]!, nodes[ix(b)]!];
    const gcM = haversineM(na.lat, na.lng, nb.lat, nb.lng);
    return {
      a: ix(a),
      b: ix(b),
      kind,
      gcM,
      factor: lengthM / gcM,
      lengthM,
      country: "XA",
      countryB: "XA",
      speedKmh: TRUCK_KMH,
      crossingHours: null,
      carriesTruck: true,
      name: "",
      ...opts,
    };
  };
}

/** A fresh instance of the built router.wasm (no graph loaded). */
export function routerWasm(): Promise<WasmRouter> {
  return WasmRouter.instantiate(readFileSync(join(buildDirFrom(), "router.wasm")));
}

/** The road planner over a hand-made table, in `wasm` (a fresh instance when not given). */
export async function tinyRoadPlanner(
  nodes: readonly RoadNode[],
  links: readonly RoadLink[],
  wasm?: WasmRouter,
): Promise<{ planner: RoadPlanner; stats: RoadGraphStats }> {
  const { spec, stats } = buildRoadGraph({ nodes, links });
  const planner = RoadPlanner.fromBytes(wasm ?? (await routerWasm()), encodeGraph(spec, "test-build"), {
    path: "tiny road.graph",
  });
  return { planner, stats };
}
