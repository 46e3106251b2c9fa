/**
 * The contraction hierarchy against A* on the real sea graph: for seeded random anchor pairs and
 * the closure masks the API uses, the same status, metres (to the metre), passages and path.
 */
import { describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type PathPoint, polylineM } from "../../common/geo.ts";
import { encodeGraph } from "../../data-build/graph/encode.ts";
import { seaHierarchyBytes } from "../../data-build/stages/sea-hierarchy.ts";
import { DEFAULT_MASK, maskOf, SAFE_CLOSED } from "../../engine/sea/policy.ts";
import { SEA_HIERARCHY, SeaRouter } from "../../engine/sea/router.ts";
import { STATUS, WasmRouter } from "../../router-wasm/binding/router.ts";
import { captureLogs } from "../helpers/logs.ts";
import { BUILD_DIR, seaRouter } from "./fixture.ts";

await seaRouter(); // builds sea.graph and router.wasm when missing
const read = (file: string) => new Uint8Array(readFileSync(join(BUILD_DIR, file)));
const wasm = await WasmRouter.instantiate(read("router.wasm"));
const graphBytes = read("sea.graph");
const hierarchyBytes = existsSync(join(BUILD_DIR, SEA_HIERARCHY))
  ? read(SEA_HIERARCHY)
  : seaHierarchyBytes(wasm, graphBytes, "test");
const astar = SeaRouter.fromBytes(wasm, graphBytes);
const ch = SeaRouter.fromBytes(wasm, graphBytes);
ch.attachHierarchy(hierarchyBytes);
// The hierarchy answers every query here (by default A* answers the easy ones first).
wasm.setAstarFirst(ch.handle, 0);

/** Seeded xorshift32 in [0, 1): the same pairs on every run. */
function random(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 2 ** 32;
  };
}

const PAIRS = 1000;
const rnd = random(0x9e3779b9);
// Points anywhere between the ice edges: they snap to a node or a lane point (an edge anchor).
const point = () => ({ lat: -60 + rnd() * 135, lng: -180 + rnd() * 360 });
const pairs = Array.from({ length: PAIRS }, () => ({ from: point(), to: point() }));
// A few short pairs too: both ends near each other, often on one lane (the same-edge case).
for (let i = 0; i < 100; i++) {
  const from = pairs[i]!.from;
  pairs.push({ from, to: { lat: from.lat + (rnd() - 0.5) * 2, lng: from.lng + (rnd() - 0.5) * 2 } });
}

const samePath = (a: PathPoint[], b: PathPoint[]) =>
  a.length === b.length && a.every((x, i) => x[0] === b[i]![0] && x[1] === b[i]![1]);

/** A two-lane sea graph: its hierarchy has the right kind and version, the wrong checksum. */
const tinyGraph = () =>
  encodeGraph(
    {
      kind: "sea-graph",
      mode: "sea",
      nodes: Float64Array.from([0, 0, 0, 1, 0, 2]),
      edges: [
        { from: 0, to: 1, metres: 111_195 },
        { from: 1, to: 2, metres: 111_195 },
      ],
      gates: [],
      zones: [],
      landmarkClosed: 0,
    },
    "tiny",
  );

const MASKS: Array<[string, number]> = [
  ["default", DEFAULT_MASK],
  ["+suez", DEFAULT_MASK | maskOf(["suez"])],
  ["+panama", DEFAULT_MASK | maskOf(["panama"])],
  ["+suez+panama+magellan+malacca", DEFAULT_MASK | maskOf(["suez", "panama", "magellan", "malacca"])],
  ["safe mode", DEFAULT_MASK | maskOf(SAFE_CLOSED)],
  ["nothing closed", 0],
];

