/**
 * River graph stage: hand-made lines and stretches through the stage's own functions
 * (noding, WDB II merging and clipping, lake crossings, cutting at navigable limits, homonyms,
 * current direction, locks, class codes), then the built river.graph and river-ports.bin: the
 * spec's figures, and routes through the real WASM router when it reads river graphs.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { haversineM } from "../../common/geo.ts";
import { defaultDirs } from "../../data-build/pipeline.ts";
import { PointGrid } from "../../data-build/rail/grid.ts";
import { buildRiverNetwork } from "../../data-build/river/build.ts";
import { CLASS, classCode } from "../../data-build/river/classes.ts";
import { placeGateways } from "../../data-build/river/gateways.ts";
import { CANAL_KMH, RIVER_GRAPH_KIND, RIVER_KMH, riverGraphSpec } from "../../data-build/river/graph.ts";
import {
  type Lake,
  type LineSource,
  type LineTag,
  parseWaterways,
  type SourceLine,
  type Stretch,
} from "../../data-build/river/inputs.ts";
import { addLakeCrossings } from "../../data-build/river/lakes.ts";
import {
  applyLengthFactors,
  type CalibrationRow,
  calibrateLengths,
  MIN_SOURCE_SHARE,
  parseCalibration,
} from "../../data-build/river/length.ts";
import { MAX_EDGE_M } from "../../data-build/river/network.ts";
import { nodeLines, type RiverNet } from "../../data-build/river/noding.ts";
import { adjacency, shortestPath } from "../../data-build/river/path.ts";
import {
  GATEWAY_PORT_M,
  GATEWAY_PORT_TOWN_M,
  gatewayPorts,
  type MainRiverPort,
  parseMainRiverPorts,
  placeRiverPorts,
  QUAY_COVER_M,
  waterwayPattern,
} from "../../data-build/river/ports.ts";
import type { SeaNodes } from "../../data-build/river/sea.ts";
import { parseSeasonalRules } from "../../data-build/river/seasonal-calendar.ts";
import { addLink, applyStretches, type StretchMatch } from "../../data-build/river/stretches.ts";
import { clipRepeats, mergeAtSharedEnds } from "../../data-build/river/wdb.ts";
import { decodeArtifact } from "../../formats/container.ts";
import { csvRecords } from "../../formats/csv.ts";
import { GRAPH_FORMAT_VERSION } from "../../formats/graph-version.ts";
import type { PortPlace, RiverPort, SeaGateway } from "../../formats/river-ports.ts";
import { decodeRiverPorts } from "../../formats/river-ports.ts";
import { STATUS, WasmRouter } from "../../router-wasm/binding/router.ts";

/** Degrees of latitude for a distance north (1 degree ~ 111.195 km). */
const north = (m: number) => m / 111_195;

const tag = (name: string, source: LineSource = "ne", kind: LineTag["kind"] = "river"): LineTag => ({
  name,
  names: name ? [name] : [],
  kind,
  source,
});
const line = (points: Array<[number, number]>, t: LineTag = tag("River")): SourceLine => ({
  coords: points.flat(),
  tag: t,
});
const network = (naturalEarth: SourceLine[], more: Partial<Parameters<typeof buildRiverNetwork>[0]> = {}) =>
  buildRiverNetwork({ naturalEarth, canals: [], wdb: [], lakes: [], lakePoints: [], ...more }).net;

const stretch = (over: Partial<Stretch>): Stretch => ({
  id: "T_STRETCH",
  waterway: "Test stretch",
  aliases: ["River"],
  kind: "river",
  from: { place: "from", lat: 50, lng: 7 },
  to: { place: "to", lat: 50, lng: 8 },
  cemtClass: "Vb",
  usDepthFt: null,
  maxDraftM: null,
  locks: 0,
  currentKmh: 3,
  flowHint: "downstream_to=to_place",
  ruleIds: [],
  region: "Europe",
  straightKm: 0,
  neRouteKm: null,
  geometrySource: "NE",
  ...over,
});

const pathKm = (net: RiverNet, a: number, b: number) => {
  const steps = shortestPath(net, adjacency(net), a, b, (e) => net.edges[e]!.metres);
  return steps === null ? null : steps.reduce((s, st) => s + net.edges[st.edge]!.metres, 0) / 1000;
};
const nodeAt = (net: RiverNet, lat: number, lng: number, withinM = 60): number => {
  const i = net.lat.findIndex((la, n) => haversineM(la, net.lng[n]!, lat, lng) <= withinM);
  if (i < 0) throw new Error(`no node near ${lat}, ${lng}`);
  return i;
};

