/**
 * Rail graph stage: hand-made lines through the stage's own functions (end joining,
 * the North America duplicate rule, ferries, railhead snapping), then the built rail.graph through
 * the real WASM router.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { haversineM } from "../../common/geo.ts";
import { GRAPH_MODE } from "../../data-build/graph/encode.ts";
import { defaultDirs } from "../../data-build/pipeline.ts";
import {
  buildRailGraph,
  dropRepeatedDuplicates,
  NA_DUPLICATE_PART,
  type RailFeature,
  railComponents,
  railLines,
} from "../../data-build/rail/network.ts";
import { snapRailheads } from "../../data-build/rail/railheads.ts";
import { decodeRailheads } from "../../formats/railheads.ts";
import { STATUS, WasmRouter } from "../../router-wasm/binding/router.ts";

/** Metres north of a latitude, in degrees (1 degree of latitude ~ 111.195 km). */
const north = (m: number) => m / 111_195;

const line = (coords: Array<[number, number]>, props: Record<string, unknown> = {}): RailFeature => ({
  properties: { featurecla: "Railroad", part: "ne_global_not_north_america", continent: "Europe", ...props },
  geometry: { type: "LineString", coordinates: coords.map(([lat, lng]) => [lng, lat]) },
});

const graphOf = (features: RailFeature[]) => buildRailGraph(dropRepeatedDuplicates(railLines(features)).kept);

describe("rail network from features", () => {
  test("line ends 50 m apart join, 500 m apart do not", () => {
    const a = line([
      [45, 9],
      [45, 9.1],
    ]);
    const near = line([
      [45 + north(50), 9.1],
      [45.1, 9.2],
    ]);
    const far = line([
      [45 + north(500), 9.1],
      [45.1, 9.2],
    ]);
    const joined = graphOf([a, near]);
    expect(joined.nodes.length / 2).toBe(3);
    expect(railComponents(joined).components.length).toBe(1);
    const apart = graphOf([a, far]);
    expect(apart.nodes.length / 2).toBe(4);
    expect(railComponents(apart).components.length).toBe(2);
  });

  test("an end near another line's interior makes a junction; other vertices stay geometry", () => {
    const main = line([
      [45, 9],
      [45, 9.05],
      [45, 9.1],
      [45, 9.15],
    ]);
    const branch = line([
      [45 + north(30), 9.1],
      [45.2, 9.1],
    ]);
    const g = graphOf([main, branch]);
    expect(g.nodes.length / 2).toBe(4);
    expect(g.edges.length).toBe(3);
    // 9.05 stays an intermediate point of the first main-line edge.
    expect(g.edges.some((e) => e.inner?.[1] === 9.05)).toBe(true);
  });

  test("North America duplicate rows: a real repeat is dropped, sole coverage is kept", () => {
    const global = line([
      [41.8, -87.6],
      [41.5, -88.5],
      [41.2, -89.5],
    ]);
    const repeat = line(
      [
        [41.8, -87.6],
        [41.5, -88.5],
        [41.2, -89.5],
      ],
      { part: NA_DUPLICATE_PART, continent: "North America" },
    );
    const only = line(
      [
        [34, -118],
        [34.5, -117],
      ],
      { part: NA_DUPLICATE_PART, continent: "North America" },
    );
    const lines = railLines([global, repeat, only]);
    const { kept, dropped } = dropRepeatedDuplicates(lines);
    expect(dropped).toBe(1);
    expect(kept.length).toBe(2);
    expect(kept.filter((l) => l.naDuplicate).map((l) => l.coords[0])).toEqual([34]);
  });

  test("a railroad ferry becomes a sea-mode edge with a speed; rail edges carry none", () => {
    const land = line([
      [54.5, 11.2],
      [54.65, 11.35],
    ]);
    const ferry = line(
      [
        [54.65, 11.35],
        [54.6, 11.8],
        [54.57, 12.2],
      ],
      { featurecla: "Railroad ferry" },
    );
    const g = graphOf([land, ferry]);
    expect(g.edges.length).toBe(2);
    const [rail, sea] = g.edges;
    expect(rail!.mode).toBeUndefined();
    expect(rail!.speedKmh).toBeUndefined();
    expect(sea!.mode).toBe(GRAPH_MODE.sea);
    expect(sea!.speedKmh).toBeGreaterThan(0);
    expect(sea!.inner).toEqual([54.6, 11.8]);
  });

  // Track 48N 10-11E (one edge, midpoint 10.5E); a railroad ferry from its east end out to a
  // line at 47N 12E, by way of a point at sea; a ferry from its west end to a landing with no track.
  const snapMap = graphOf([
    line([
      [48, 10],
      [48, 10.5],
      [48, 11],
    ]),
    line(
      [
        [48, 11],
        [47.6, 11.4],
        [47, 12],
      ],
      { featurecla: "Railroad ferry" },
    ),
    line([
      [47, 12],
      [46.8, 12.2],
    ]),
    line(
      [
        [48, 10],
        [47.5, 9],
      ],
      { featurecla: "Railroad ferry" },
    ),
  ]);
  test.each([
    ["140 km north of the midpoint: onto the edge's interior", [48 + north(140_000), 10.5], [48, 10.5]],
    ["160 km north of the midpoint: beyond 150 km, left out", [48 + north(160_000), 10.5], null],
    ["on the ferry's point at sea: the nearest track point instead", [47.6, 11.4], [48, 11]],
    ["at the ferry-only landing: the nearest track point instead", [47.5, 9], [48, 10]],
  ] as const)("railhead snapping: %s", (_, [lat, lng], snap) => {
    const [r, ...more] = snapRailheads(
      [{ locode: "DEXXX", name: "X", country: "DE", lat, lng, geocoded: false }],
      snapMap,
    );
    expect(more).toEqual([]);
    if (!snap) return expect(r).toBeUndefined();
    expect([r!.snapLat, r!.snapLng]).toEqual([...snap]);
    expect(r!.snapKm).toBeCloseTo(haversineM(lat, lng, snap[0], snap[1]) / 1000, 3);
    // Routed from the snapped node itself, or from an end of the edge whose interior it is on.
    const at = (v: number) => [snapMap.nodes[2 * v], snapMap.nodes[2 * v + 1]];
    const edge = snapMap.edges.find((e) => e.inner?.[0] === snap[0] && e.inner[1] === snap[1]);
    if (edge) expect([edge.from, edge.to]).toContain(r!.node);
    else expect(at(r!.node)).toEqual([...snap]);
  });
});

