/** fast-check properties of the sea router over real port positions. */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import fc from "fast-check";
import { densify, haversineM, type PathPoint } from "../../common/geo.ts";
import { readMarnet } from "../../data-build/sea/gpkg.ts";
import { EngineError } from "../../engine/errors.ts";
import { PASSAGE_IDS } from "../../engine/sea/policy.ts";
import type { SeaPoint, SeaRouteData } from "../../engine/sea/router.ts";
import { mainPorts, pub151, SOURCES, seaRouter } from "./fixture.ts";
import { landMask } from "./land.ts";

const r = await seaRouter();
const pool: SeaPoint[] = [...mainPorts(), ...pub151().flatMap((p) => [p.a, p.b])];
const pair = fc.tuple(
  fc.integer({ min: 0, max: pool.length - 1 }),
  fc.integer({ min: 0, max: pool.length - 1 }),
);
const RUNS = 300;

function plan(from: SeaPoint, to: SeaPoint, avoid: string[] = [], path = false): SeaRouteData | null {
  try {
    return r.plan({ from, to, avoid, path });
  } catch (err) {
    if (err instanceof EngineError && err.code === "no_route") return null;
    throw err;
  }
}

describe("sea router properties", () => {
  test("distance(a, b) is within 1 % of distance(b, a)", () => {
    fc.assert(
      fc.property(pair, ([i, j]) => {
        const ab = plan(pool[i]!, pool[j]!);
        const ba = plan(pool[j]!, pool[i]!);
        expect(ab === null).toBe(ba === null);
        if (ab && ba) {
          expect(Math.abs(ab.route.distance.nm - ba.route.distance.nm)).toBeLessThanOrEqual(
            0.01 * ab.route.distance.nm + 0.1,
          );
        }
      }),
      { numRuns: RUNS },
    );
  });

  test("avoiding passages never makes a route shorter", () => {
    fc.assert(
      fc.property(pair, fc.subarray([...PASSAGE_IDS], { minLength: 1, maxLength: 3 }), ([i, j], avoid) => {
        const base = plan(pool[i]!, pool[j]!);
        const avoided = plan(pool[i]!, pool[j]!, avoid);
        if (base && avoided) expect(avoided.route.distance.nm).toBeGreaterThanOrEqual(base.route.distance.nm);
        if (avoided) for (const p of avoided.route.passages) expect(avoid).not.toContain(p.id);
      }),
      { numRuns: RUNS },
    );
  });

  test("eca.nm + non_eca_nm = distance, zones add up to eca.nm", () => {
    fc.assert(
      fc.property(pair, ([i, j]) => {
        const d = plan(pool[i]!, pool[j]!);
        if (!d) return;
        const { eca, distance } = d.route;
        expect(Math.round((eca.nm + eca.non_eca_nm) * 10)).toBe(Math.round(distance.nm * 10));
        expect(Math.round(eca.zones.reduce((s, z) => s + z.nm, 0) * 10)).toBe(Math.round(eca.nm * 10));
        expect(eca.share).toBeGreaterThanOrEqual(0);
        expect(eca.share).toBeLessThanOrEqual(1);
      }),
      { numRuns: RUNS },
    );
  });

  test("path starts and ends at the snapped points and measures the distance", () => {
    fc.assert(
      fc.property(pair, ([i, j]) => {
        const d = plan(pool[i]!, pool[j]!, [], true);
        if (!d) return;
        const path = d.route.path!;
        const a = r.snap(pool[i]!.lat, pool[i]!.lng)!;
        const b = r.snap(pool[j]!.lat, pool[j]!.lng)!;
        expect(haversineM(path[0]![0], path[0]![1], a.lat, a.lng)).toBeLessThan(2);
        expect(haversineM(path.at(-1)![0], path.at(-1)![1], b.lat, b.lng)).toBeLessThan(2);
        let metres = 0;
        for (let k = 1; k < path.length; k++) metres += haversineM(...path[k - 1]!, ...path[k]!);
        expect(Math.abs(metres / 1852 - d.route.distance.nm)).toBeLessThan(0.002 * d.route.distance.nm + 0.5);
      }),
      { numRuns: RUNS },
    );
  });
});