describe("noding", () => {
  // Line A runs east to (45, 9.1); line B starts `gap` metres north of that end.
  test.each([
    ["ne", 50, true],
    ["ne", 900, true],
    ["ne", 1_500, false],
    ["wdb", 2_000, true],
    ["wdb", 3_000, false],
    ["canal", 4_000, true],
    ["canal", 6_000, false],
  ] as Array<[LineSource, number, boolean]>)(
    "a %s line end %d m from another line: joined %p",
    (source, gap, joined) => {
      const a = line([
        [45, 9],
        [45, 9.1],
      ]);
      const b = line(
        [
          [45 + north(gap), 9.1],
          [45.1, 9.2],
        ],
        tag(source === "ne" ? "Other" : "", source, source === "canal" ? "canal" : "river"),
      );
      const { net } = nodeLines([a, b]);
      expect(net.edges.length).toBe(2);
      expect(net.lat.length).toBe(joined ? 3 : 4);
    },
  );

  test("two lines crossing without a shared vertex get a node at the crossing", () => {
    const { net, stats } = nodeLines([
      line([
        [45, 9],
        [45, 9.2],
      ]),
      line(
        [
          [44.9, 9.1],
          [45.1, 9.1],
        ],
        tag("Other"),
      ),
    ]);
    expect(stats.crossings).toBe(1);
    expect(net.lat.length).toBe(5);
    expect(net.edges.length).toBe(4);
    const x = nodeAt(net, 45, 9.1, 1);
    expect(net.edges.filter((e) => e.from === x || e.to === x).length).toBe(4);
  });

  test("an end stopping 30 m short of another line's interior splits that line there", () => {
    const { net } = nodeLines([
      line([
        [45, 9],
        [45, 9.05],
        [45, 9.2],
      ]),
      line(
        [
          [45 + north(30), 9.1],
          [45.2, 9.1],
        ],
        tag("Tributary"),
      ),
    ]);
    expect(net.lat.length).toBe(4);
    expect(net.edges.length).toBe(3);
    // 9.05 stays geometry of the first piece of the main line.
    expect(net.edges.some((e) => e.inner[1] === 9.05)).toBe(true);
  });

  test("pieces of one water are merged, then long edges densified", () => {
    // Three Natural Earth features of one river end to end: one edge of ~158 km before densifying.
    const net = network([
      line([
        [0, 0],
        [0, 0.5],
      ]),
      line([
        [0, 0.5],
        [0, 1],
      ]),
      line([
        [0, 1],
        [0, 1.42],
      ]),
    ]);
    const km = haversineM(0, 0, 0, 1.42) / 1000;
    expect(net.edges.length).toBe(Math.ceil((km * 1000) / MAX_EDGE_M));
    expect(net.edges.every((e) => e.metres <= MAX_EDGE_M + 1)).toBe(true);
    expect(net.edges.reduce((s, e) => s + e.metres, 0) / 1000).toBeCloseTo(km, 1);
  });
});

describe("WDB II", () => {
  const wdb = (points: Array<[number, number]>) => line(points, tag("", "wdb"));

  test("pieces split at bin edges are merged; a junction of three ends is not", () => {
    const merged = mergeAtSharedEnds([
      wdb([
        [10.5, 0.5],
        [11, 0.7],
      ]),
      wdb([
        [11, 0.7],
        [11.4, 0.9],
      ]),
      wdb([
        [11.8, 1],
        [11.4, 0.9],
      ]),
    ]);
    expect(merged.length).toBe(1);
    expect(merged[0]!.coords).toEqual([10.5, 0.5, 11, 0.7, 11.4, 0.9, 11.8, 1]);
    const withBranch = mergeAtSharedEnds([
      wdb([
        [10.5, 0.5],
        [11, 0.7],
      ]),
      wdb([
        [11, 0.7],
        [11.4, 0.9],
      ]),
      wdb([
        [11, 0.7],
        [11, 1.2],
      ]),
    ]);
    expect(withBranch.length).toBe(3);
  });

  test("a line repeating Natural Earth is dropped, the part that leaves it is kept", () => {
    const ne = line([
      [0, 0],
      [0, 1],
    ]);
    const repeat = wdb([
      [north(500), 0],
      [north(500), 0.5],
      [north(500), 1],
    ]);
    const leaving = wdb([
      [north(300), 0.2],
      [north(300), 0.4],
      [0.2, 0.5],
      [0.4, 0.6],
    ]);
    const { kept, droppedKm } = clipRepeats([repeat, leaving], [ne]);
    expect(kept.length).toBe(1);
    // The kept run starts at its last vertex near the river, so noding can join it there.
    expect(kept[0]!.coords.slice(0, 2)).toEqual([north(300), 0.4]);
    expect(droppedKm).toBeGreaterThan(111);
  });
});

describe("lake crossings", () => {
  const lake = (ring: Array<[number, number]>, name = "Lake"): Lake => {
    const flat = ring.flat();
    const lats = ring.map((p) => p[0]);
    const lngs = ring.map((p) => p[1]);
    return {
      name,
      polygons: [[flat]],
      bbox: [Math.min(...lats), Math.min(...lngs), Math.max(...lats), Math.max(...lngs)],
    };
  };

  test("rivers ending on opposite shores are joined across the lake", () => {
    const { net } = nodeLines([
      line([
        [10.25, 9.5],
        [10.25, 10],
      ]),
      line(
        [
          [10.25, 10.5],
          [10.25, 11],
        ],
        tag("Outflow"),
      ),
    ]);
    const square = lake([
      [10, 10],
      [10.5, 10],
      [10.5, 10.5],
      [10, 10.5],
      [10, 10],
    ]);
    const { stats } = addLakeCrossings(net, [square]);
    expect(stats.lakesCrossed).toBe(1);
    const km = pathKm(net, nodeAt(net, 10.25, 10), nodeAt(net, 10.25, 10.5));
    // Straight across is ~55 km; the web may zig-zag a little.
    expect(km).not.toBeNull();
    expect(km!).toBeLessThan(1.15 * (haversineM(10.25, 10, 10.25, 10.5) / 1000));
  });

  test("a crossing never cuts over land: around a U-shaped lake, not across its middle", () => {
    const { net } = nodeLines([
      line([
        [11, 0.1],
        [11.5, 0.1],
      ]),
      line(
        [
          [11, 0.7],
          [11.5, 0.7],
        ],
        tag("Other"),
      ),
    ]);
    const u = lake([
      [10, 0],
      [11, 0],
      [11, 0.2],
      [10.2, 0.2],
      [10.2, 0.6],
      [11, 0.6],
      [11, 0.8],
      [10, 0.8],
      [10, 0],
    ]);
    addLakeCrossings(net, [u]);
    const a = nodeAt(net, 11, 0.1);
    const b = nodeAt(net, 11, 0.7);
    expect(net.edges.some((e) => (e.from === a && e.to === b) || (e.from === b && e.to === a))).toBe(false);
    const km = pathKm(net, a, b);
    expect(km).not.toBeNull();
    // Down one arm, across the bottom, up the other: ~2 x 95 km + 50 km, not the 66 km straight.
    expect(km!).toBeGreaterThan(200);
  });
});

