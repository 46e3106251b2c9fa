/**
 * A tiny hand-made world for the door-to-door planner, every layer through the real pipeline and
 * one real router.wasm instance: a sea graph (encodeGraph, the build's passage list), six main
 * container ports, a road table (test/support/tiny-road.ts), a rail line with UN/LOCODE railheads
 * (the rail build's own functions), two large cargo airports (encodeCargoAirports), and a river
 * with a sea gateway, four river ports and a seasonal closure (encodeRiver, the river artifacts).
 *
 *   lat 2.4         F (rail to W1: 372 km)          Z (far inland north of W3)
 *                   |RF
 *   lat 0.4   O  RO-+ RPO=====bend==========Long Canal (CLO1 in January)=========RPD   D   D2
 *             |     |          ||                                                      |
 *   lat -0.95 W2 W1 RW   W3====GW (river mouth)        (Q at lat 0.4 lng 2.6)      E3 E1  E2
 *            Coast Canal from RPW (beside W3) to GW; RPG 2 km up the West River from GW;
 *            doors R (5 km from W3) and G (5 km from GW)
 *   lat -1    ~~~~~~~~~~~~~~~~~~~~~ sea lane, lng 0 .. 10 (Suez gate at lng 5-6, detour south) ~~~~~
 *                               RW ===================== rail along the coast ============= RE - RD
 *
 * Road lengths are the great circle x 1.3 (the road model's own circuity), so expected road km
 * follow from the map.
 */
import { haversineM } from "../../common/geo.ts";
import { encodeGraph, type GraphEdge } from "../../data-build/graph/encode.ts";
import {
  buildRailGraph,
  dropRepeatedDuplicates,
  type RailFeature,
  railLines,
} from "../../data-build/rail/network.ts";
import { collectRailPlaces, snapRailheads } from "../../data-build/rail/railheads.ts";
import { parseSeasonalRules } from "../../data-build/river/seasonal-calendar.ts";
import type { RoadNode } from "../../data-build/road/network.ts";
import { GRAPH_KIND, landmarkClosedMask, PASSAGES } from "../../data-build/sea/graph.ts";
import { AirPlanner } from "../../engine/air/planner.ts";
import type { Place } from "../../engine/multimodal/options.ts";
import { MultimodalPlanner } from "../../engine/multimodal/planner.ts";
import { RailPlanner } from "../../engine/rail/planner.ts";
import { RiverPlanner } from "../../engine/river/planner.ts";
import type { RoadRoutePlanner } from "../../engine/road/planner.ts";
import { SeaRouter } from "../../engine/sea/router.ts";
import { encodeCargoAirports } from "../../formats/cargo-airports.ts";
import { encodeRailheads } from "../../formats/railheads.ts";
import type { SeaGateway } from "../../formats/river-ports.ts";
import { encodeRiverPorts } from "../../formats/river-ports.ts";
import { encodeRiverRules } from "../../formats/river-rules.ts";
import { encodeRiver, type LatLng, type Reach } from "../distance-river/map.ts";
import { roadLinker, roadNode, routerWasm, tinyRoadPlanner } from "../support/tiny-road.ts";

export const ROAD_FACTOR = 1.3;
const gcM = (a: LatLng, b: LatLng) => haversineM(a[0], a[1], b[0], b[1]);

// ---- places --------------------------------------------------------------------------------
export const AT = {
  O: [0.4, 1.0],
  D: [0.4, 9.0],
  D2: [0.4, 10.6],
  F: [2.4, 1.0],
  Q: [0.4, 2.6],
  Z: [2.8, 2.0],
  W1: [-0.95, 1.0],
  W2: [-0.95, 0.0],
  W3: [-0.95, 2.0],
  E1: [-0.95, 9.0],
  E2: [-0.95, 10.0],
  E3: [-0.95, 8.0],
  RF: [2.4, 1.05],
  RO: [0.4, 1.05],
  RW: [-0.9, 1.05],
  RE: [-0.9, 9.05],
  RD: [0.4, 9.05],
  AO: [0.6, 1.2],
  AD: [0.6, 8.8],
  GW: [-0.95, 3.0],
  BEND: [0.4, 3.0],
  RPO: [0.4, 1.6],
  RPD: [0.4, 8.4],
  RPG: [-0.93, 3.0],
  RPW: [-0.95, 2.02],
  R: [-0.92, 2.03],
  G: [-0.92, 3.03],
} as const satisfies Record<string, LatLng>;
export type Name = keyof typeof AT;

/** A door (an address): what the API hands the planner. */
export const door = (name: Name): Place => ({ kind: "address", name, lat: AT[name][0], lng: AT[name][1] });

