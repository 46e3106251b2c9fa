/**
 * River costs in the router, through the real router.wasm: a tiny river written by the data
 * build's writer, routed with the binding's routeRiver. Expected times are the contract's
 * formula over the map's own lengths (map.ts riverSeconds).
 *
 *                    C (0.25,0.6)                      T (0.3,1.2)
 *        canal, 3 locks /    \ canal                    | spur, class III (rule 3: closure)
 *                      /      \                         |
 *   R ==torrent== M ---- P1 -------- P2 ~~ main, bend via (0.12,1.0) ~~ P3 ---- L (0,1.6)
 *   (0,-0.3)    (0,0)  (0,0.4)     (0,0.8) --- side arm, class III --- (0,1.2)  2 locks, 1.25 h
 *
 * The main river (class Vb, then Va on the bend) flows from P3 to M at 4 km/h (3 km/h on the
 * bend); the torrent flows from M to R at 11 km/h. Rules: 0 ice on M-P1, 1 closure on P1-P2,
 * 2 low water on the bend, 3 closure of the spur.
 */
import { describe, expect, test } from "bun:test";
import { haversineM, type PathPoint, polylineM } from "../../common/geo.ts";
import { STATUS } from "../../router-wasm/binding/router.ts";
import { encodeRiver, type LatLng, loadRiver, type Reach, riverSeconds } from "./map.ts";

const [M, P1, P2, P3, C, T, L, R] = [0, 1, 2, 3, 4, 5, 6, 7] as const;
const NODES: LatLng[] = [
  [0, 0],
  [0, 0.4],
  [0, 0.8],
  [0, 1.2],
  [0.25, 0.6],
  [0.3, 1.2],
  [0, 1.6],
  [0, -0.3],
];
const BEND: LatLng = [0.12, 1.0];
const [ICE, MAIN_CLOSED, LOW_WATER, SPUR_CLOSED] = [0, 1, 2, 3] as const;
const WATERWAYS = [
  { name: "Main", class: "Vb" },
  { name: "Canal", class: "IV" },
  { name: "Side arm", class: "III" },
  { name: "Spur", class: "III" },
  { name: "Lock flight", class: "IV" },
  { name: "Torrent", class: "Va" },
];
const RULES = [{ id: "main-ice" }, { id: "main-closure" }, { id: "bend-low-water" }, { id: "spur-closure" }];
const REACHES: Reach[] = [
  { from: M, to: P1, speedKmh: 12.5, current: -4, cls: 6, waterway: 0, rules: [ICE] },
  { from: P1, to: P2, speedKmh: 12.5, current: -4, cls: 6, waterway: 0, rules: [MAIN_CLOSED] },
  { from: P2, to: P3, via: [BEND], speedKmh: 12.5, current: -3, cls: 5, waterway: 0, rules: [LOW_WATER] },
  { from: P1, to: C, speedKmh: 10, current: 0, cls: 4, waterway: 1, locks: 3 },
  { from: C, to: P2, speedKmh: 10, current: 0, cls: 4, waterway: 1 },
  { from: P2, to: P3, speedKmh: 12.5, current: 0, cls: 3, waterway: 2 },
  { from: P3, to: T, speedKmh: 10, current: 0, cls: 3, waterway: 3, rules: [SPUR_CLOSED] },
  { from: P3, to: L, speedKmh: 12.5, current: 0, cls: 4, waterway: 4, locks: 2, lockHours: 1.25 },
  { from: M, to: R, speedKmh: 12.5, current: 11, cls: 5, waterway: 5 },
];
const BYTES = encodeRiver(NODES, REACHES, WATERWAYS, RULES);
const { router, graph } = await loadRiver(BYTES);

const at = (i: number) => ({ lat: NODES[i]![0], lng: NODES[i]![1] });
const factorsWith = (set: Record<number, number> = {}) => RULES.map((_, i) => set[i] ?? 1);
const route = (from: number, to: number, set: Record<number, number> = {}, avoid = 4, path = false) =>
  router.routeRiver(graph.handle, at(from), at(to), { ruleFactors: factorsWith(set), avoid, path });

/** A stretch of the expected route: its points, over-ground km/h (before the floor), rule factor. */
interface Leg {
  pts: LatLng[];
  kmh: number;
  factor?: number;
}
interface Row {
  name: string;
  from: number;
  to: number;
  rules?: Record<number, number>;
  avoid?: number;
  /** null = no route. */
  legs: Leg[] | null;
  lockHours?: number;
  locks?: number;
}
const p = (...ix: Array<number | LatLng>): LatLng[] => ix.map((i) => (typeof i === "number" ? NODES[i]! : i));