describe("curated stretches", () => {
  // One river drawn west to east over 1.4 degrees at 50 N (~100 km).
  const river = () =>
    network([
      line([
        [50, 7],
        [50, 7.7],
        [50, 8.4],
      ]),
    ]);

  test("a stretch is cut at its navigable limits: the river beyond stays uncurated", () => {
    const net = river();
    const { attrs, matches } = applyStretches(net, [
      stretch({ from: { place: "a", lat: 50.01, lng: 7.3 }, to: { place: "b", lat: 50, lng: 8 } }),
    ]);
    expect(matches[0]!.method).toBe("named");
    const a = nodeAt(net, 50, 7.3);
    const b = nodeAt(net, 50, 8);
    net.edges.forEach((e, i) => {
      const mid = (net.lng[e.from]! + net.lng[e.to]!) / 2;
      expect(attrs[i]!.stretch).toBe(mid > 7.3 && mid < 8 ? 0 : -1);
    });
    const curatedKm = net.edges.reduce((s, e, i) => s + (attrs[i]!.stretch === 0 ? e.metres : 0), 0) / 1000;
    expect(curatedKm).toBeCloseTo(haversineM(50, 7.3, 50, 8) / 1000, 0);
    expect(pathKm(net, a, b)).toBeCloseTo(curatedKm, 3);
  });

  test("a homonym outside the stretch's box does not get its attributes", () => {
    // Red River of the South (Louisiana) and of the North (North Dakota): one name in Natural Earth.
    const net = network([
      line(
        [
          [31.0, -92.0],
          [31.2, -92.6],
          [31.4, -93.2],
        ],
        tag("Red"),
      ),
      line(
        [
          [46.9, -96.8],
          [47.9, -97.0],
          [48.9, -97.2],
        ],
        tag("Red"),
      ),
    ]);
    const { attrs } = applyStretches(net, [
      stretch({
        aliases: ["Red"],
        from: { place: "mouth", lat: 31.0, lng: -92.0 },
        to: { place: "Shreveport side", lat: 31.4, lng: -93.2 },
        region: "North America",
      }),
    ]);
    const south = net.edges.filter((e) => net.lat[e.from]! < 40);
    expect(south.length).toBeGreaterThan(0);
    net.edges.forEach((e, i) => {
      expect(attrs[i]!.stretch).toBe(net.lat[e.from]! < 40 ? 0 : -1);
    });
  });

  test("a homonym leaving the box is not taken even where it would join the stretch's own lines", () => {
    // Two pieces of "Red" with a 9 km gap; a far "Red" loops out of the box and joins their ends.
    const net = network([
      line(
        [
          [31, -92.0],
          [31, -92.15],
        ],
        tag("Red"),
      ),
      line(
        [
          [31, -92.25],
          [31, -92.4],
        ],
        tag("Red"),
      ),
      line(
        [
          [31, -92.15],
          [33, -92.2],
          [33, -92.3],
          [31, -92.25],
        ],
        tag("Red"),
      ),
    ]);
    const { attrs, matches } = applyStretches(net, [
      stretch({
        aliases: ["Red"],
        from: { place: "a", lat: 31, lng: -92.0 },
        to: { place: "b", lat: 31, lng: -92.4 },
      }),
    ]);
    expect(matches[0]!.method).toBe("link");
    net.edges.forEach((e, i) => {
      if (net.lat[e.from]! > 31.6 || net.lat[e.to]! > 31.6) expect(attrs[i]!.stretch).toBe(-1);
    });
  });

  // The river is drawn west to east; `reversed` draws it east to west (edges stored that way).
  test.each([
    ["downstream_to=to_place", false, 3],
    ["downstream_to=from_place", false, -3],
    ["delta (flow toward from_place)", false, -3],
    ["downstream_to=to_place", true, -3],
    ["downstream_to=from_place", true, 3],
    ["tidal (ebb toward from_place)", false, 0],
    ["none (canal/lake; no significant current)", false, 0],
    ["reverses seasonally", false, 0],
  ] as Array<[string, boolean, number]>)(
    "hint %s (line reversed: %p): current %d km/h along each edge",
    (flowHint, reversed, expected) => {
      const pts: Array<[number, number]> = [
        [50, 7],
        [50, 7.7],
        [50, 8.4],
      ];
      const net = network([line(reversed ? pts.reverse() : pts)]);
      // From west to east: with downstream_to=to_place the water runs east.
      const { attrs } = applyStretches(net, [
        stretch({ flowHint, from: { place: "w", lat: 50, lng: 7 }, to: { place: "e", lat: 50, lng: 8.4 } }),
      ]);
      expect(attrs.every((a) => a.stretch === 0)).toBe(true);
      expect(new Set(attrs.map((a) => a.currentKmh))).toEqual(new Set([expected]));
    },
  );

  test("locks are spread along the stretch and timed per region", () => {
    const rules = parseSeasonalRules(
      JSON.stringify([
        { id: "R1", type: "ice_closure", waterway: "W", segment: "S", typical_window: "", effect: "" },
      ]),
      "id,kind,from,to,time_factor,basis\nR1,closure,01-01,02-01,,test\n",
    );
    for (const [region, hours] of [
      ["Europe", 0.75],
      ["North America", 1.25],
    ] as const) {
      const net = river();
      const s = stretch({
        locks: 4,
        region,
        ruleIds: ["R1"],
        from: { place: "w", lat: 50, lng: 7 },
        to: { place: "e", lat: 50, lng: 8.4 },
      });
      const { attrs } = applyStretches(net, [s]);
      expect(attrs.map((a) => a.locks).filter((n) => n > 0)).toEqual([1, 1, 1, 1]);
      const spec = riverGraphSpec(
        net,
        attrs,
        [s],
        rules,
        net.edges.map(() => [0]),
      );
      expect(spec.kind).toBe(RIVER_GRAPH_KIND);
      expect(spec.edges.reduce((sum, e) => sum + (e.fixedSeconds ?? 0), 0)).toBeCloseTo(4 * hours * 3600, 3);
      expect(spec.edges.every((e) => e.speedKmh === RIVER_KMH && e.edgeClass === CLASS.Vb)).toBe(true);
      expect(spec.edges.every((e) => e.rules?.[0] === 0)).toBe(true);
      expect(spec.waterways![spec.edges[0]!.waterway!]).toEqual({ name: "Test stretch", class: "Vb" });
    }
  });

  test("uncurated water keeps class 0, no current, its Natural Earth name; canals go at canal speed", () => {
    const net = network([
      line(
        [
          [50, 7],
          [50, 7.1],
        ],
        tag("Brook"),
      ),
      line(
        [
          [50, 7.1],
          [50, 7.2],
        ],
        tag("", "wdb", "canal"),
      ),
    ]);
    const spec = riverGraphSpec(
      net,
      net.edges.map(() => ({ stretch: -1, currentKmh: 0, locks: 0 })),
      [],
      [],
      net.edges.map(() => []),
    );
    const names = spec.edges.map((e) => spec.waterways![e.waterway!]!.name).sort();
    expect(names).toEqual(["", "Brook"]);
    expect(spec.edges.every((e) => e.edgeClass === 0 && e.currentKmh === 0 && !e.rules)).toBe(true);
    expect(spec.edges.map((e) => e.speedKmh).sort((x, y) => x! - y!)).toEqual([CANAL_KMH, RIVER_KMH]);
  });

  test.each([
    ["VIc (seagoing)", null, "Europe", CLASS.VIc],
    ["Va-VIb", null, "Europe", CLASS.Va],
    ["II-III (Freycinet+)", null, "Europe", CLASS.II],
    ["VII", null, "Europe", CLASS.VII],
    ["IV (300-500 t)", null, "South/Southeast Asia", CLASS.III],
    ["", 12, "North America", CLASS.IV],
    ["", 6, "North America", CLASS.III],
    ["Seaway", 27, "North America", CLASS.seagoing],
    ["UDWS", null, "Russia/Ukraine", CLASS.Vb],
    ["III", null, "China", CLASS.IV],
    ["regional (limited)", null, "Africa", CLASS.III],
    ["", null, "Europe", CLASS.unknown],
  ] as Array<[string, number | null, string, number]>)(
    "class %p (%p ft, %s) -> code %d",
    (cemt, ft, region, code) => {
      expect(classCode(cemt, ft, region)).toBe(code);
    },
  );
});

