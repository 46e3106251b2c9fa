/**
 * Pricing the hand-made sheets (test/rates/sheets.ts) read through the real file reader: the line
 * a lane picks, each charge of the breakdown and the total, worked by hand. Validity edges are
 * inclusive on both ends for sheets (the search's storage query) and surcharges (here).
 */
import { describe, expect, test } from "bun:test";
import { readRateCsv } from "../../engine/rates/file.ts";
import { bestLines, type PlaceRef, priceLine, type Shipment } from "../../engine/rates/price.ts";
import type { RateSheet } from "../../engine/rates/sheet.ts";
import { AIR_CSV, FCL_CSV, LCL_CSV, ROAD_CSV } from "./sheets.ts";

const place = (code: string): PlaceRef => ({
  code,
  also: [],
  country: code.length === 5 ? code.slice(0, 2) : null,
});

function shipment(
  mode: Shipment["mode"],
  over: Partial<Omit<Shipment, "origin" | "destination">> & { o: string; d: string },
): Shipment {
  const { o, d, ...rest } = over;
  return {
    mode,
    origin: place(o),
    destination: place(d),
    date: "2026-01-15",
    equipment: null,
    quantity: 1,
    weightKg: 0,
    volumeM3: 0,
    ...rest,
  };
}

/** Every offer of the sheet for the shipment: [equipment, charges as code=amount, total]. */
function offers(sheet: RateSheet, s: Shipment, km: number | null = null) {
  return bestLines(sheet.lines, s)
    .map((line) => {
      const p = priceLine(line, sheet.surcharges, s, km);
      if ("unpriced" in p) return [line.equipment, p.unpriced, null] as const;
      return [line.equipment, p.charges.map((c) => `${c.code}=${c.amount}`).join(" "), p.total] as const;
    })
    .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
}

describe("FCL: per container, surcharges by equipment, place, date and percent", () => {
  const fcl = readRateCsv(FCL_CSV);
  test.each([
    // date, origin, destination, equipment, quantity, expected offers
    [
      "2026-01-15",
      "CNSHA",
      "NLRTM",
      null,
      1,
      [
        ["20GP", "BASE=1000 BAF=150 THC_O=100 DOC=50 ISPS=15", 1315],
        ["40HC", "BASE=1800 BAF=300 THC_O=100 DOC=50 ISPS=15", 2265],
      ],
    ],
    // ISPS ends 2026-01-31 inclusive; LSS (10 % of base) starts 2026-02-01 inclusive.
    [
      "2026-01-31",
      "CNSHA",
      "NLRTM",
      "40HC",
      2,
      [["40HC", "BASE=3600 BAF=600 THC_O=200 DOC=50 ISPS=30", 4480]],
    ],
    [
      "2026-02-01",
      "CNSHA",
      "NLRTM",
      "40HC",
      2,
      [["40HC", "BASE=3600 BAF=600 THC_O=200 LSS=360 DOC=50", 4810]],
    ],
    // Ningbo: only the country line prices it, and THC_O (CNSHA only) does not apply.
    ["2026-03-31", "CNNGB", "NLRTM", null, 1, [["40HC", "BASE=2500 BAF=300 LSS=250 DOC=50", 3100]]],
    [
      "2026-01-15",
      "CNSHA",
      "DEHAM",
      "40HC",
      1,
      [["40HC", "BASE=1900 BAF=300 THC_O=100 DOC=50 ISPS=15", 2365]],
    ],
    ["2026-01-15", "CNSHA", "DEHAM", "20GP", 1, []],
    ["2026-01-15", "JPTYO", "NLRTM", null, 1, []],
  ] as const)("%s %s-%s %s x%d", (date, o, d, equipment, quantity, expected) => {
    expect(offers(fcl, shipment("OCEAN_FCL", { o, d, date, equipment, quantity }))).toEqual(
      expected as unknown as ReturnType<typeof offers>,
    );
  });
});

describe("LCL: revenue tons with the minimum", () => {
  const lcl = readRateCsv(LCL_CSV);
  test.each([
    // weight kg, volume m3: w/m = max(t, m3)
    [500, 0.8, "BASE=60 CFS=8 DOC=25", 93], // 0.8 w/m x 40 = 32 < 60: the minimum
    [3000, 2, "BASE=120 CFS=30 DOC=25", 175], // 3 t
    [1000, 1.5, "BASE=60 CFS=15 DOC=25", 100], // 1.5 x 40 = 60: not under the minimum
    [100, 2.25, "BASE=90 CFS=22.5 DOC=25", 137.5],
  ])("%d kg, %d m3", (weightKg, volumeM3, charges, total) => {
    expect(offers(lcl, shipment("OCEAN_LCL", { o: "CNSHA", d: "NLRTM", weightKg, volumeM3 }))).toEqual([
      [null, charges, total],
    ]);
  });
});

describe("air: weight breaks, break-point rule, minimum, chargeable weight", () => {
  const air = readRateCsv(AIR_CSV);
  test.each([
    // kg, m3, breakdown: fuel 0.9 and security 0.15 per chargeable kg, AWB 25
    [10, 0, "BASE=75 FUEL=9 SEC=1.5 AWB=25", 110.5], // 10 x 4.00 = 40 < minimum 75
    [44.2, 0, "BASE=144 FUEL=40.05 SEC=6.68 AWB=25", 215.73], // 44.5 kg: -45 gives 178, +45 at 45 kg 144; surcharges on 44.5 kg
    [90, 0, "BASE=280 FUEL=81 SEC=13.5 AWB=25", 399.5], // +45 gives 288, +100 at 100 kg 280
    [50, 0.6, "BASE=280 FUEL=90 SEC=15 AWB=25", 410], // 0.6 m3 = 100 kg volumetric
    [1200, 0, "BASE=2520 FUEL=1080 SEC=180 AWB=25", 3805], // +1000
    [480, 0, "BASE=1150 FUEL=432 SEC=72 AWB=25", 1679], // +300 gives 1200, +500 at 500 kg 1150
  ])("%d kg, %d m3", (weightKg, volumeM3, charges, total) => {
    expect(offers(air, shipment("AIR", { o: "FRA", d: "JFK", weightKg, volumeM3 }))).toEqual([
      [null, charges, total],
    ]);
  });
});

describe("road: per km with a minimum, per lane to a country, percent fuel", () => {
  const road = readRateCsv(ROAD_CSV);
  test.each([
    ["PLWAW", 2, "BASE=2160 FUEL=259.2", 2419.2], // 1.2 x 900 km x 2 trucks
    ["DEBER", 3, "BASE=1800 FUEL=216", 2016], // the DE lane, flat 600 x 3
  ])("DEHAM-%s x%d", (d, quantity, charges, total) => {
    expect(offers(road, shipment("ROAD", { o: "DEHAM", d, quantity }))).toEqual([["FTL", charges, total]]);
  });

  test("a per_km line without its own distance takes the engine's, or says why it cannot price", () => {
    const sheet = { ...road, lines: road.lines.map((l) => ({ ...l, distanceKm: null, minimum: 2000 })) };
    const s = shipment("ROAD", { o: "DEHAM", d: "PLWAW" });
    // 1.2 x 1000 = 1200 < minimum 2000 per truck
    expect(offers(sheet, s, 1000)).toEqual([["FTL", "BASE=2000 FUEL=240", 2240]]);
    expect(offers(sheet, s, 2000)).toEqual([["FTL", "BASE=2400 FUEL=288", 2688]]);
    expect(offers(sheet, s, null)[0]![2]).toBeNull();
  });
});
