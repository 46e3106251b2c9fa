/**
 * The road model's second calibration step (data-build/road/pair-calibration.ts): the published
 * pairs table stays honest and independent of the accuracy check, and the fit's arithmetic holds on
 * a tiny hand-made line of towns.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { haversineM } from "../../common/geo.ts";
import { defaultDirs } from "../../data-build/pipeline.ts";
import { parseRoadModel } from "../../data-build/road/inputs.ts";
import type { RoadLink, RoadModel, RoadNode } from "../../data-build/road/network.ts";
import {
  CALIBRATION_PAIRS_CSV,
  fitPublishedPairs,
  type PublishedPair,
  parsePublishedPairs,
} from "../../data-build/road/pair-calibration.ts";
import { csvRecords } from "../../formats/csv.ts";

const { sourcesDir } = defaultDirs();
const roadFile = (name: string) => readFileSync(join(sourcesDir, "road", name), "utf8");

describe("calibration-pairs.csv", () => {
  const rows = csvRecords(CALIBRATION_PAIRS_CSV);
  const pairs = parsePublishedPairs();
  const reference = csvRecords(
    readFileSync(join(import.meta.dir, "../distance-road/reference-pairs.csv"), "utf8"),
  );
  const referenceEnds = reference.flatMap((r) => [
    { name: r.from_name!, country: r.from_country!, lat: Number(r.from_lat), lng: Number(r.from_lng) },
    { name: r.to_name!, country: r.to_country!, lat: Number(r.to_lat), lng: Number(r.to_lng) },
  ]);

  test("every row cites its source, and its figure is a road distance between the two towns", () => {
    expect(pairs.length).toBe(rows.length);
    expect(pairs.length).toBeGreaterThanOrEqual(60);
    for (const [i, p] of pairs.entries()) {
      const label = `${p.from.name}-${p.to.name}`;
      expect(rows[i]!.source!.length, label).toBeGreaterThan(10);
      expect(rows[i]!.source_url_or_reference, label).toMatch(/^https?:\/\//);
      const gcKm = haversineM(p.from.lat, p.from.lng, p.to.lat, p.to.lng) / 1000;
      expect(gcKm, label).toBeGreaterThanOrEqual(80);
      expect(gcKm, label).toBeLessThanOrEqual(1500);
      expect(p.roadKm, label).toBeGreaterThanOrEqual(gcKm);
      expect(p.roadKm, label).toBeLessThanOrEqual(2.5 * gcKm);
    }
  });

  test("regions are the circuity table's, and nearly every row's ends lie in its region", () => {
    const model = parseRoadModel(roadFile("circuity.csv"), roadFile("truck_speeds.csv"));
    const regions = new Set([...model.countries.values()].map((c) => c.region));
    for (const p of pairs) expect(regions.has(p.region), p.region).toBe(true);
    const inRegion = pairs.filter(
      (p) =>
        model.countries.get(p.from.country)?.region === p.region &&
        model.countries.get(p.to.country)?.region === p.region,
    );
    // Cross-region rows are kept as evidence but do not calibrate; nearly all rows do.
    expect(inRegion.length).toBeGreaterThanOrEqual(pairs.length - 3);
  });

  test("independent of the accuracy check: no town of reference-pairs.csv is an end", () => {
    for (const p of pairs) {
      for (const end of [p.from, p.to]) {
        for (const r of referenceEnds) {
          const label = `${p.from.name}-${p.to.name}: ${end.name} vs ${r.name}`;
          expect(end.name === r.name && end.country === r.country, label).toBe(false);
          expect(haversineM(end.lat, end.lng, r.lat, r.lng), label).toBeGreaterThan(15_000);
        }
      }
    }
  });
});

describe("fitPublishedPairs on a line of towns", () => {
  // Eleven towns 0.1 degrees apart on the equator, country XA; XB has no town at all.
  const nodes: RoadNode[] = Array.from({ length: 11 }, (_, i) => ({
    lat: 0,
    lng: i / 10,
    kind: "city",
    country: "XA",
    name: `t${i}`,
    population: 10_000,
  }));
  const links: RoadLink[] = nodes.slice(1).map((_, i) => {
    const gcM = haversineM(0, i / 10, 0, (i + 1) / 10);
    return {
      a: i,
      b: i + 1,
      kind: "road",
      gcM,
      factor: 1,
      lengthM: gcM,
      country: "XA",
      countryB: "XA",
      speedKmh: 60,
      crossingHours: null,
      carriesTruck: true,
      name: "",
    };
  });
  const model: RoadModel = {
    countries: new Map([
      ["XA", { circuity: 1.3, region: "R1", truckKmh: 60 }],
      ["XB", { circuity: 1.3, region: "R1", truckKmh: 60 }],
      ["XC", { circuity: 1.3, region: "R2", truckKmh: 60 }],
    ]),
    globalCircuity: 1.3,
    globalTruckKmh: 60,
  };
  const town = (i: number, country = "XA") => ({ name: `t${i}`, lat: 0, lng: i / 10, country });
  const gcKm = (a: number, b: number) => haversineM(0, a / 10, 0, b / 10) / 1000;
  /** A pair whose published km are `ratio` x the model's (factor 1.2 on a straight line). */
  const pair = (a: number, b: number, ratio: number, region = "R1"): PublishedPair => ({
    from: town(a),
    to: town(b),
    roadKm: gcKm(a, b) * 1.2 * ratio,
    region,
  });

  test("every factor is scaled by the median of published / model km", () => {
    const fit = fitPublishedPairs(
      nodes,
      links,
      model,
      new Map([
        ["XA", 1.2],
        ["XC", 1.5],
      ]),
      [pair(0, 10, 0.9), pair(0, 5, 0.95), pair(5, 10, 1.2)],
    );
    expect(fit.uses.map((u) => u.ratio)).toEqual([0.9, 0.95, 1.2]);
    expect(fit.uses[0]!.modelKm).toBeCloseTo(gcKm(0, 10) * 1.2, 1);
    expect(fit.scale).toBe(0.95);
    expect(fit.factors.get("XA")).toBeCloseTo(1.14, 12);
    // Countries without a town are scaled alike: the scale is the model's, not a region's.
    expect(fit.factors.get("XC")).toBeCloseTo(1.425, 12);
    expect(fit.regions).toEqual([{ region: "R1", pairs: 3, ratio: 0.95 }]);
  });

  test("ends off the network, and rows whose ends leave their region, do not count", () => {
    const off: PublishedPair = { ...pair(0, 10, 0.5), to: { name: "far", lat: 1, lng: 1, country: "XA" } };
    const crossRegion = pair(0, 5, 0.5, "R2");
    const fit = fitPublishedPairs(nodes, links, model, new Map([["XA", 1.2]]), [
      off,
      crossRegion,
      pair(0, 10, 1.1),
    ]);
    expect(fit.uses.map((u) => [u.pair, u.modelKm === null])).toEqual([
      ["t0 (XA) - far (XA)", true],
      ["t0 (XA) - t10 (XA)", false],
    ]);
    expect(fit.scale).toBe(1.1);
  });

  test("a factor never drops below 1, and without a measured pair nothing moves", () => {
    const low = fitPublishedPairs(nodes, links, model, new Map([["XA", 1.05]]), [
      { ...pair(0, 10, 1), roadKm: gcKm(0, 10) * 1.05 * 0.8 },
    ]);
    expect(low.scale).toBe(0.8);
    expect(low.factors.get("XA")).toBe(1);
    const none = fitPublishedPairs(nodes, links, model, new Map([["XA", 1.2]]), []);
    expect(none.scale).toBe(1);
    expect(none.factors.get("XA")).toBe(1.2);
  });
});