describe("sea gateways", () => {
  // A river from inland (0, 0) to the coast at (0, 1); the sea lanes' nearest point is 0.2 degrees
  // (~22 km) off the mouth, ~122 km from a port 0.1 degrees up the river.
  const seaAt = (lat: number, lng: number): SeaNodes => {
    const pointLat = Float64Array.from([lat]);
    const pointLng = Float64Array.from([lng]);
    return {
      coords: Float64Array.from([lat, lng]),
      edges: [],
      pointLat,
      pointLng,
      pointNode: Int32Array.from([0]),
      grid: new PointGrid(pointLat, pointLng, 0.5),
    };
  };
  const everywhereSea = { seaWithin: () => true };

  test("a seaport up a river joins the sea lanes where its water meets them; the mouth is a gateway too", () => {
    const net = network([
      line([
        [0, 0],
        [0, 0.5],
        [0, 1],
      ]),
    ]);
    const { gateways, stats } = placeGateways(
      net,
      [{ name: "Upriver", locode: "XXUPR", lat: 0, lng: 0.1, waterwayId: "T" }],
      seaAt(0, 1.2),
      everywhereSea,
      () => net.lat.map((_, n) => n),
      () => true,
      () => "River",
    );
    expect(stats.curatedJoinedAlongWater).toBe(1);
    const [port, mouth] = gateways;
    expect(port!.source).toBe("curated");
    expect(port!.riverSnapKm).toBeLessThan(4);
    expect(net.lng[port!.joinNode]).toBe(1);
    expect(port!.joinRiverKm).toBeCloseTo(haversineM(0, net.lng[port!.riverNode]!, 0, 1) / 1000, 1);
    expect(port!.seaKm).toBeCloseTo(haversineM(0, 1, 0, 1.2) / 1000, 1);
    expect(mouth!.source).toBe("mouth");
    expect(mouth!.name).toBe("River mouth");
    expect(net.lng[mouth!.riverNode]).toBe(1);
    expect(gateways.length).toBe(2);
  });

  test("no mouth where the sea lanes are farther than 60 km, nor off the coast", () => {
    const net = network([
      line([
        [0, 0],
        [0, 1],
      ]),
    ]);
    const far = placeGateways(
      net,
      [],
      seaAt(0, 1.6),
      everywhereSea,
      () => [],
      () => false,
      () => "",
    );
    expect(far.gateways.length).toBe(0);
    const inland = placeGateways(
      net,
      [],
      seaAt(0, 1.2),
      { seaWithin: () => false },
      () => [],
      () => false,
      () => "",
    );
    expect(inland.gateways.length).toBe(0);
  });
});