describe("no route crosses land", () => {
  /** The network's resolution: a lane may cut a headland or islet by up to this much. */
  const TOLERANCE_KM = 20;
  const land = landMask();
  const lanes = readMarnet(join(SOURCES, "sea/marnet_plus_20km.gpkg"));
  const cellKey = (lat: number, lng: number) => `${Math.round(lat * 20)}:${Math.round(lng * 20)}`;
  const exempt = new Set<string>();
  const mark = (c: Float64Array) => {
    for (let k = 0; k < c.length; k += 2) {
      for (const dy of [-1, 0, 1])
        for (const dx of [-1, 0, 1]) exempt.add(cellKey(c[k]! + dy / 20, c[k + 1]! + dx / 20));
    }
  };
  // Canals and the narrowest straits are land at 10m scale: their gated lanes are exempt.
  for (const l of lanes) if (l.pass) mark(densify(l.coords, 1000));
  // So are MARNET's own lanes that already cut land by more than the tolerance (islands such as
  // the Canaries, Hawaii and the Kurils; Tsugaru; Jeju): a source-data gap this test reports but
  // does not own. What it does check is that nothing the build adds (shortcuts, snapping, path
  // assembly) crosses land.
  let sourceCrossings = 0;
  for (const l of lanes) {
    const c = densify(l.coords, 1000);
    const flags = Array.from({ length: c.length / 2 }, (_, k) => land.isLand(c[2 * k]!, c[2 * k + 1]!));
    if (interiorRunsKm(flags, 1).some((km) => km > TOLERANCE_KM)) {
      sourceCrossings++;
      mark(c);
    }
  }
  console.log(
    `MARNET 20 km: ${sourceCrossings} of ${lanes.length} source lanes cut land by > ${TOLERANCE_KM} km`,
  );

  /** Longest land run strictly inside the path, away from exempt lanes (runs touching an end are the port approach). */
  function longestInteriorLandKm(path: PathPoint[]): { km: number; at: [number, number] | null } {
    const flags: boolean[] = [];
    const pts: Array<[number, number]> = [];
    for (let k = 1; k < path.length; k++) {
      const [la0, lo0] = path[k - 1]!;
      const [la1, lo1] = path[k]!;
      const dLng = lo1 - lo0 > 180 ? lo1 - lo0 - 360 : lo1 - lo0 < -180 ? lo1 - lo0 + 360 : lo1 - lo0;
      const n = Math.max(1, Math.ceil(haversineM(la0, lo0, la1, lo1) / 1000));
      for (let s = 0; s < n; s++) {
        const lat = la0 + ((la1 - la0) * s) / n;
        const lng = lo0 + (dLng * s) / n;
        flags.push(land.isLand(lat, lng) && !exempt.has(cellKey(lat, lng > 180 ? lng - 360 : lng)));
        pts.push([lat, lng]);
      }
    }
    let best = { km: 0, at: null as [number, number] | null };
    runs(flags, (start, end) => {
      if (end - start > best.km) best = { km: end - start, at: pts[(start + end) >> 1]! };
    });
    return best;
  }

  test(`interior land runs stay within ${TOLERANCE_KM} km (world-atlas 10m land)`, () => {
    fc.assert(
      fc.property(pair, ([i, j]) => {
        const d = plan(pool[i]!, pool[j]!, [], true);
        if (!d) return;
        const run = longestInteriorLandKm(d.route.path!);
        const crossing = `${pool[i]!.name} -> ${pool[j]!.name}: ${run.km} km over land near ${run.at}`;
        expect(run.km > TOLERANCE_KM ? crossing : null).toBeNull();
      }),
      { numRuns: RUNS },
    );
  });
});

/** Calls back with [start, end) of every run of true flags that touches neither end. */
function runs(flags: boolean[], each: (start: number, end: number) => void): void {
  let start = -1;
  for (let k = 0; k <= flags.length; k++) {
    if (k < flags.length && flags[k]) {
      if (start < 0) start = k;
      continue;
    }
    if (start > 0 && k < flags.length) each(start, k);
    start = -1;
  }
}

function interiorRunsKm(flags: boolean[], stepKm: number): number[] {
  const out: number[] = [];
  runs(flags, (a, b) => out.push((b - a) * stepKm));
  return out;
}