const ROWS: Row[] = [
  { name: "downstream P1 -> M at 12.5 + 4 km/h", from: P1, to: M, legs: [{ pts: p(P1, M), kmh: 12.5 + 4 }] },
  { name: "upstream M -> P1 at 12.5 - 4 km/h", from: M, to: P1, legs: [{ pts: p(M, P1), kmh: 12.5 - 4 }] },
  { name: "down the torrent at 12.5 + 11 km/h", from: M, to: R, legs: [{ pts: p(M, R), kmh: 12.5 + 11 }] },
  {
    name: "up the torrent: 12.5 - 11 km/h floored at 3 km/h over ground",
    from: R,
    to: M,
    legs: [{ pts: p(R, M), kmh: 12.5 - 11 }],
  },
  {
    name: "main river closed: detour by the canal, a flight of 3 locks at 0.75 h",
    from: P1,
    to: P2,
    rules: { [MAIN_CLOSED]: 0 },
    legs: [{ pts: p(P1, C, P2), kmh: 10 }],
    lockHours: 3 * 0.75,
    locks: 3,
  },
  {
    name: "2 locks at 1.25 h where the data says so (North America)",
    from: P3,
    to: L,
    legs: [{ pts: p(P3, L), kmh: 12.5 }],
    lockHours: 2 * 1.25,
    locks: 2,
  },
  {
    name: "class III side arm avoided: the longer class Va bend, upstream",
    from: P2,
    to: P3,
    legs: [{ pts: p(P2, BEND, P3), kmh: 12.5 - 3 }],
  },
  {
    name: "avoid 1: the class III side arm is quicker",
    from: P2,
    to: P3,
    avoid: 1,
    legs: [{ pts: p(P2, P3), kmh: 12.5 }],
  },
  {
    name: "class III spur used when it is the only way: real km and hours",
    from: P3,
    to: T,
    legs: [{ pts: p(P3, T), kmh: 10 }],
  },
  { name: "spur closed: no route", from: P3, to: T, rules: { [SPUR_CLOSED]: 0 }, legs: null },
  {
    name: "ice x2 on M-P1 only",
    from: P2,
    to: M,
    rules: { [ICE]: 2 },
    legs: [
      { pts: p(P2, P1), kmh: 12.5 + 4 },
      { pts: p(P1, M), kmh: 12.5 + 4, factor: 2 },
    ],
  },
  {
    name: "low water x1.5 on the bend only",
    from: P1,
    to: P3,
    rules: { [LOW_WATER]: 1.5 },
    legs: [
      { pts: p(P1, P2), kmh: 12.5 - 4 },
      { pts: p(P2, BEND, P3), kmh: 12.5 - 3, factor: 1.5 },
    ],
  },
];