describe("river ports", () => {
  // One river along the equator from (0, 0) to (0, 1); open sea east of 0.8 degrees.
  const river = () =>
    network([
      line([
        [0, 0],
        [0, 1],
      ]),
    ]);
  const coast = { seaWithin: (_lat: number, lng: number) => lng > 0.8 };
  const place = (
    locode: string,
    lat: number,
    lng: number,
    source: PortPlace["source"] = "unlocode",
    geocoded = false,
  ): PortPlace => ({ locode, name: locode, country: "XX", lat, lng, geocoded, harbour: "", source });

  const quay = (locode: string, lat: number, lng: number, waterway = "River"): MainRiverPort => ({
    ...place(locode, lat, lng, "curated"),
    waterway: waterwayPattern(waterway),
  });
  /** Degrees of longitude on the equator for a distance east. */
  const east = north;

  test.each([
    [
      "a UN/LOCODE port 2 km from the river is kept",
      [place("XXTWN", north(2_000), 0.3)],
      [],
      "XXTWN",
      "unlocode",
      north(2_000),
    ],
    [
      "a UN/LOCODE port 8 km from the river is not",
      [place("XXFAR", north(8_000), 0.3)],
      [],
      "XXFAR",
      null,
      0,
    ],
    ["a UN/LOCODE port with open sea near is a seaport", [place("XXSEA", 0, 0.9)], [], "XXSEA", null, 0],
    [
      "a main port stands at its quay, in place of the geocoded UN/LOCODE place of its code 44 km off",
      [place("XXMAI", north(3_000), 0.1, "unlocode", true)],
      [quay("XXMAI", north(1_000), 0.5)],
      "XXMAI",
      "curated",
      north(1_000),
    ],
    ["a main port has no coastal test", [], [quay("XXMSE", 0, 0.9)], "XXMSE", "curated", 0],
    ["a main port off the network is left out", [], [quay("XXMOF", 0.5, 0.2)], "XXMOF", null, 0],
    [
      `a main port's quay with a port on its water ${QUAY_COVER_M / 1000 - 0.9} km off has it already`,
      [place("XXTWN", north(1_000), 0.3)],
      [quay("XXQUA", north(500), 0.3 + east(QUAY_COVER_M - 900))],
      "XXTWN",
      "unlocode",
      north(1_000),
    ],
  ] as Array<[string, PortPlace[], MainRiverPort[], string, RiverPort["source"] | null, number]>)(
    "%s",
    (_label, unlocode, main, locode, source, lat) => {
      const { ports, stats } = placeRiverPorts(river(), unlocode, [], coast, main);
      const port = ports.find((p) => p.locode === locode);
      if (source === null) {
        expect(port).toBeUndefined();
        return;
      }
      expect(port?.source).toBe(source);
      expect(port!.lat).toBe(lat);
      expect(ports.length).toBe(1);
      expect(stats.unlocodeReplacedByMain).toBe(source === "curated" && unlocode.length > 0 ? 1 : 0);
    },
  );

  test("a surveyed UN/LOCODE town 44 km from its code's main port keeps its own river port", () => {
    const { ports, stats } = placeRiverPorts(river(), [place("XXMAI", north(3_000), 0.1)], [], coast, [
      quay("XXMAI", north(1_000), 0.5),
    ]);
    expect(ports.map((p) => [p.locode, p.source, p.lat])).toEqual([
      ["XXMAI", "unlocode", north(3_000)],
      ["XXMAI", "curated", north(1_000)],
    ]);
    expect(stats.unlocodeReplacedByMain).toBe(0);
  });

  // The river along the equator and a creek north from its middle.
  const riverAndCreek = () =>
    network([
      line([
        [0, 0],
        [0, 1],
      ]),
      line(
        [
          [0, 0.5],
          [0.3, 0.5],
        ],
        tag("Creek"),
      ),
    ]);
  test.each([
    [
      "3 km from the nearest port on its water is a port of its own",
      place("XXTWN", north(500), 0.5 - east(3_000)),
      true,
    ],
    [
      "1.5 km from a port on a creek is a port of its own on the river",
      place("XXCRK", north(1_500), 0.5 + east(300)),
      true,
    ],
    ["1 km from a port on its own water is not", place("XXTWN", north(500), 0.5 + east(1_000)), false],
    [
      "1 km from a geocoded UN/LOCODE place on its water is a port of its own",
      place("XXTWN", north(500), 0.5 + east(1_000), "unlocode", true),
      true,
    ],
    [
      "1 km from a port of another country across the river is a port of its own",
      { ...place("YYTWN", north(500), 0.5 + east(1_000)), country: "YY" },
      true,
    ],
  ] as Array<[string, PortPlace, boolean]>)("a main port's quay %s", (_label, town, added) => {
    const net = riverAndCreek();
    // The quay lies 200 m from the creek and 1 km from the river it is listed on.
    const { ports, stats } = placeRiverPorts(net, [town], [], coast, [
      quay("XXQUA", north(1_000), 0.5 + east(200)),
    ]);
    expect(ports.find((p) => p.locode === "XXQUA") !== undefined).toBe(added);
    expect(stats.mainCovered).toBe(added ? 0 : 1);
    const q = ports.find((p) => p.locode === "XXQUA");
    if (q) expect(Math.abs(net.lat[q.node]!)).toBeLessThan(1e-9);
  });

  test("a waterway column is a whole-word pattern over water names", () => {
    const main = waterwayPattern("Main|St. Lawrence");
    expect(
      ["Main Mainz-Bamberg", "Main-Danube Canal", "St. Lawrence", "main"].every((n) => main.test(n)),
    ).toBe(true);
    expect(["Maine", "Mainz", "Stxlawrence"].some((n) => main.test(n))).toBe(false);
    expect(() => waterwayPattern("Rhine|(.*)")).toThrow(/bad waterway/);
  });

  const gateway = (over: Partial<SeaGateway> = {}): SeaGateway => ({
    id: "gw:XXGWY",
    name: "Gateway town",
    locode: "XXGWY",
    source: "curated",
    waterwayId: "T_STRETCH",
    lat: north(3_000),
    lng: 0.5,
    riverNode: 7,
    riverSnapKm: 3,
    joinNode: 7,
    joinRiverKm: 0,
    seaNode: 0,
    seaLat: 0,
    seaLng: 1.2,
    seaKm: 20,
    ...over,
  });
  const port = (locode: string): RiverPort => ({
    ...place(locode, 0, 0.5),
    node: 3,
    snapKm: 0,
    source: "unlocode",
  });
  test.each([
    [
      "a curated gateway 3 km from its river node is a river port on that node",
      gateway(),
      [],
      [],
      "Gateway town",
    ],
    [
      `... but not ${GATEWAY_PORT_M / 1000 + 2} km from it`,
      gateway({ riverSnapKm: GATEWAY_PORT_M / 1000 + 2 }),
      [],
      [],
      null,
    ],
    ["... nor twice: its code is a river port already", gateway(), [port("XXGWY")], [], null],
    [
      "a seaport the coastal test dropped (its UN/LOCODE place 5 km off the gateway) keeps its UN/LOCODE name",
      gateway(),
      [],
      [place("XXGWY", north(8_000), 0.5)],
      "XXGWY",
    ],
    [
      `a gateway named after a port ${GATEWAY_PORT_TOWN_M / 1000 + 15} km away only approaches it`,
      gateway(),
      [],
      [place("XXGWY", north(3_000 + GATEWAY_PORT_TOWN_M + 15_000), 0.5)],
      null,
    ],
    ["a river mouth found on the coast is no port", gateway({ source: "mouth", locode: "" }), [], [], null],
  ] as Array<[string, SeaGateway, RiverPort[], PortPlace[], string | null]>)(
    "%s",
    (_label, g, existing, unlocode, name) => {
      const added = gatewayPorts([g], existing, unlocode);
      if (name === null) {
        expect(added).toEqual([]);
        return;
      }
      expect(added.length).toBe(1);
      expect(added[0]).toMatchObject({
        locode: g.locode,
        name,
        source: "gateway",
        node: 7,
        snapKm: 3,
        lat: g.lat,
      });
    },
  );

  test("the main river ports table parses; a bad row stops the build", () => {
    const rows = parseMainRiverPorts();
    expect(rows.length).toBeGreaterThanOrEqual(200);
    expect(rows.every((r) => r.source === "curated" && !r.geocoded)).toBe(true);
    const head = "locode,name,waterway,lat,lng,source\n";
    expect(() => parseMainRiverPorts(`${head}Vienna,Wien,Danube,48.2,16.4,x\n`)).toThrow(/bad row/);
    expect(() => parseMainRiverPorts(`${head}ATVIE,Wien,Danube,48.2,x,x\n`)).toThrow(/bad row/);
    expect(() => parseMainRiverPorts(`${head}ATVIE,Wien,Danube,48.2,16.4,\n`)).toThrow(/bad row/);
    expect(() => parseMainRiverPorts(`${head}ATVIE,Wien,,48.2,16.4,x\n`)).toThrow(/bad waterway/);
  });
});

