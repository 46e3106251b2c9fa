/**
 * The road-network stage: a tiny hand-made world through the stage's own functions (water, ferries,
 * truck flags, the Darien rule, calibration arithmetic), then the figures of the real built artifact.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { haversineM } from "../../common/geo.ts";
import { UnionFind } from "../../common/union-find.ts";
import { defaultDirs } from "../../data-build/pipeline.ts";
import {
  decodeRoadNetwork,
  encodeRoadNetwork,
  ROAD_NETWORK_OUTPUT,
  ROAD_SUMMARY_OUTPUT,
} from "../../data-build/road/encode.ts";
import { fixedLinks } from "../../data-build/road/fixed-links.ts";
import { parseFerries, parseRoadModel } from "../../data-build/road/inputs.ts";
import {
  DEFAULT_SEGMENT_RULES,
  polygonsTopology,
  segmentOnLand,
  WaterMask,
} from "../../data-build/road/mask.ts";
import {
  adjacency,
  applyFactors,
  buildRoadNetwork,
  DEFAULT_OPTIONS,
  dijkstra,
  type FerryRow,
  type NetworkOptions,
  perEdgeFactor,
  type RoadLink,
  type RoadModel,
  type RoadNode,
} from "../../data-build/road/network.ts";
import { probeNode } from "../../data-build/road/summary.ts";

// --- the tiny world ---------------------------------------------------------------------------
type Box = [number, number, number, number]; // lng0, lat0, lng1, lat1
const LANDS: Record<string, Box> = {
  XA: [0, 0, 1, 1], // mainland with a lake
  XB: [1.3, 0, 2, 1], // across a 33 km strait, with a truck ferry
  XC: [0, 1.3, 1, 2], // across a strait whose ferry takes no trucks (a Taiwan)
  DARIEN: [3, 0, 5, 1], // one landmass, PA west of 4, CO east of it
  XE: [3, 2, 4, 3], // an island with no link at all
};
const LAKE: Box = [0.35, 0.35, 0.65, 0.65];
const rect = ([x0, y0, x1, y1]: Box) => ({
  geometry: {
    type: "Polygon" as const,
    coordinates: [
      [
        [x0, y0],
        [x1, y0],
        [x1, y1],
        [x0, y1],
        [x0, y0],
      ] as Array<[number, number]>,
    ],
  },
});
const inBox = ([x0, y0, x1, y1]: Box, lat: number, lng: number, pad = 0) =>
  lng > x0 - pad && lng < x1 + pad && lat > y0 - pad && lat < y1 + pad;
const mask = WaterMask.fromTopologies(
  polygonsTopology(Object.values(LANDS).map(rect)),
  polygonsTopology([rect(LAKE)]),
  0.01,
);

function worldNodes(): RoadNode[] {
  const nodes: RoadNode[] = [];
  for (const [land, box] of Object.entries(LANDS)) {
    for (let lng = box[0] + 0.05; lng < box[2]; lng += 0.15) {
      for (let lat = box[1] + 0.05; lat < box[3]; lat += 0.15) {
        if (inBox(LAKE, lat, lng, 0.02)) continue;
        const country = land === "DARIEN" ? (lng < 4 ? "PA" : "CO") : land;
        nodes.push({
          lat,
          lng,
          kind: "city",
          country,
          name: `${country} ${lat.toFixed(2)},${lng.toFixed(2)}`,
          population: 50_000,
        });
      }
    }
  }
  return nodes;
}
const landOf = (n: RoadNode) => (n.country === "PA" || n.country === "CO" ? "DARIEN" : n.country);

const FERRIES_CSV = [
  "name,from_name,from_lat,from_lng,from_unlocode,to_name,to_lat,to_lng,to_unlocode,mode,typical_crossing_hours,carries_truck,carries_rail,region,source,notes",
  "A-B ferry,A port,0.5,0.98,,B port,0.5,1.32,,ferry,2.0,yes,no,test,test,",
  "A-C ferry,A north,0.98,0.5,,C south,1.32,0.5,,ferry,3.0,no,no,test,test,",
].join("\n");
const FERRIES = parseFerries(FERRIES_CSV);

const MODEL: RoadModel = {
  countries: new Map([
    ["XA", { circuity: 1.3, region: "R1", truckKmh: 60 }],
    ["XB", { circuity: 1.3, region: "R1", truckKmh: 60 }],
    ["XC", { circuity: 1.3, region: "R1", truckKmh: 60 }],
    ["XE", { circuity: 1.3, region: "R1", truckKmh: 60 }],
    ["PA", { circuity: 1.3, region: "R2", truckKmh: 50 }],
    ["CO", { circuity: 1.4, region: "R2", truckKmh: 40 }],
  ]),
  globalCircuity: 1.3,
  globalTruckKmh: 60,
};
const OPTS: NetworkOptions = {
  ...DEFAULT_OPTIONS,
  k: 6,
  maxLinkM: 120_000,
  calibration: { minKm: 40, maxKm: 150, sources: 12, targets: 30, minSamples: 10, seed: 1 },
};

const truckComponents = (nodeCount: number, links: RoadLink[]) => {
  const uf = new UnionFind(nodeCount);
  for (const l of links) if (l.carriesTruck) uf.union(l.a, l.b);
  return uf;
};
const nodeAt = (nodes: RoadNode[], country: string) => nodes.findIndex((n) => n.country === country);

describe("road network over a hand-made world", () => {
  const net = buildRoadNetwork(worldNodes(), FERRIES, MODEL, mask, OPTS);
  const uf = truckComponents(net.nodes.length, net.links);

  test("road links never cross the strait, the lake or the sea; only the listed ferries do", () => {
    const roads = net.links.filter((l) => l.kind === "road");
    expect(roads.length).toBeGreaterThan(100);
    for (const l of roads) {
      const a = net.nodes[l.a]!;
      const b = net.nodes[l.b]!;
      // Ferry terminals sit on the shore, so compare landmasses by position, not by label.
      const land = (n: RoadNode) =>
        Object.entries(LANDS).find(([, box]) => inBox(box, n.lat, n.lng, 0.03))?.[0];
      expect(land(a)).toBe(land(b));
      for (let t = 0.05; t < 0.96; t += 0.05) {
        const lat = a.lat + (b.lat - a.lat) * t;
        const lng = a.lng + (b.lng - a.lng) * t;
        expect(inBox(LAKE, lat, lng, -0.02)).toBe(false);
      }
    }
    const crossings = net.links.filter((l) => l.kind !== "road");
    expect(crossings.map((l) => l.name).sort()).toEqual(["A-B ferry", "A-C ferry"]);
  });

  test("a strait with a truck ferry connects; without the ferry it is an island (no_route)", () => {
    expect(uf.find(nodeAt(net.nodes, "XA"))).toBe(uf.find(nodeAt(net.nodes, "XB")));
    const bare = buildRoadNetwork(worldNodes(), [], MODEL, mask, OPTS);
    const bareUf = truckComponents(bare.nodes.length, bare.links);
    expect(bareUf.find(nodeAt(bare.nodes, "XA"))).not.toBe(bareUf.find(nodeAt(bare.nodes, "XB")));
    // The ferry's time is its listed crossing, its length the great circle between terminals.
    const ferry = net.links.find((l) => l.name === "A-B ferry")!;
    expect(ferry.crossingHours).toBe(2);
    expect(ferry.lengthM).toBeCloseTo(haversineM(0.5, 0.98, 0.5, 1.32), 3);
    expect(ferry.speedKmh).toBeCloseTo(ferry.lengthM / 1000 / 2, 6);
  });

  test("trucks are excluded where carries_truck = no", () => {
    const ac = net.links.find((l) => l.name === "A-C ferry")!;
    expect(ac.carriesTruck).toBe(false);
    expect(uf.find(nodeAt(net.nodes, "XA"))).not.toBe(uf.find(nodeAt(net.nodes, "XC")));
    // With all links (cars, passengers) C is reachable: only the truck flag cuts it off.
    const all = new UnionFind(net.nodes.length);
    for (const l of net.links) all.union(l.a, l.b);
    expect(all.find(nodeAt(net.nodes, "XA"))).toBe(all.find(nodeAt(net.nodes, "XC")));
  });

  test("the fake Darien gap: no PA-CO link although the land is continuous", () => {
    const cross = net.links.filter(
      (l) => [net.nodes[l.a]!.country, net.nodes[l.b]!.country].sort().join("-") === "CO-PA",
    );
    expect(cross).toEqual([]);
    expect(uf.find(nodeAt(net.nodes, "PA"))).not.toBe(uf.find(nodeAt(net.nodes, "CO")));
    expect(net.stats.forbidden).toBeGreaterThan(0);
    const open = buildRoadNetwork(worldNodes(), FERRIES, MODEL, mask, { ...OPTS, forbiddenPairs: [] });
    const openUf = truckComponents(open.nodes.length, open.links);
    expect(openUf.find(nodeAt(open.nodes, "PA"))).toBe(openUf.find(nodeAt(open.nodes, "CO")));
  });

  test("the island without a link is its own component", () => {
    const e = nodeAt(net.nodes, "XE");
    const members = net.nodes.filter((_, i) => uf.find(i) === uf.find(e));
    expect(members.every((n) => landOf(n) === "XE")).toBe(true);
  });

  test("calibration: factor = circuity / measured zig-zag, and whole routes hit the circuity", () => {
    expect(perEdgeFactor(1.3, 1.1)).toBeCloseTo(1.3 / 1.1, 12);
    expect(perEdgeFactor(1.2, 1.34)).toBe(1); // a link is never shorter than its great circle
    const r1 = net.calibration.regions.find((r) => r.region === "R1")!;
    expect(r1.fallback).toBe(false);
    expect(r1.zigzag).toBeGreaterThan(1);
    expect(r1.zigzag).toBeLessThan(1.2);
    expect(net.calibration.factors.get("XA")).toBeCloseTo(1.3 / r1.zigzag, 12);
    // Same pairs re-measured on calibrated lengths: the median route circuity is the table's.
    expect(r1.achieved!).toBeCloseTo(1.3, 1);
    expect(Math.abs(r1.achieved! - 1.3)).toBeLessThan(0.03);
    for (const l of net.links) {
      if (l.kind === "road") expect(l.lengthM).toBeCloseTo(l.gcM * l.factor, 6);
      else expect(l.lengthM).toBe(l.gcM);
    }
  });

  test("cross-border arithmetic: mean factor, each half at its own country's speed", () => {
    const nodes: RoadNode[] = [
      { lat: 0, lng: 0, kind: "city", country: "PA", name: "a", population: 0 },
      { lat: 0, lng: 1, kind: "city", country: "CO", name: "b", population: 0 },
    ];
    const gcM = haversineM(0, 0, 0, 1);
    const link: RoadLink = {
      a: 0,
      b: 1,
      kind: "road",
      gcM,
      factor: 1,
      lengthM: gcM,
      country: "PA",
      countryB: "CO",
      speedKmh: 0,
      crossingHours: null,
      carriesTruck: true,
      name: "",
    };
    applyFactors(
      nodes,
      [link],
      MODEL,
      new Map([
        ["PA", 1.2],
        ["CO", 1.4],
      ]),
    );
    expect(link.factor).toBeCloseTo(1.3, 12);
    expect(link.lengthM).toBeCloseTo(gcM * 1.3, 6);
    const hours = ((gcM / 2000) * 1.2) / 50 + ((gcM / 2000) * 1.4) / 40;
    expect(link.speedKmh).toBeCloseTo(link.lengthM / 1000 / hours, 9);
  });

  test("the artifact round-trips through its container", () => {
    const bytes = encodeRoadNetwork(net.nodes, net.links, { test: true }, "test-build");
    const back = decodeRoadNetwork(bytes);
    expect(back.buildId).toBe("test-build");
    expect(back.meta).toEqual({ test: true });
    expect(back.nodes).toEqual(net.nodes.map((n) => ({ ...n })));
    expect(back.links.length).toBe(net.links.length);
    const f = back.links.find((l) => l.name === "A-C ferry")!;
    expect(f.carriesTruck).toBe(false);
    expect(f.kind).toBe("ferry");
    expect(f.crossingHours).toBe(3);
    expect(back.links[0]!.lengthM).toBe(net.links[0]!.lengthM);
  });
});

describe("neighbour rule: a lake shore keeps links along the shore", () => {
  // One landmass, a long lake, a sparse north shore facing a dense south shore: every north node's
  // k nearest lie across the lake, so k-NN alone leaves the north shore without links.
  const SHORE_LAND: Box = [0, 0, 2, 1];
  const SHORE_LAKE: Box = [0.1, 0.3, 1.9, 0.7];
  const shoreMask = WaterMask.fromTopologies(
    polygonsTopology([rect(SHORE_LAND)]),
    polygonsTopology([rect(SHORE_LAKE)]),
    0.01,
  );
  const city = (lat: number, lng: number, side: string): RoadNode => ({
    lat,
    lng,
    kind: "city",
    country: "XA",
    name: `${side} ${lng.toFixed(2)}`,
    population: 50_000,
  });
  const north = [0.2, 0.8, 1.4].map((lng) => city(0.75, lng, "north"));
  const south = Array.from({ length: 17 }, (_, i) => city(0.25, 0.2 + i * 0.1, "south"));
  const shoreOpts = (sectors: number): NetworkOptions => ({
    ...OPTS,
    k: 2,
    sectors,
    // No repair links: the test is about the neighbour rule alone.
    repairBelow: 0,
    calibration: { ...OPTS.calibration, minKm: 10, minSamples: 1 },
  });
  test.each([
    { rule: "k nearest only", sectors: 0, alongShore: 0 },
    { rule: "k nearest + 4 sectors", sectors: 4, alongShore: 2 },
    { rule: "k nearest + 8 sectors", sectors: 8, alongShore: 2 },
  ])("$rule: $alongShore links along the north shore, none across the lake", ({ sectors, alongShore }) => {
    const net = buildRoadNetwork([...north, ...south], [], MODEL, shoreMask, shoreOpts(sectors));
    const side = (i: number) => net.nodes[i]!.name.split(" ")[0];
    const roads = net.links.filter((l) => l.kind === "road");
    expect(roads.filter((l) => side(l.a) !== side(l.b))).toEqual([]);
    const shore = roads.filter((l) => side(l.a) === "north" && side(l.b) === "north");
    expect(shore.length).toBe(alongShore);
    // Each shore link joins shore neighbours, never skipping one.
    for (const l of shore) expect(Math.abs(net.nodes[l.a]!.lng - net.nodes[l.b]!.lng)).toBeCloseTo(0.6, 6);
  });
});

describe("segment rules: small water clipped, real water refused", () => {
  // Water as bands of longitude on a segment along the equator from 0 to 0.5 degrees (55 km).
  const bands = (...b: Array<[number, number]>) => ({
    isWater: (_lat: number, lng: number) => b.some(([x0, x1]) => lng >= x0 && lng <= x1),
  });
  test.each([
    { what: "dry", water: bands(), onLand: true },
    {
      what: "a 2 km creek mid-link (bridged, or narrower than a mask cell)",
      water: bands([0.2, 0.218]),
      onLand: true,
    },
    { what: "a 10 km strait mid-link", water: bands([0.2, 0.29]), onLand: false },
    { what: "an end node misread as water, 5 km of it", water: bands([-0.1, 0.045]), onLand: true },
    { what: "an end node in water 10 km wide", water: bands([-0.1, 0.09]), onLand: false },
    // The price of the tolerance: a 3 km strait reads as crossable too (Messina; its ferry stays).
    { what: "a 3 km strait mid-link", water: bands([0.2, 0.227]), onLand: true },
  ])("$what -> $onLand", ({ water, onLand }) => {
    expect(segmentOnLand(water, 0, 0, 0, 0.5, DEFAULT_SEGMENT_RULES)).toBe(onLand);
  });
});

describe("road model tables", () => {
  test("a country's own published circuity beats its region default; no_network has none", () => {
    const circuity = [
      "scope,scope_type,circuity_factor,distance_band_km,value_type,region,source,notes",
      "GLOBAL,global,1.3,all,published,,x,",
      "CH,country,1.376,25-50,published,Alpine,x,",
      "CH,country,1.4,50-1000,inherited_region_default,Alpine,x,",
      "CH,country,1.42,>100,country_published,Alpine,x,",
      "GL,country,,50-1000,no_network,None,x,",
    ].join("\n");
    const speeds = [
      "scope,scope_type,car_intercity_kmh,truck_intercity_kmh,value_type,region,source,notes",
      "CH,country,87,72.5,published_country,Alpine,x,",
      "GLOBAL,global,73.0,60.8,default,,x,",
    ].join("\n");
    const m = parseRoadModel(circuity, speeds);
    expect(m.countries.get("CH")).toEqual({ circuity: 1.42, region: "Alpine", truckKmh: 72.5 });
    expect(m.countries.get("GL")?.circuity).toBeNull();
    expect(m.globalCircuity).toBe(1.3);
    expect(m.globalTruckKmh).toBe(60.8);
  });
  test("ferries: mode, hours and the truck flag", () => {
    expect(FERRIES.map((f: FerryRow) => [f.kind, f.hours, f.carriesTruck])).toEqual([
      ["ferry", 2, true],
      ["ferry", 3, false],
    ]);
  });
});

// --- the real artifact (the test command builds artifacts first) -------------------------------
describe("built road-network artifact", () => {
  const { outDir } = defaultDirs();
  const path = join(outDir, ROAD_NETWORK_OUTPUT);
  if (!existsSync(path)) throw new Error(`${path} missing: run \`bash scripts/build.sh\` before the tests`);
  const net = decodeRoadNetwork(new Uint8Array(readFileSync(path)), path);
  const summary = JSON.parse(readFileSync(join(outDir, ROAD_SUMMARY_OUTPUT), "utf8"));
  const uf = truckComponents(net.nodes.length, net.links);
  const at = (lat: number, lng: number, country: string) => {
    const i = probeNode(net, lat, lng, country);
    expect(i).toBeGreaterThanOrEqual(0);
    return i;
  };

  test("node and link counts in plausible ranges, every kind present", () => {
    expect(net.nodes.length).toBeGreaterThan(25_000);
    expect(net.nodes.length).toBeLessThan(80_000);
    expect(net.links.length).toBeGreaterThan(3 * net.nodes.length);
    expect(net.links.length).toBeLessThan(10 * net.nodes.length);
    for (const kind of ["city", "port", "airport", "rail", "border"]) {
      expect(net.nodes.some((n) => n.kind === kind)).toBe(true);
    }
    // ferries.csv's 167 rows and the fixed links of data-build/road/fixed-links.csv.
    expect(net.links.filter((l) => l.kind !== "road").length).toBe(167 + fixedLinks().length);
    expect(summary.nodes).toBe(net.nodes.length);
    expect(summary.calibration.global_zigzag).toBeGreaterThan(1.0);
    expect(summary.calibration.global_zigzag).toBeLessThan(1.3);
  });

  test("Europe's mainland is one truck component", () => {
    const cities: Array<[number, number, string]> = [
      [38.72, -9.14, "PT"],
      [40.42, -3.7, "ES"],
      [48.86, 2.35, "FR"],
      [52.52, 13.4, "DE"],
      [52.23, 21.01, "PL"],
      [41.9, 12.5, "IT"],
      [48.21, 16.37, "AT"],
      [37.98, 23.73, "GR"],
      [59.33, 18.07, "SE"],
      [59.91, 10.75, "NO"],
      [60.17, 24.94, "FI"],
      [55.76, 37.62, "RU"],
      [50.45, 30.52, "UA"],
      [44.43, 26.1, "RO"],
      [52.37, 4.9, "NL"],
      [55.68, 12.57, "DK"],
    ];
    const roots = new Set(cities.map(([lat, lng, c]) => uf.find(at(lat, lng, c))));
    expect(roots.size).toBe(1);
  });

  test("Sri Lanka is not connected to India", () => {
    expect(uf.find(at(6.93, 79.86, "LK"))).not.toBe(uf.find(at(13.08, 80.27, "IN")));
  });

  test("Great Britain connects to France only through the Channel Tunnel and ferries", () => {
    const london = at(51.51, -0.13, "GB");
    const paris = at(48.86, 2.35, "FR");
    expect(uf.find(london)).toBe(uf.find(paris));
    const tunnel = net.links.find((l) => l.name.startsWith("Channel Tunnel"))!;
    expect(tunnel.kind).toBe("tunnel");
    expect(tunnel.carriesTruck).toBe(true);
    const roadsOnly = new UnionFind(net.nodes.length);
    for (const l of net.links) if (l.kind === "road") roadsOnly.union(l.a, l.b);
    expect(roadsOnly.find(london)).not.toBe(roadsOnly.find(paris));
    // A truck route London-Paris: calibrated road length plus the crossing, plausible vs ~460 km driven.
    const g = adjacency(
      net.nodes.length,
      net.links,
      (l) => l.carriesTruck,
      (l) => l.lengthM,
    );
    const km = dijkstra(g, london)[paris]! / 1000;
    expect(km).toBeGreaterThan(380);
    expect(km).toBeLessThan(600);
  });

  test("Darien gap and Taiwan: no truck route", () => {
    expect(uf.find(at(8.98, -79.52, "PA"))).not.toBe(uf.find(at(4.71, -74.07, "CO")));
    expect(uf.find(at(25.03, 121.57, "TW"))).not.toBe(uf.find(at(31.23, 121.47, "CN")));
    const paCo = net.links.filter(
      (l) => l.kind === "road" && [l.country, l.countryB].sort().join("-") === "CO-PA",
    );
    expect(paCo).toEqual([]);
  });
});
