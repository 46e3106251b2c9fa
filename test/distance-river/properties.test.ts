/**
 * fast-check properties of river costs on random tiny river maps, through the real router.wasm:
 * a random tree of reaches (a river system) plus a few loops (canals, side arms), random speeds,
 * currents, classes, locks and seasonal rules.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { type RiverRoute, STATUS } from "../../router-wasm/binding/router.ts";
import { encodeRiver, type LatLng, type Reach, riverRouter } from "./map.ts";

const RULE_COUNT = 5;
const SIDE = 4;

const reachArb = fc.record({
  speedKmh: fc.constantFrom(10, 12.5),
  // Currents in 0.1 km/h steps, as the curated table gives them (the graph stores f32).
  current: fc.oneof(
    fc.constant(0),
    fc.integer({ min: -120, max: 120 }).map((d) => d / 10),
  ),
  cls: fc.integer({ min: 0, max: 11 }),
  locks: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 4 })),
  lockHours: fc.constantFrom(0.75, 1.25),
  rules: fc.uniqueArray(fc.integer({ min: 0, max: RULE_COUNT - 1 }), { maxLength: 2 }),
});

/** Nodes on a jittered grid; reach i + 1 joins node i + 1 to an earlier node (a tree), extras add loops. */
const mapArb = fc
  .record({
    n: fc.integer({ min: 3, max: SIDE * SIDE }),
    jitter: fc.array(fc.double({ min: 0, max: 0.1, noNaN: true }), {
      minLength: 2 * SIDE * SIDE,
      maxLength: 2 * SIDE * SIDE,
    }),
    parents: fc.array(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), {
      minLength: SIDE * SIDE,
      maxLength: SIDE * SIDE,
    }),
    extra: fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 4 }),
    attrs: fc.array(reachArb, { minLength: SIDE * SIDE + 4, maxLength: SIDE * SIDE + 4 }),
  })
  .map(({ n, jitter, parents, extra, attrs }) => {
    const nodes: LatLng[] = Array.from({ length: n }, (_, i) => [
      Math.floor(i / SIDE) * 0.3 + jitter[2 * i]!,
      (i % SIDE) * 0.3 + jitter[2 * i + 1]!,
    ]);
    const links: Array<[number, number]> = [];
    for (let i = 1; i < n; i++) links.push([Math.floor(parents[i]! * i), i]);
    for (const [a, b] of extra) if (a % n !== b % n) links.push([a % n, b % n]);
    const reaches: Reach[] = links.map(([from, to], i) => ({ from, to, waterway: 0, ...attrs[i]! }));
    return { nodes, reaches, tree: n - 1 };
  });

const WATERWAYS = [{ name: "River", class: "" }];
const RULES = Array.from({ length: RULE_COUNT }, (_, i) => ({ id: `R${i}` }));

// One instance for every run (instantiating one per map is what would take the time); each run
// loads its map and unloads it when done.
const router = await riverRouter();

function withMap(nodes: LatLng[], reaches: Reach[], run: (handle: number) => void): void {
  const { handle } = router.load(encodeRiver(nodes, reaches, WATERWAYS, RULES), { kind: "river-graph" });
  try {
    run(handle);
  } finally {
    router.unload(handle);
  }
}

const point = (nodes: LatLng[], i: number) => ({ lat: nodes[i]![0], lng: nodes[i]![1] });

describe("river cost properties (random tiny river maps)", () => {
  test("on every stretch with a current, downstream time < upstream time", () => {
    fc.assert(
      fc.property(mapArb, ({ nodes, reaches, tree }) =>
        // Only the tree: a reach is then the one way between its ends.
        withMap(nodes, reaches.slice(0, tree), (handle) => {
          for (const r of reaches.slice(0, tree)) {
            if (r.current === 0) continue;
            const [src, dst] = r.current > 0 ? [r.from, r.to] : [r.to, r.from];
            const down = router.routeRiver(handle, point(nodes, src), point(nodes, dst));
            const up = router.routeRiver(handle, point(nodes, dst), point(nodes, src));
            expect(down.status).toBe(STATUS.found);
            expect(up.status).toBe(STATUS.found);
            expect(down.river!.seconds).toBeLessThan(up.river!.seconds);
            expect(down.river!.downstreamM).toBeCloseTo(down.metres, 3);
            expect(up.river!.upstreamM).toBeCloseTo(up.metres, 3);
          }
        }),
      ),
      { numRuns: 60 },
    );
  });

  test("all factors 1 (seasonal off) is never slower than factors >= 1, and sections add up", () => {
    const factorArb = fc.array(
      fc.oneof(fc.constant(0), fc.constant(1), fc.double({ min: 1, max: 4, noNaN: true })),
      { minLength: RULE_COUNT, maxLength: RULE_COUNT },
    );
    fc.assert(
      fc.property(
        mapArb,
        factorArb,
        fc.constantFrom(1, 4),
        fc.nat(),
        fc.nat(),
        ({ nodes, reaches }, factors, avoid, a, b) =>
          withMap(nodes, reaches, (handle) => {
            const [from, to] = [point(nodes, a % nodes.length), point(nodes, b % nodes.length)];
            const off: RiverRoute = router.routeRiver(handle, from, to, { avoid });
            const on: RiverRoute = router.routeRiver(handle, from, to, { avoid, ruleFactors: factors });
            expect(off.status).toBe(STATUS.found);
            if (on.status === STATUS.noRoute) return;
            expect(on.status).toBe(STATUS.found);
            expect(off.cost).toBeLessThanOrEqual(on.cost * (1 + 1e-12));
            // Without the avoid penalty the search cost is the duration itself.
            if (avoid === 1) expect(off.river!.seconds).toBeLessThanOrEqual(on.river!.seconds * (1 + 1e-12));
            // Sections add up whatever the factors.
            for (const r of [off, on]) {
              const { downstreamM, upstreamM, slackM, waterwayMetres } = r.river!;
              expect(downstreamM + upstreamM + slackM).toBeCloseTo(r.metres, 3);
              expect(waterwayMetres[0]!).toBeCloseTo(r.metres, 3);
            }
          }),
      ),
      { numRuns: 150 },
    );
  });
});