describe("channel length", () => {
  const match = (id: string, km: number, source: LineSource, sourceShare = 1): StretchMatch => ({
    id,
    method: "named",
    km,
    edges: 1,
    snapKm: [0, 0],
    gapLinkKm: 0,
    shared: 0,
    source,
    sourceShare,
  });
  const row = (id: string, publishedKm: number): CalibrationRow => ({ id, publishedKm, basis: "test" });

  test("each source's factor is the median published / drawn km of its calibration stretches", () => {
    const { factors, rows } = calibrateLengths(
      [row("A", 110), row("B", 105), row("C", 130), row("D", 99), row("E", 200), row("F", 150)],
      [
        match("A", 100, "ne"),
        match("B", 100, "ne"),
        match("C", 100, "ne"),
        match("D", 90, "canal"),
        // Not on one source, or a straight link: they calibrate nothing.
        match("E", 100, "ne", MIN_SOURCE_SHARE - 0.05),
        match("F", 100, "link"),
        match("G", 100, "ne"),
      ],
    );
    expect(factors).toEqual({ ne: 1.1, wdb: 1, canal: 1.1, lake: 1, link: 1 });
    expect(rows.filter((r) => !r.used).map((r) => r.id)).toEqual(["E", "F"]);
  });

  test.each([
    ["id,published,unit,basis\nA,10,mi,x\n", 16.09344],
    ["id,published,unit,basis\nA,10,km,x\n", 10],
    ["id,published,unit,basis\nA,10,nm,x\n", /not a length/],
    ["id,published,unit,basis\nA,,km,x\n", /not a length/],
  ] as Array<[string, number | RegExp]>)("calibration row %j -> %p", (csv, want) => {
    if (want instanceof RegExp) expect(() => parseCalibration(csv)).toThrow(want);
    else expect(parseCalibration(csv)[0]!.publishedKm).toBeCloseTo(want, 6);
  });

  test("a calibration row naming no stretch stops the build", () => {
    expect(() => calibrateLengths([row("NOPE", 10)], [match("A", 10, "ne")])).toThrow(
      /no waterways.csv stretch/,
    );
  });

  test("every edge is lengthened by its own source's factor, lakes and links not at all", () => {
    const net = network([
      line([
        [0, 0],
        [0, 0.05],
      ]),
      line(
        [
          [0.5, 0],
          [0.5, 0.05],
        ],
        { ...tag("Canal", "canal", "canal"), curatedId: "T_CANAL" },
      ),
    ]);
    addLink(net, 0, 1, { ...tag("Link", "link"), curatedId: "T_LINK" });
    const before = net.edges.map((e) => e.metres);
    applyLengthFactors(net, { ne: 1.08, wdb: 1, canal: 1.05, lake: 1, link: 1 });
    const want = { ne: 1.08, canal: 1.05, link: 1 } as Record<string, number>;
    net.edges.forEach((e, i) => {
      expect(e.metres).toBeCloseTo(before[i]! * want[e.tag.source]!, 6);
    });
    expect(new Set(net.edges.map((e) => e.tag.source))).toEqual(new Set(["ne", "canal", "link"]));
  });
});

