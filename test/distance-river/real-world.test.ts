/**
 * River distances against published river kilometres (the spec's "Real-world checks"): five pairs
 * from city-centre coordinates through the real build (river.graph, river-ports.bin, router.wasm)
 * and the real road planner for the access legs. Each RIVER section's km lies within 10 % of the
 * distance the waterway authority's kilometre or mile system gives, and its waterways[] name the
 * rivers a bargeman would. Nothing here tunes the build: the channel length factor
 * (data-build/river/length.ts) is calibrated on other stretches, and the last test checks that
 * none of them lies on these routes.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { defaultDirs } from "../../data-build/pipeline.ts";
import { parseWaterways } from "../../data-build/river/inputs.ts";
import { parseCalibration } from "../../data-build/river/length.ts";
import { RiverPlanner } from "../../engine/river/planner.ts";
import { RoadPlanner, type RoadRoutePlanner } from "../../engine/road/planner.ts";

const { outDir, sourcesDir } = defaultDirs();
const built = ["river.graph", "river-ports.bin", "river-rules.bin", "road.graph", "router.wasm"].every((f) =>
  existsSync(join(outDir, f)),
);

interface Pair {
  from: { name: string; lat: number; lng: number };
  to: { name: string; lat: number; lng: number };
  /** Published distance along the water between the two cities' ports. */
  km: number;
  /** The kilometre or mile system behind `km` and its authority. */
  source: string;
  /** The waterways a bargeman names for the trip: each must be one of waterways[] (by pattern). */
  waterways: RegExp[];
}

const PAIRS: Pair[] = [
  {
    from: { name: "Rotterdam", lat: 51.9225, lng: 4.47917 },
    to: { name: "Basel", lat: 47.5584, lng: 7.57327 },
    km: 834,
    source:
      "CCNR Rhine kilometres (km 0 at Konstanz): Rotterdam on the Nieuwe Maas ~km 1000, Basel Mittlere Bruecke km 166",
    waterways: [/Rhine/],
  },
  {
    from: { name: "Rotterdam", lat: 51.9225, lng: 4.47917 },
    to: { name: "Vienna", lat: 48.20849, lng: 16.37208 },
    km: 1_548,
    source:
      "CCNR Rhine km Rotterdam ~1000 to Mainz 498 (502 km); WSV/ELWIS Main km 0 (Mainz-Kostheim) to 384 (Bamberg); " +
      "WSV Main-Danube Canal km 0 (Bamberg) to 171 (Kelheim); Danube Commission km 2411 (Kelheim) to 1920 (Vienna Freudenau, 491 km)",
    waterways: [/Rhine/, /^Main Mainz/, /^Main-Danube Canal/, /^Danube /],
  },
  {
    from: { name: "Constanta", lat: 44.18073, lng: 28.63432 },
    to: { name: "Budapest", lat: 47.49801, lng: 19.03991 },
    km: 1_411,
    source:
      "ACN Danube-Black Sea Canal 64 km (Agigea to Cernavoda); Danube Commission km 300 (Cernavoda) to 1647 (Budapest), 1,347 km",
    waterways: [/^Danube-Black Sea Canal/, /^Danube /],
  },
  {
    from: { name: "New Orleans", lat: 29.95465, lng: -90.07507 },
    to: { name: "Chicago", lat: 41.85003, lng: -87.65005 },
    km: 2_259,
    source:
      "USACE river miles: Lower Mississippi AHP mile 95 (New Orleans) to 954 (Cairo); Upper Mississippi mile 0 (Cairo) to 218 " +
      "(Grafton); Illinois Waterway mile 0 (Grafton) to 327 (Chicago Lock); 1,404 statute miles",
    waterways: [/Mississippi/, /^Illinois Waterway/],
  },
  {
    from: { name: "Shanghai", lat: 31.22222, lng: 121.45806 },
    to: { name: "Wuhan", lat: 30.58333, lng: 114.26667 },
    km: 1_080,
    source:
      "Changjiang trunk waterway mileage (Encyclopedia of China, Nanjing Port): Wusongkou (Shanghai) to Nanjing 347 km, " +
      "Nanjing to Wuhan 733 km; the river mouth lies ~45 km farther seaward (Hankou to the mouth 1,125 km)",
    waterways: [/Yangtze/],
  },
];

interface RiverSection {
  transport_mode: string;
  distance: { km: number };
  from: { locode: string };
  to: { locode: string };
  waterways: Array<{ name: string; km: number }>;
}

describe.skipIf(!built)("river routes against published river kilometres", () => {
  const barge = new Map<Pair, RiverSection>();

  beforeAll(async () => {
    const river = await RiverPlanner.load(outDir);
    const roadModel = await RoadPlanner.load(outDir);
    const road: RoadRoutePlanner = { plan: async (req) => roadModel.plan(req) };
    const lines: string[] = [];
    for (const pair of PAIRS) {
      const plan = await river.plan({ from: pair.from, to: pair.to, date: "2026-06-01" }, road);
      const section = plan.route.sections.find((s) => s.transport_mode === "RIVER");
      if (!section) continue;
      const s = section as unknown as RiverSection;
      barge.set(pair, s);
      const error = ((s.distance.km / pair.km - 1) * 100).toFixed(1);
      lines.push(`${pair.from.name}-${pair.to.name} ${s.distance.km} km vs ${pair.km} (${error} %)`);
    }
    console.log(`river real-world checks: ${lines.join("; ")}`);
  });

  test.each(PAIRS.map((p) => [`${p.from.name} to ${p.to.name}`, p] as const))(
    "%s: the barge km is within 10 %% of the published river km",
    (_label, pair) => {
      const s = barge.get(pair);
      expect(s, `${_label}: no RIVER section`).toBeDefined();
      const error = s!.distance.km / pair.km - 1;
      expect(
        Math.abs(error),
        `${s!.from.locode} -> ${s!.to.locode}: ${s!.distance.km} km vs ${pair.km} km (${pair.source})`,
      ).toBeLessThanOrEqual(0.1);
    },
  );

  test.each(PAIRS.map((p) => [`${p.from.name} to ${p.to.name}`, p] as const))(
    "%s: waterways[] names the rivers a bargeman would",
    (_label, pair) => {
      const names = barge.get(pair)!.waterways.map((w) => w.name);
      for (const want of pair.waterways)
        expect(
          names.some((n) => want.test(n)),
          `${want} in ${names}`,
        ).toBe(true);
    },
  );

  const waterwaysCsv = join(sourcesDir, "inland/waterways.csv");
  test.skipIf(!existsSync(waterwaysCsv))(
    "no stretch of these routes calibrates the channel length factor",
    () => {
      const names = new Map(
        parseWaterways(readFileSync(waterwaysCsv, "utf8")).map((s) => [s.id, s.waterway]),
      );
      const calibrating = new Set(parseCalibration().map((r) => names.get(r.id)));
      expect(calibrating.size).toBeGreaterThan(20);
      // A port at a stretch limit touches the next stretch by metres (Wuhan's: 0.1 km upstream).
      for (const pair of PAIRS) {
        const onRoute = barge
          .get(pair)!
          .waterways.filter((w) => w.km >= 1)
          .map((w) => w.name);
        expect(onRoute.filter((n) => calibrating.has(n))).toEqual([]);
      }
    },
  );
});