const { outDir } = defaultDirs();
const built = existsSync(join(outDir, "rail.graph")) && existsSync(join(outDir, "router.wasm"));

describe.skipIf(!built)("built rail.graph through the WASM router", async () => {
  const router = await WasmRouter.instantiate(readFileSync(join(outDir, "router.wasm")));
  const path = join(outDir, "rail.graph");
  const g = router.load(new Uint8Array(readFileSync(path)), { kind: "rail-graph", path });
  const route = (a: [number, number], b: [number, number]) =>
    router.route(g.handle, a[0], a[1], b[0], b[1], 0, 0, false, { kind: "time", defaultSpeedKmh: 30 });
  const city = {
    rotterdam: [51.92, 4.48],
    milan: [45.46, 9.19],
    chicago: [41.88, -87.63],
    losAngeles: [34.05, -118.24],
  } as const satisfies Record<string, [number, number]>;

  test("loads as a rail graph of plausible size", () => {
    expect(g.names.mode).toBe("rail");
    expect(g.nodes).toBeGreaterThan(15_000);
    expect(g.nodes).toBeLessThan(100_000);
    expect(g.landmarks.count).toBeGreaterThan(0);
    const summary = JSON.parse(readFileSync(join(outDir, "rail.summary.json"), "utf8"));
    expect(summary.km).toBeGreaterThan(800_000);
    expect(summary.km).toBeLessThan(1_000_000);
    expect(summary.components).toBeLessThan(400);
    expect(summary.largest_components[0].regions.slice(0, 2).sort()).toEqual(["Asia", "Europe"]);
  });

  test("Rotterdam to Milan by rail", () => {
    const r = route(city.rotterdam, city.milan);
    expect(r.status).toBe(STATUS.found);
    expect(r.from.snapM).toBeLessThan(10_000);
    expect(r.to.snapM).toBeLessThan(10_000);
    // Great circle ~830 km; rail 900-1,400 km, at 30 km/h about 30-50 h.
    expect(r.metres / 1000).toBeGreaterThan(880);
    expect(r.metres / 1000).toBeLessThan(1_400);
    expect(r.cost / 3600).toBeGreaterThan(28);
    expect(r.cost / 3600).toBeLessThan(50);
  });

  test("Chicago to Los Angeles by rail", () => {
    const r = route(city.chicago, city.losAngeles);
    expect(r.status).toBe(STATUS.found);
    expect(r.from.snapM).toBeLessThan(10_000);
    expect(r.to.snapM).toBeLessThan(10_000);
    // Great circle ~2,800 km; BNSF's Transcon is ~3,600 km.
    expect(r.metres / 1000).toBeGreaterThan(2_900);
    expect(r.metres / 1000).toBeLessThan(4_500);
  });

  test("no rail between Europe and North America", () => {
    expect(route(city.rotterdam, city.chicago).status).toBe(STATUS.noRoute);
    expect(route(city.losAngeles, city.milan).status).toBe(STATUS.noRoute);
  });

  test("railheads artifact: rail terminals snapped within 150 km", () => {
    const { railheads, buildId } = decodeRailheads(
      new Uint8Array(readFileSync(join(outDir, "railheads.bin"))),
    );
    expect(buildId).toBe(g.buildId);
    expect(railheads.length).toBeGreaterThan(5_000);
    expect(railheads.every((r) => r.snapKm <= 150 && r.node >= 0 && r.node < g.nodes)).toBe(true);
    const duisburg = railheads.find((r) => r.locode === "DEDUI");
    expect(duisburg?.snapKm).toBeLessThan(5);
  });
});