const { outDir, sourcesDir } = defaultDirs();
const waterwaysCsv = join(sourcesDir, "inland/waterways.csv");

describe.skipIf(!existsSync(waterwaysCsv))("the curated table", () => {
  test("every stretch's class maps to a code", () => {
    const rows = parseWaterways(readFileSync(waterwaysCsv, "utf8"));
    expect(rows.length).toBe(246);
    expect(rows.filter((r) => classCode(r.cemtClass, r.usDepthFt, r.region) === CLASS.unknown)).toEqual([]);
  });

  test("a calibration length taken from a stretch's notes is the length the notes state", () => {
    const notes = new Map(
      csvRecords(readFileSync(waterwaysCsv, "utf8")).map((r) => [r.id!, r.season_notes ?? ""]),
    );
    const fromNotes = parseCalibration().filter((r) => r.basis.startsWith("waterways.csv notes"));
    expect(fromNotes.length).toBeGreaterThanOrEqual(25);
    for (const r of fromNotes) {
      const m = /^\s*([\d,]+(?:\.\d+)?)\s*(km|mi)\b/.exec(notes.get(r.id) ?? "");
      expect(m, `${r.id}: notes state no length`).not.toBeNull();
      const km = Number(m![1]!.replace(/,/g, "")) * (m![2] === "mi" ? 1.609344 : 1);
      expect(r.publishedKm, r.id).toBeCloseTo(km, 1);
    }
  });
});

const built = ["river.graph", "river-ports.bin", "river.summary.json"].every((f) =>
  existsSync(join(outDir, f)),
);

describe.skipIf(!built)("built river graph", () => {
  const graphBytes = new Uint8Array(readFileSync(join(outDir, "river.graph")));
  const art = decodeArtifact(graphBytes, { kind: RIVER_GRAPH_KIND, formatVersion: GRAPH_FORMAT_VERSION });
  const meta = new Uint32Array(art.sections.get("meta")!.slice().buffer);
  const nodes = meta[1]!;
  const summary = JSON.parse(readFileSync(join(outDir, "river.summary.json"), "utf8"));
  const riverPorts = decodeRiverPorts(new Uint8Array(readFileSync(join(outDir, "river-ports.bin"))));
  const nodeCoord = new Float64Array(art.sections.get("node_coord")!.slice().buffer);

  test("the spec's figures: 143,070 nodes, 175,605 km, 3,108 river ports, 400 sea gateways", () => {
    expect(nodes).toBe(summary.nodes);
    expect(nodes).toBeGreaterThanOrEqual(143_070);
    const km =
      new Float64Array(art.sections.get("edge_len")!.slice().buffer).reduce((s, m) => s + m, 0) / 1000;
    expect(Math.round(km)).toBe(summary.km);
    expect(km).toBeGreaterThanOrEqual(175_605);
    expect(riverPorts.ports.length).toBeGreaterThanOrEqual(3_108);
    expect(riverPorts.gateways.length).toBeGreaterThanOrEqual(400);
    expect(riverPorts.buildId).toBe(art.buildId);
  });

  test("every curated stretch is on the graph; the names table lists all 55 rules", () => {
    expect(summary.curated_stretches).toBe(246);
    expect(summary.curated_by_method.unmatched).toBe(0);
    const names = JSON.parse(new TextDecoder().decode(art.sections.get("names")));
    expect(names.mode).toBe("river");
    expect(names.rules.length).toBe(55);
    expect(names.waterways[0]).toEqual({ name: "", class: "" });
  });

  test("ports and gateways stand on graph nodes next to them and join a sea-graph node", () => {
    const at = (n: number) => [nodeCoord[n * 2]!, nodeCoord[n * 2 + 1]!] as const;
    for (const p of riverPorts.ports) {
      expect(p.node).toBeLessThan(nodes);
      const [lat, lng] = at(p.node);
      expect(haversineM(p.lat, p.lng, lat, lng) / 1000).toBeLessThanOrEqual(p.snapKm + 0.1);
    }
    const seaNodes = existsSync(join(outDir, "sea.graph"))
      ? new Uint32Array(
          decodeArtifact(new Uint8Array(readFileSync(join(outDir, "sea.graph"))), {
            kind: "sea-graph",
            formatVersion: GRAPH_FORMAT_VERSION,
          })
            .sections.get("meta")!
            .slice().buffer,
        )[1]!
      : Infinity;
    for (const g of riverPorts.gateways) {
      expect(g.riverNode).toBeLessThan(nodes);
      expect(g.joinNode).toBeLessThan(nodes);
      expect(g.seaNode).toBeLessThan(seaNodes);
      expect(g.seaKm).toBeLessThanOrEqual(250);
    }
    expect(riverPorts.gateways.filter((g) => g.source === "curated").length).toBeGreaterThan(150);
    const duisburg = riverPorts.ports.find((p) => p.locode === "DEDUI");
    expect(duisburg?.snapKm).toBeLessThan(5);
  });

  test("every main inland port of main-river-ports.csv has a river port on its waterway within 5 km of its quay", () => {
    const arcStart = new Uint32Array(art.sections.get("arc_start")!.slice().buffer);
    const arcEdge = new Uint32Array(art.sections.get("arc_edge")!.slice().buffer);
    const edgeWaterway = new Uint16Array(art.sections.get("edge_waterway")!.slice().buffer);
    const waterways = JSON.parse(new TextDecoder().decode(art.sections.get("names"))).waterways as Array<{
      name: string;
    }>;
    // A port is on a waterway when an edge at its node carries that water's name (curated or Natural Earth).
    const on = (node: number, waterway: RegExp) => {
      for (let a = arcStart[node]!; a < arcStart[node + 1]!; a++)
        if (waterway.test(waterways[edgeWaterway[arcEdge[a]! >> 1]!]!.name)) return true;
      return false;
    };
    const rows = parseMainRiverPorts();
    const unserved = rows.filter(
      (q) =>
        !riverPorts.ports.some(
          (p) =>
            haversineM(q.lat, q.lng, nodeCoord[p.node * 2]!, nodeCoord[p.node * 2 + 1]!) <= 5_000 &&
            on(p.node, q.waterway),
        ),
    );
    expect(unserved.map((q) => `${q.locode} ${q.name}`)).toEqual([]);
    expect(summary.ports.mainAdded + summary.ports.mainCovered).toBe(rows.length);
  });

  // Harbour positions: waterways.csv limits, the World Port Index, gateways.csv, the port authorities.
  test.each([
    ["Duisburg-Ruhrort", "DEDUI", 51.455, 6.73],
    ["Mannheim", "DEMHG", 49.5, 8.44],
    ["Strasbourg (Port du Rhin)", "FRSXB", 48.57, 7.79],
    ["Basel (Kleinhueningen)", "CHBSL", 47.59, 7.59],
    ["Linz", "ATLNZ", 48.316, 14.316],
    ["Vienna (Freudenau)", "ATVIE", 48.1702, 16.4879],
    ["Budapest (Csepel)", "HUCPE", 47.43, 19.06],
    ["Belgrade", "RSBEG", 44.8253, 20.4781],
    ["Constanta (Agigea canal entrance)", "ROCND", 44.09, 28.63],
    ["St Louis", "USSTL", 38.63, -90.18],
    ["Memphis (President's Island)", "USMEM", 35.0667, -90.1667],
    ["Chicago (Lake Calumet)", "USCHI", 41.68, -87.57],
    ["New Orleans", "USMSY", 29.95, -90.06],
    ["Shanghai (Waigaoqiao)", "CNSHA", 31.37, 121.58],
    ["Nanjing", "CNNKG", 32.1, 118.75],
    ["Wuhan", "CNWUH", 30.58, 114.29],
    ["Chongqing", "CNCQI", 29.56, 106.58],
  ] as Array<[string, string, number, number]>)(
    "%s: the main river port %s stands on the water within 10 km of its harbour",
    (_name, locode, lat, lng) => {
      const port = riverPorts.ports.find((p) => p.locode === locode);
      expect(port, `${locode} is no river port`).toBeDefined();
      const km = haversineM(lat, lng, nodeCoord[port!.node * 2]!, nodeCoord[port!.node * 2 + 1]!) / 1000;
      expect(km).toBeLessThanOrEqual(10);
    },
  );

  test("each channel length factor is the median published / drawn km of its calibration stretches", () => {
    const rows = summary.length_calibration as Array<{
      id: string;
      source: LineSource;
      published_km: number;
      graph_km: number;
      ratio: number;
      used: boolean;
      basis: string;
    }>;
    expect(rows.length).toBe(parseCalibration().length);
    const used = rows.filter((r) => r.used);
    expect(used.length).toBeGreaterThanOrEqual(40);
    for (const source of ["ne", "canal"] as const) {
      const ratios = used
        .filter((r) => r.source === source)
        .map((r) => r.published_km / r.graph_km)
        .sort((a, b) => a - b);
      expect(ratios.length).toBeGreaterThanOrEqual(15);
      const mid = ratios.length >> 1;
      const median = ratios.length % 2 ? ratios[mid]! : (ratios[mid - 1]! + ratios[mid]!) / 2;
      expect(summary.length_factors[source]).toBeCloseTo(median, 2);
      expect(summary.length_factors[source]).toBeGreaterThan(1);
    }
    // The graph's km are the drawn km times the factors (rounding: 1 km per source).
    for (const [source, km] of Object.entries(summary.km_geometric_by_source as Record<LineSource, number>)) {
      expect(
        Math.abs(summary.km_by_source[source] - km * summary.length_factors[source]),
      ).toBeLessThanOrEqual(summary.length_factors[source]);
    }
  });
});