describe("river costs (tiny river, real router.wasm)", () => {
  test.each(ROWS)("$name", (row) => {
    const r = route(row.from, row.to, row.rules, row.avoid);
    if (row.legs === null) {
      expect(r.status).toBe(STATUS.noRoute);
      expect(r.river).toBeNull();
      return;
    }
    expect(r.status).toBe(STATUS.found);
    const river = r.river!;
    const metres = row.legs.reduce((s, l) => s + polylineM(l.pts.flat()), 0);
    const lockS = (row.lockHours ?? 0) * 3600;
    const seconds = row.legs.reduce(
      (s, l) => s + riverSeconds(polylineM(l.pts.flat()), l.kmh, 0, l.factor),
      lockS,
    );
    expect(r.metres).toBeCloseTo(metres, 3);
    expect(river.seconds).toBeCloseTo(seconds, 3);
    expect(river.lockSeconds).toBeCloseTo(lockS, 6);
    expect(river.locks).toBe(row.locks ?? 0);
    expect(river.downstreamM + river.upstreamM + river.slackM).toBeCloseTo(r.metres, 3);
    expect(river.waterwayMetres.reduce((a, b) => a + b, 0)).toBeCloseTo(r.metres, 3);
    // The search cost carries the class avoid factor; the reported duration never does.
    expect(r.cost).toBeGreaterThanOrEqual(river.seconds - 1e-6);
  });

  test("downstream is faster than upstream on every stretch with a current, never below 3 km/h", () => {
    for (const reach of REACHES.filter((x) => x.current !== 0)) {
      // current > 0 flows from -> to: that way is downstream.
      const [src, dst] = reach.current > 0 ? [reach.from, reach.to] : [reach.to, reach.from];
      const down = route(src, dst);
      const up = route(dst, src);
      expect(down.river!.seconds).toBeLessThan(up.river!.seconds);
      expect(down.river!.downstreamM).toBeCloseTo(down.metres, 3);
      expect(up.river!.upstreamM).toBeCloseTo(up.metres, 3);
      const overGroundKmh = up.metres / 1000 / (up.river!.seconds / 3600 / 1.1);
      expect(overGroundKmh).toBeGreaterThanOrEqual(3 - 1e-9);
    }
  });

  test("a closure forces the detour; opening it again takes the main river", () => {
    const open = route(P1, P2, {}, 4, true);
    const closed = route(P1, P2, { [MAIN_CLOSED]: 0 }, 4, true);
    const passes = (path: PathPoint[] | undefined, n: number) =>
      (path ?? []).some(([lat, lng]) => haversineM(lat, lng, NODES[n]![0], NODES[n]![1]) < 1);
    expect(passes(open.path, C)).toBe(false);
    expect(passes(closed.path, C)).toBe(true);
    expect(closed.river!.seconds).toBeGreaterThan(open.river!.seconds);
    expect(open.river!.ruleMetres[MAIN_CLOSED]).toBeCloseTo(open.metres, 3);
    expect(closed.river!.ruleMetres[MAIN_CLOSED]).toBe(0);
  });

  test("per-waterway and per-rule km add up to the route km", () => {
    const r = route(R, T, { [ICE]: 1.2, [LOW_WATER]: 1.5 });
    expect(r.status).toBe(STATUS.found);
    const river = r.river!;
    const len = (i: number) =>
      polylineM([NODES[REACHES[i]!.from]!, ...(REACHES[i]!.via ?? []), NODES[REACHES[i]!.to]!].flat());
    // R -> M -> P1 -> P2 -> bend -> P3 -> T: torrent, main (3 reaches), spur.
    expect(r.metres).toBeCloseTo(len(8) + len(0) + len(1) + len(2) + len(6), 3);
    expect(river.waterwayMetres).toHaveLength(WATERWAYS.length);
    expect(river.waterwayMetres[0]).toBeCloseTo(len(0) + len(1) + len(2), 3);
    expect(river.waterwayMetres[3]).toBeCloseTo(len(6), 3);
    expect(river.waterwayMetres[5]).toBeCloseTo(len(8), 3);
    expect(river.waterwayMetres.reduce((a, b) => a + b, 0)).toBeCloseTo(r.metres, 3);
    expect(river.ruleMetres).toHaveLength(RULES.length);
    for (const [rule, reach] of [0, 1, 2, 6].entries())
      expect(river.ruleMetres[rule]).toBeCloseTo(len(reach), 3);
    // Every reach of this route but the torrent carries one rule: rules + torrent = the route.
    expect(river.ruleMetres.reduce((a, b) => a + b, 0) + len(8)).toBeCloseTo(r.metres, 3);
    expect(river.upstreamM).toBeCloseTo(len(8) + len(0) + len(1) + len(2), 3);
    expect(river.slackM).toBeCloseTo(len(6), 3);
  });

  test("one-to-many agrees with point-to-point (cost, metres, real seconds)", () => {
    const targets = NODES.map((_, i) => at(i));
    for (const [set, avoid] of [
      [{}, 4],
      [{ [MAIN_CLOSED]: 0, [LOW_WATER]: 2 }, 4],
      [{ [SPUR_CLOSED]: 0, [ICE]: 3 }, 1],
    ] as Array<[Record<number, number>, number]>) {
      for (let from = 0; from < NODES.length; from++) {
        const many = router.oneToManyResult(graph.handle, at(from), targets, 0, {
          objective: { kind: "river", ruleFactors: factorsWith(set), avoid },
        });
        expect(many.status).toBe(STATUS.found);
        targets.forEach((_, to) => {
          const r = route(from, to, set, avoid);
          if (r.status === STATUS.noRoute) {
            expect(many.cost[to]).toBe(Number.POSITIVE_INFINITY);
            return;
          }
          expect(many.cost[to]!).toBeCloseTo(r.cost, 6);
          expect(many.metres[to]!).toBeCloseTo(r.metres, 6);
          expect(many.real[to]!).toBeCloseTo(r.river!.seconds, 6);
        });
      }
    }
  });

  test("rule factors below 1, avoid below 1 or too few factors are bad queries", () => {
    const bad = (opts: { ruleFactors?: number[]; avoid?: number }) =>
      router.routeRiver(graph.handle, at(M), at(P3), opts).status;
    expect(bad({ ruleFactors: [1, 0.5, 1, 1] })).toBe(STATUS.badQuery);
    expect(bad({ ruleFactors: [1, 1, 1] })).toBe(STATUS.badQuery);
    expect(bad({ avoid: 0.5 })).toBe(STATUS.badQuery);
    // Defaults: every rule off (factor 1), avoid 4.
    expect(bad({})).toBe(STATUS.found);
  });

  test("the distance objective on a river graph is unchanged; names must cover the rules", () => {
    const d = router.route(graph.handle, 0, 0, 0, 1.2, 0, 0, false);
    expect(d.status).toBe(STATUS.found);
    // Shortest in metres: M-P1-P2, then the straight side arm.
    expect(d.metres).toBeCloseTo(haversineM(0, 0, 0, 1.2), 3);
    const short = encodeRiver(NODES, REACHES, WATERWAYS, RULES.slice(0, 2));
    expect(() => router.load(short, { kind: "river-graph", path: "short.graph" })).toThrow(
      /edges use 4 rules but names lists 2/,
    );
  });
});