/** The main container ports as the location index lists them. */
export const MAIN_PORTS = (["W1", "W2", "W3", "E1", "E2", "E3"] as const).map(
  (n): Place => ({
    kind: "port",
    name: `Port ${n}`,
    locode: `XA${n}P`,
    country_code: "XA",
    lat: AT[n][0],
    lng: AT[n][1],
  }),
);
export const mainPort = (n: "W1" | "W2" | "W3" | "E1" | "E2" | "E3") =>
  MAIN_PORTS.find((p) => p.name === `Port ${n}`)!;

// ---- sea -------------------------------------------------------------------------------------
/** Lane nodes 0..10 at lat -1, lng 0..10; node 11 is the detour south of the gate. */
const SEA_NODES: LatLng[] = [...Array.from({ length: 11 }, (_, i): LatLng => [-1, i]), [-3, 5.5]];
const SUEZ = PASSAGES.findIndex((p) => p.id === "suez") + 1;
const seaEdge = (a: number, b: number, gate = 0): GraphEdge => ({
  from: a,
  to: b,
  metres: gcM(SEA_NODES[a]!, SEA_NODES[b]!),
  gate,
  zones: [],
});
const SEA_EDGES: GraphEdge[] = [
  ...Array.from({ length: 10 }, (_, i) => seaEdge(i, i + 1, i === 5 ? SUEZ : 0)),
  seaEdge(5, 11),
  seaEdge(11, 6),
];

// ---- road ------------------------------------------------------------------------------------
const ROADS: Array<[Name, Name]> = [
  ["O", "W1"],
  ["O", "W2"],
  ["O", "W3"],
  ["O", "RPO"],
  ["O", "RO"],
  ["O", "AO"],
  ["O", "D"],
  ["O", "Q"],
  ["O", "F"],
  ["D", "E1"],
  ["D", "E2"],
  ["D", "E3"],
  ["D", "RPD"],
  ["D", "RD"],
  ["D", "AD"],
  ["D", "D2"],
  ["D2", "E2"],
  ["F", "RF"],
  ["F", "W1"],
  ["RW", "W1"],
  ["RE", "E1"],
  ["Q", "W3"],
  ["Z", "W3"],
  ["R", "W3"],
  ["R", "RPW"],
  ["G", "W3"],
  ["G", "RPG"],
];
export const roadKm = (a: Name, b: Name) => (gcM(AT[a], AT[b]) * ROAD_FACTOR) / 1000;

// ---- rail ------------------------------------------------------------------------------------
const feature = (coords: LatLng[]): RailFeature => ({
  properties: { featurecla: "Railroad", part: "ne_global_not_north_america", continent: "Test" },
  geometry: { type: "LineString", coordinates: coords.map(([lat, lng]) => [lng, lat]) },
});
const RAIL = [feature([AT.RF, AT.RO, AT.RW, AT.RE, AT.RD])];
const RAILHEADS: Name[] = ["RF", "RO", "RW", "RE", "RD"];
const UNLOCODE_CSV = [
  "country,location,name,nameWoDiacritics,subdivision,status,function,iata,lat,lon,geocoded",
  ...RAILHEADS.map((n) => `XA,${n}X,${n},${n},,RL,-2------,,${AT[n][0]},${AT[n][1]},`),
].join("\n");

// ---- air -------------------------------------------------------------------------------------
const AIRPORTS_CSV = [
  "iata,icao,name,country,lat,lon,tz,ourairports_type,tier",
  `AOX,XAOX,Airport AO,XA,${AT.AO[0]},${AT.AO[1]},UTC,large_airport,1`,
  `ADX,XADX,Airport AD,XA,${AT.AD[0]},${AT.AD[1]},UTC,large_airport,1`,
].join("\n");