/** The router build in data/build may predate river sections: then the routing checks wait for it. */
async function riverRouter() {
  if (!built || !existsSync(join(outDir, "router.wasm"))) return null;
  const router = await WasmRouter.instantiate(readFileSync(join(outDir, "router.wasm")));
  const path = join(outDir, "river.graph");
  try {
    return { router, g: router.load(new Uint8Array(readFileSync(path)), { kind: RIVER_GRAPH_KIND, path }) };
  } catch (err) {
    if (String(err).includes("unknown optional sections")) return null;
    throw err;
  }
}
const wasm = await riverRouter();

describe.skipIf(!wasm)("built river graph through the WASM router", () => {
  // Published river distances: Rhine km (Rotterdam ~1000 to Basel 170), Main + Main-Danube Canal +
  // Danube km, Danube km 300 (Cernavoda) to 1647 (Budapest) + the 64 km canal, USACE river miles.
  test.each([
    ["Rotterdam", "Basel", [51.905, 4.45], [47.585, 7.59], 830],
    ["Rotterdam", "Vienna", [51.905, 4.45], [48.2, 16.43], 1_540],
    ["Constanta", "Budapest", [44.1, 28.64], [47.5, 19.05], 1_410],
    ["New Orleans", "Chicago", [29.95, -90.06], [41.88, -87.63], 2_260],
  ] as Array<[string, string, [number, number], [number, number], number]>)(
    "%s to %s is joined by water",
    (_a, _b, from, to, km) => {
      const { router, g } = wasm!;
      const r = router.route(g.handle, from[0], from[1], to[0], to[1], 0, 0, false, { kind: "distance" });
      expect(r.status).toBe(STATUS.found);
      expect(r.metres / 1000).toBeGreaterThan(0.85 * km);
      expect(r.metres / 1000).toBeLessThan(1.15 * km);
    },
  );
});