describe("contraction hierarchy", () => {
  test("the router attached the hierarchy", () => {
    expect(ch.hierarchical).toBe(true);
    expect(astar.hierarchical).toBe(false);
  });

  // The default mask has its full top distance table from load. Another mask searches without one
  // until its 500th query (hierarchy::TABLE_AFTER), then with the smaller table it earned, and
  // from the last quarter of the pairs with a full one (prepared now, replacing the earned one).
  for (const [name, mask] of MASKS) {
    test(`same routes as A* for ${pairs.length} random anchor pairs: ${name}`, () => {
      let found = 0;
      let ties = 0;
      for (const [i, { from, to }] of pairs.entries()) {
        if (i === (pairs.length * 3) / 4) wasm.prepareTopTable(ch.handle, mask);
        const want = astar.routeRaw(from, to, mask, true);
        const got = ch.routeRaw(from, to, mask, true);
        expect(got.status).toBe(want.status);
        if (want.status !== STATUS.found) continue;
        found++;
        expect(Math.abs(got.metres - want.metres)).toBeLessThan(1);
        expect(got.gates).toEqual(want.gates);
        if (samePath(got.path!, want.path!)) {
          expect(got.zoneMetres.map(Math.round)).toEqual(want.zoneMetres.map(Math.round));
        } else {
          // An exact tie: lanes drawn twice along one meridian or parallel (once with more
          // points, or split by an ECA boundary differently), the same line and length to the
          // last bits; either answer is right.
          ties++;
          expect(Math.abs(got.metres - want.metres)).toBeLessThan(1e-6 * want.metres + 1e-6);
          expect(got.path![0]).toEqual(want.path![0]!);
          expect(got.path!.at(-1)).toEqual(want.path!.at(-1)!);
          const line = (path: PathPoint[]) => polylineM(path.flat());
          expect(Math.abs(line(got.path!) - line(want.path!))).toBeLessThan(1 + 1e-6 * want.metres);
        }
      }
      // Most random points reach each other by sea: the comparison is not vacuous.
      expect(found).toBeGreaterThan(pairs.length / 2);
      // Ties are the exception: paths are point for point the same otherwise.
      expect(ties).toBeLessThan(found * 0.15);
    }, 300_000);
  }

  test("the searcher tells which top tables it holds: the default's from load, a mask's from its 500th query", () => {
    const router = SeaRouter.fromBytes(wasm, graphBytes);
    try {
      router.attachHierarchy(hierarchyBytes);
      const [full] = wasm.topTables(router.handle);
      expect(wasm.topTables(router.handle)).toEqual([{ closed: DEFAULT_MASK, ranks: full!.ranks }]);
      expect(full!.ranks).toBeGreaterThan(0);
      const suez = DEFAULT_MASK | maskOf(["suez"]);
      const { from, to } = pairs[0]!;
      const queries = (n: number) => {
        for (let i = 0; i < n; i++) router.routeRaw(from, to, suez, false);
      };
      queries(499);
      expect(wasm.topTables(router.handle).map((t) => t.closed)).toEqual([DEFAULT_MASK]);
      queries(1);
      // Earned: a smaller table, now the most recently used.
      const earned = wasm.topTables(router.handle);
      expect(earned.map((t) => t.closed)).toEqual([DEFAULT_MASK, suez]);
      expect(earned[1]!.ranks).toBeLessThan(full!.ranks);
      expect(earned[1]!.ranks).toBeGreaterThan(0);
      router.routeRaw(from, to, DEFAULT_MASK, false);
      expect(wasm.topTables(router.handle).map((t) => t.closed)).toEqual([suez, DEFAULT_MASK]);
      // Preparing a mask that earned a table replaces it with a full one.
      wasm.prepareTopTable(router.handle, suez);
      expect(wasm.topTables(router.handle)).toEqual([
        { closed: DEFAULT_MASK, ranks: full!.ranks },
        { closed: suez, ranks: full!.ranks },
      ]);
      // A graph without a hierarchy holds none; an unknown handle is an error.
      expect(wasm.topTables(astar.handle)).toEqual([]);
    } finally {
      wasm.unload(router.handle);
    }
    expect(() => wasm.topTables(router.handle)).toThrow(/no graph loaded/);
  });

  test("a hierarchy of another graph, or another file, is refused, naming the file", () => {
    const foreign = seaHierarchyBytes(wasm, tinyGraph(), "tiny");
    for (const [bytes, why] of [
      [foreign, /built for another sea graph/],
      [graphBytes, /expected "sea-hierarchy"/],
    ] as const) {
      const router = SeaRouter.fromBytes(wasm, graphBytes);
      let message = "";
      try {
        router.attachHierarchy(bytes, "data/build/sea.hierarchy");
      } catch (err) {
        message = String(err);
      }
      expect(message).toMatch(why);
      expect(message).toMatch(/data\/build\/sea\.hierarchy.*npm run build/);
      // Refused means not served: the graph is unloaded with it.
      expect(() => wasm.graph(router.handle)).toThrow(/no graph loaded/);
    }
  });

  test("a build directory without sea.hierarchy routes with A* and says so; a stale one is refused", async () => {
    const dir = mkdtempSync(join(tmpdir(), "portolan-ch-"));
    try {
      for (const f of ["sea.graph", "router.wasm"]) copyFileSync(join(BUILD_DIR, f), join(dir, f));
      const logs = captureLogs("warn");
      let old: SeaRouter;
      try {
        old = await SeaRouter.load(dir);
      } finally {
        logs.restore();
      }
      expect(old.hierarchical).toBe(false);
      expect(logs.lines.map((l) => l.msg).join("\n")).toMatch(/sea\.hierarchy missing: sea routes use A\*/);
      const p = pairs[0]!;
      expect(old.routeRaw(p.from, p.to, DEFAULT_MASK, false).metres).toBe(
        astar.routeRaw(p.from, p.to, DEFAULT_MASK, false).metres,
      );
      writeFileSync(join(dir, SEA_HIERARCHY), seaHierarchyBytes(wasm, tinyGraph(), "tiny"));
      await expect(SeaRouter.load(dir)).rejects.toThrow(/sea\.hierarchy.*built for another sea graph/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("paths share one [lat, lng] array per graph point across routes; the query's own ends are its own", () => {
    // Two routes into Singapore from the Channel: they share the lanes from Gibraltar on.
    const sgsin = { lat: 1.26, lng: 103.84 };
    const paths = [
      { lat: 51.95, lng: 4.05 },
      { lat: 49.48, lng: 0.1 },
    ].map((from) => ch.routeRaw(from, sgsin, DEFAULT_MASK, true).path!);
    const [a, b] = paths as [PathPoint[], PathPoint[]];
    const key = (p: PathPoint) => `${p[0]},${p[1]}`;
    const inA = new Map(a.slice(1, -1).map((p) => [key(p), p]));
    const common = b.slice(1, -1).filter((p) => inA.has(key(p)));
    expect(common.length).toBeGreaterThan(100);
    for (const p of common) expect(p).toBe(inA.get(key(p))!);
    // The ends are where each query starts and stops, made for it.
    const again = ch.routeRaw({ lat: 51.95, lng: 4.05 }, sgsin, DEFAULT_MASK, true).path!;
    expect(again).toEqual(a);
    expect(again[0]).not.toBe(a[0]);
    expect(again.at(-1)).not.toBe(a.at(-1));
    expect(again[1]).toBe(a[1]);
    // A graph without a hierarchy (river, rail) makes each path's arrays afresh.
    const [c, d] = [0, 1].map(
      () => astar.routeRaw({ lat: 51.95, lng: 4.05 }, sgsin, DEFAULT_MASK, true).path!,
    );
    expect(d).toEqual(c!);
    expect(d![1]).not.toBe(c![1]);
  });
});
