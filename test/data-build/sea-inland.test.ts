/**
 * The sea graph's inland gate: tiny hand-made lanes, rivers and curated stretches on a
 * one-degree island, through the real input parsers, land raster and graph builder. A lane up a
 * non-seagoing river gets the "inland" gate from its last vertex at sea; a seagoing estuary, the
 * open sea and a lane over land do not.
 */
import { describe, expect, test } from "bun:test";
import type { Topology } from "topojson-specification";
import { polylineM } from "../../common/geo.ts";
import { round } from "../../common/round.ts";
import { missingCanalLines, naturalEarthLines, parseWaterways } from "../../data-build/river/inputs.ts";
import { CoastTest } from "../../data-build/river/sea.ts";
import type { LaneFeature } from "../../data-build/sea/gpkg.ts";
import { buildSeaGraph, PASSAGES, type SeaGraph } from "../../data-build/sea/graph.ts";
import { InlandWater, isSeagoing } from "../../data-build/sea/inland.ts";

/** Land: the square from 0,0 to 1,1 (degrees); sea all round. */
const island: Topology = {
  type: "Topology",
  objects: { land: { type: "GeometryCollection", geometries: [{ type: "Polygon", arcs: [[0]] }] } },
  arcs: [
    [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
      [0, 0],
    ],
  ],
};

/** A two-point GeoJSON line from lat,lng to lat,lng. */
const line = (properties: Record<string, string>, from: [number, number], to: [number, number]) => ({
  properties,
  geometry: { type: "LineString" as const, coordinates: [from.slice().reverse(), to.slice().reverse()] },
});
/** Natural Earth style river lines. */
const rivers = naturalEarthLines({
  features: [
    line({ featurecla: "River", name: "Barge River" }, [0.5, 1], [0.5, 0.3]),
    line({ featurecla: "River", name: "Ship Channel" }, [0, 0.2], [0.4, 0.2]),
    line({ featurecla: "River", name: "Quay River" }, [0.35, 1], [0.35, 0.4]),
    line({ featurecla: "River", name: "Twin River" }, [0.15, 1], [0.15, 0.5]),
    line({ featurecla: "River", name: "Link River" }, [0.95, 0], [0.95, 0.3]),
  ],
});
/** Hand-digitised canals: a barge canal that stops 5 km short of the coast, a sea canal. */
const canals = missingCanalLines({
  features: [
    line({ id: "T_CANAL", name: "Test Canal" }, [0.75, 0.95], [0.75, 0.6]),
    line({ id: "T_SEACANAL", name: "Sea Canal" }, [0.95, 0.3], [0.95, 0.6]),
  ],
});
const stretches = parseWaterways(
  [
    "id,waterway,ne_aliases,kind,from_place,from_lat,from_lng,to_place,to_lat,to_lng,cemt_class,us_channel_depth_ft,region,straight_km,ne_route_km",
    "T_BARGE,Barge River,Barge River,river,Mouth,0.5,1,Head,0.5,0.3,Vb,,Test,78,78",
    "T_CHANNEL,Ship Channel,Ship Channel,estuary,Mouth,0,0.2,Port,0.4,0.2,seagoing,,Test,44,44",
    "T_MOUTH,Twin River mouth,Twin River,estuary,Mouth,0.15,1,Port,0.15,0.8,VIc (seagoing),,Test,22,",
    "T_UPPER,Twin River upper,Twin River,river,Port,0.15,0.8,Head,0.15,0.5,Va,,Test,33,",
    "T_CANAL,Test Canal,,canal,East,0.75,0.95,West,0.75,0.6,IV,,Test,39,",
    "T_QUAY,Quay River,Quay River,river,Quay,0.35,0.7,Head,0.35,0.4,regional,,Test,33,60",
    "T_LINK,Link River,Link River,river,Coast,0.95,0,Junction,0.95,0.3,Va,,Test,33,33",
    "T_SEACANAL,Sea Canal,,canal,Junction,0.95,0.3,Port,0.95,0.6,seagoing,,Test,33,",
  ].join("\n"),
);
const inland = new InlandWater(new CoastTest(island), [...rivers, ...canals], stretches);
const INLAND = PASSAGES.findIndex((p) => p.id === "inland") + 1;

/** A lane along a parallel (or a meridian), a vertex every `step` degrees. */
function lane(from: [number, number], to: [number, number], step = 0.1): LaneFeature {
  const n = Math.round(Math.max(Math.abs(to[0] - from[0]), Math.abs(to[1] - from[1])) / step);
  const coords: number[] = [];
  for (let k = 0; k <= n; k++) {
    coords.push(from[0] + ((to[0] - from[0]) * k) / n, from[1] + ((to[1] - from[1]) * k) / n);
  }
  return { coords: Float64Array.from(coords), pass: null };
}

/** A lane through the given lat,lng vertices. */
const path = (...points: Array<[number, number]>): LaneFeature => ({
  coords: Float64Array.from(points.flat()),
  pass: null,
});

/** Each edge as "lat,lng -> lat,lng gate", in lane order. */
function describeEdges(g: SeaGraph): string[] {
  const at = (n: number) => `${round(g.nodes[n * 2]!, 2)},${round(g.nodes[n * 2 + 1]!, 2)}`;
  return g.edges.map((e) => `${at(e.from)} -> ${at(e.to)} ${e.gate === INLAND ? "inland" : e.gate}`);
}