// ---- river -----------------------------------------------------------------------------------
/** River nodes: 0 the mouth (gateway), 1 the bend, 2 RPO, 3 RPD, 4 RPG, 5 RPW. */
const RIVER_NODES: LatLng[] = [AT.GW, AT.BEND, AT.RPO, AT.RPD, AT.RPG, AT.RPW];
const WATERWAYS = [
  { name: "", class: "" },
  { name: "West River", class: "Vb" },
  { name: "Long Canal", class: "Va" },
  { name: "Coast Canal", class: "Va" },
];
const REACHES: Reach[] = [
  // The West River flows from RPO to the bend and on past RPG, 2 km from its mouth, to the sea.
  { from: 1, to: 4, speedKmh: 12.5, current: 2, cls: 6, waterway: 1 },
  { from: 4, to: 0, speedKmh: 12.5, current: 2, cls: 6, waterway: 1 },
  { from: 2, to: 1, speedKmh: 12.5, current: 2, cls: 6, waterway: 1 },
  { from: 1, to: 3, speedKmh: 10, current: 0, cls: 5, waterway: 2, rules: [0] },
  // The Coast Canal joins RPW, beside main port W3, to the West River mouth.
  { from: 5, to: 0, speedKmh: 10, current: 0, cls: 5, waterway: 3 },
];
const RULES_JSON = JSON.stringify([
  {
    id: "CLO1",
    type: "ice_closure",
    waterway: "Long Canal",
    segment: "bend to RPD",
    typical_window: "January",
    effect: "closed by ice",
    sources: ["https://example.org/canal"],
  },
]);
const CALENDAR = "id,kind,from,to,time_factor,basis\nCLO1,closure,01-01,01-31,,test\n";
const riverPort = (name: "RPO" | "RPD" | "RPG" | "RPW", node: number) => ({
  locode: `XA${name}`,
  name: `River port ${name}`,
  country: "XA",
  lat: AT[name][0],
  lng: AT[name][1],
  node,
  snapKm: 0,
  source: "unlocode" as const,
  harbour: "",
  geocoded: false,
});
const GATEWAY: SeaGateway = {
  id: "gw:XAGWX",
  name: "West River mouth",
  locode: "XAGWX",
  source: "curated",
  waterwayId: "WEST",
  lat: AT.GW[0],
  lng: AT.GW[1],
  riverNode: 0,
  riverSnapKm: 0,
  joinNode: 0,
  joinRiverKm: 0,
  seaNode: 3,
  seaLat: -1,
  seaLng: 3,
  seaKm: gcM(AT.GW, [-1, 3]) / 1000,
};

export interface World {
  planner: MultimodalPlanner;
  road: RoadRoutePlanner;
  sea: SeaRouter;
  rail: RailPlanner;
  air: AirPlanner;
  river: RiverPlanner;
}

export async function tinyWorld(): Promise<World> {
  const wasm = await routerWasm();
  const sea = SeaRouter.fromBytes(
    wasm,
    encodeGraph(
      {
        kind: GRAPH_KIND,
        mode: "sea",
        nodes: Float64Array.from(SEA_NODES.flat()),
        edges: SEA_EDGES,
        gates: PASSAGES,
        zones: [],
        landmarkClosed: landmarkClosedMask(),
      },
      "tiny-sea",
    ),
    "tiny/sea.graph",
  );
  const names = new Set<Name>(ROADS.flat());
  const nodes: RoadNode[] = [...names].map((n) => roadNode(n, AT[n][0], AT[n][1]));
  const link = roadLinker(nodes);
  const tiny = await tinyRoadPlanner(
    nodes,
    ROADS.map(([a, b]) => link(a, b, "road", roadKm(a, b) * 1000)),
    wasm,
  );
  const road: RoadRoutePlanner = { plan: async (req) => tiny.planner.plan(req) };
  const railGraph = buildRailGraph(dropRepeatedDuplicates(railLines(RAIL)).kept);
  const heads = snapRailheads(collectRailPlaces([UNLOCODE_CSV]), railGraph);
  const rail = RailPlanner.fromBytes(
    wasm,
    encodeGraph(
      {
        kind: "rail-graph",
        mode: "rail",
        nodes: railGraph.nodes,
        edges: railGraph.edges,
        gates: [],
        zones: [],
        landmarkClosed: 0,
      },
      "tiny-rail",
    ),
    encodeRailheads(heads, { railheads: heads.length }, "tiny-rail"),
    { graph: "tiny/rail.graph", railheads: "tiny/railheads.bin" },
  );
  const air = AirPlanner.fromBytes(
    encodeCargoAirports(AIRPORTS_CSV, "tiny-air"),
    "tiny/cargo-airports.bin",
  ).planner;
  const rules = parseSeasonalRules(RULES_JSON, CALENDAR);
  const river = RiverPlanner.fromBytes(wasm, {
    graph: encodeRiver(RIVER_NODES, REACHES, WATERWAYS, rules),
    ports: encodeRiverPorts(
      [riverPort("RPO", 2), riverPort("RPD", 3), riverPort("RPG", 4), riverPort("RPW", 5)],
      [GATEWAY],
      {},
      "tiny-river",
    ),
    rules: encodeRiverRules(rules, "tiny-river"),
  });
  const planner = new MultimodalPlanner({
    sea,
    ports: async () => MAIN_PORTS,
    rail: async () => rail,
    air: async () => air,
    river: async () => river,
  });
  return { planner, road, sea, rail, air, river };
}