describe("inland gate on hand-made lanes", () => {
  const cases: Array<{ name: string; lanes: LaneFeature[]; edges: string[]; gated: string[] }> = [
    {
      name: "a lane up a non-seagoing river is gated from its last vertex at sea",
      lanes: [lane([0.5, 1.3], [0.5, 0.4])],
      edges: ["0.5,1.3 -> 0.5,1 0", "0.5,1 -> 0.5,0.4 inland"],
      gated: ["T_BARGE"],
    },
    {
      name: "a lane up a seagoing estuary is not",
      lanes: [lane([-0.3, 0.2], [0.35, 0.2], 0.05)],
      edges: ["-0.3,0.2 -> 0.35,0.2 0"],
      gated: [],
    },
    {
      name: "an open-sea lane is not",
      lanes: [lane([2, 2], [2, 3])],
      edges: ["2,2 -> 2,3 0"],
      gated: [],
    },
    {
      name: "a lane over land far from any river is not (MARNET crosses small islands)",
      lanes: [lane([0.85, -0.2], [0.85, 1.2])],
      edges: ["0.85,-0.2 -> 0.85,1.2 0"],
      gated: [],
    },
    {
      name: "a lane straying from the river line between two reaches is gated through (a reservoir)",
      lanes: [
        path(
          [0.5, 1.3],
          [0.5, 1.2],
          [0.5, 1.1],
          [0.5, 1],
          [0.5, 0.9],
          [0.5, 0.8],
          [0.6, 0.75],
          [0.6, 0.65],
          [0.5, 0.6],
          [0.5, 0.5],
          [0.5, 0.4],
        ),
      ],
      edges: ["0.5,1.3 -> 0.5,1 0", "0.5,1 -> 0.5,0.4 inland"],
      gated: ["T_BARGE"],
    },
    {
      name: "seagoing mouth, barge river above: sea up to the mouth reach, gated above it",
      lanes: [lane([0.15, 1.3], [0.15, 0.5])],
      edges: ["0.15,1.3 -> 0.15,0.8 0", "0.15,0.8 -> 0.15,0.5 inland"],
      gated: ["T_UPPER"],
    },
    {
      name: "a barge reach starts at its listed end: the river below it stays sea (Bangkok)",
      lanes: [lane([0.35, 1.3], [0.35, 0.4])],
      edges: ["0.35,1.3 -> 0.35,0.8 0", "0.35,0.8 -> 0.35,0.4 inland"],
      gated: ["T_QUAY"],
    },
    {
      name: "a short reach into a dead end stays sea (a port up a river)",
      lanes: [lane([0.5, 1.3], [0.5, 0.9])],
      edges: ["0.5,1.3 -> 0.5,0.9 0"],
      gated: [],
    },
    {
      name: "the same reach on a lane that goes on up the river is gated",
      lanes: [lane([0.5, 1.3], [0.5, 0.9]), lane([0.5, 0.9], [0.5, 0.4])],
      edges: ["0.5,1.3 -> 0.5,1 0", "0.5,1 -> 0.5,0.9 inland", "0.5,0.9 -> 0.5,0.4 inland"],
      gated: ["T_BARGE"],
    },
    {
      name: "a barge reach from the sea to seagoing water stays sea (Antwerp to the Brussels canal)",
      lanes: [lane([0.95, -0.3], [0.95, 0.6])],
      edges: ["0.95,-0.3 -> 0.95,0.6 0"],
      gated: [],
    },
    {
      name: "a digitised canal is gated along its line, not past its end",
      lanes: [lane([0.75, 1.2], [0.75, 0.4])],
      edges: ["0.75,1.2 -> 0.75,1 0", "0.75,1 -> 0.75,0.6 inland", "0.75,0.6 -> 0.75,0.4 0"],
      gated: ["T_CANAL"],
    },
  ];
  test.each(cases)("$name", ({ lanes, edges, gated }) => {
    const g = buildSeaGraph(lanes, [], undefined, inland);
    expect(describeEdges(g)).toEqual(edges);
    expect(g.stats.inland!.byStretch.map((s) => s.id)).toEqual(gated);
    // Cutting keeps the lanes' geometry: the same length as the graph built without the gate.
    const km = (x: SeaGraph) => x.edges.reduce((s, e) => s + e.metres, 0) / 1000;
    expect(km(g)).toBeCloseTo(km(buildSeaGraph(lanes, [])), 6);
    const gatedKm = g.edges.filter((e) => e.gate === INLAND).reduce((s, e) => s + e.metres, 0) / 1000;
    expect(g.stats.inland!.km).toBe(Math.round(gatedKm));
  });

  test("a gated piece keeps the lane's own vertices between its cuts", () => {
    const l = lane([0.5, 1.3], [0.5, 0.4]);
    const g = buildSeaGraph([l], [], undefined, inland);
    const piece = g.edges.find((e) => e.gate === INLAND)!;
    const coords = [g.nodes[piece.from * 2]!, g.nodes[piece.from * 2 + 1]!, ...piece.inner];
    coords.push(g.nodes[piece.to * 2]!, g.nodes[piece.to * 2 + 1]!);
    expect(coords.map((x) => round(x, 6))).toEqual(Array.from(l.coords.slice(6)).map((x) => round(x, 6)));
    expect(piece.metres).toBeCloseTo(polylineM(l.coords.slice(6)), 6);
  });
});

describe("seagoing classes", () => {
  const cases: Array<[string, number | null, boolean]> = [
    ["seagoing", null, true],
    ["VIc (seagoing)", null, true],
    ["Vb / seagoing", null, true],
    ["Seaway (225.5 x 23.8 m)", 27, true],
    ["", 45, true],
    ["", 30, true],
    ["", 12, false],
    ["VIc", null, false],
    ["UDWS", null, false],
    ["river-sea", null, false],
    ["regional / river-sea below Komsomolsk", null, false],
  ];
  test.each(cases)("%p, %p ft -> %p", (cemt, ft, seagoing) => {
    expect(isSeagoing({ ...stretches[0]!, cemtClass: cemt, usDepthFt: ft })).toBe(seagoing);
  });
});
