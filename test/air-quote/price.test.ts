/**
 * The quote arithmetic, worked by hand from the test card (setup.ts): chargeable weight (volume-
 * and weight-heavy cargo, the 0.5 kg rounding), every weight-break edge with the break-point rule,
 * the minimum charge (the 75 floor and 5 x N), the security minimum and the fuel tiers.
 */
import { describe, expect, test } from "bun:test";
import { chargeableWeight, fuelRate, laneRate, price } from "../../engine/air-quote/price.ts";
import { testCard } from "./setup.ts";

const card = testCard();

describe("chargeable weight = max(gross, volume / 6000), up to the next 0.5 kg", () => {
  // [gross kg, volume cm3, chargeable kg, why]
  const rows: Array<[number, number, number, string]> = [
    [100, 600_000, 100, "volume weight 100 kg equals the gross"],
    [100, 900_000, 150, "volume-heavy: 900000 / 6000 = 150 kg"],
    [250, 900_000, 250, "weight-heavy: 250 kg gross beats 150 kg volume"],
    [10.2, 1_000, 10.5, "gross rounded up to the half kilogram"],
    [10.5, 1_000, 10.5, "a whole half stays"],
    [10.51, 1_000, 11, "just over a half goes to the next"],
    [10, 60_001, 10.5, "60001 / 6000 = 10.0002 kg: up to 10.5"],
    [10, 63_000, 10.5, "63000 / 6000 = 10.5 exactly"],
    [0.1, 1, 0.5, "the smallest parcel is 0.5 kg"],
    [44.6, 1, 45, "rounds into the +45 break"],
    [1, 271_200, 45.5, "271200 / 6000 = 45.2 kg"],
    [1.1, 1, 1.5, "1.1 is not read as 1.1000000000000001 or 1.0999999999999999"],
    [5e-324, 5e-324, 0.5, "below a milligram and a cubic millimetre: still the smallest parcel"],
  ];
  test.each(rows)("gross %p kg, %p cm3 -> %p kg (%s)", (gross, volume, expected) => {
    expect(chargeableWeight(card, gross, volume)).toBe(expected);
  });
});

describe("weight breaks, break-point rule and minimum (EUR>NAM, N 3.00, 7000 km: fuel 1.05)", () => {
  // Rates: -45 3.00, +45 2.40, +100 2.16, +300 1.98, +500 1.86, +1000 1.74; minimum max(75, 5 x 3) = 75.
  // Security max(0.15 x kg, 15). Columns: kg, break, rated kg, rate, weight charge, fuel, security, total.
  type Row = [number, string, number | null, number | null, number, number, number, number];
  const rows: Row[] = [
    [20, "MIN", null, null, 75, 21, 15, 111], // 20 x 3.00 = 60 < 75
    [24.5, "MIN", null, null, 75, 25.73, 15, 115.73], // 73.50 < 75; fuel 25.725 rounds half up
    [25, "-45", 25, 3, 75, 26.25, 15, 116.25], // 75.00 = the minimum: the rate stands
    [36, "-45", 36, 3, 108, 37.8, 15, 160.8], // 108.00 ties 45 x 2.40: the lighter break stays
    [36.5, "+45", 45, 2.4, 108, 38.33, 15, 161.33], // 109.50 > 45 x 2.40 = 108: break point
    [44.5, "+45", 45, 2.4, 108, 46.73, 15, 169.73], // last half kilo under 45
    [45, "+45", 45, 2.4, 108, 47.25, 15, 170.25], // the +45 edge itself
    [90, "+45", 90, 2.4, 216, 94.5, 15, 325.5], // 216.00 ties 100 x 2.16
    [90.5, "+100", 100, 2.16, 216, 95.03, 15, 326.03], // 217.20 > 216: break point
    [99.5, "+100", 100, 2.16, 216, 104.48, 15, 335.48], // security 14.925 < 15: the minimum
    [100, "+100", 100, 2.16, 216, 105, 15, 336], // the +100 edge; security 15.00 either way
    [275, "+100", 275, 2.16, 594, 288.75, 41.25, 924], // 594.00 ties 300 x 1.98
    [275.5, "+300", 300, 1.98, 594, 289.28, 41.33, 924.61], // 595.08 > 594: break point
    [300, "+300", 300, 1.98, 594, 315, 45, 954],
    [469.5, "+300", 469.5, 1.98, 929.61, 492.98, 70.43, 1493.02], // 929.61 < 500 x 1.86 = 930
    [470, "+500", 500, 1.86, 930, 493.5, 70.5, 1494], // 930.60 > 930: break point
    [500, "+500", 500, 1.86, 930, 525, 75, 1530],
    [935, "+500", 935, 1.86, 1739.1, 981.75, 140.25, 2861.1], // 1739.10 < 1000 x 1.74 = 1740
    [935.5, "+1000", 1000, 1.74, 1740, 982.28, 140.33, 2862.61], // 1740.03 > 1740: break point
    [1000, "+1000", 1000, 1.74, 1740, 1050, 150, 2940],
    [2000, "+1000", 2000, 1.74, 3480, 2100, 300, 5880],
  ];
  test.each(rows)("%p kg -> %s", (kg, brk, rated, rate, weight, fuel, security, total) => {
    const p = price(card, { nRate: 3, distanceKm: 7000, chargeableKg: kg });
    expect({
      weightBreak: p.weightBreak,
      ratedWeightKg: p.ratedWeightKg,
      ratePerKg: p.ratePerKg,
      weightCharge: p.weightCharge,
      fuelSurcharge: p.fuelSurcharge,
      securitySurcharge: p.securitySurcharge,
      totalCharge: p.totalCharge,
      minimumCharge: p.minimumCharge,
    }).toEqual({
      weightBreak: brk,
      ratedWeightKg: rated,
      ratePerKg: rate,
      weightCharge: weight,
      fuelSurcharge: fuel,
      securitySurcharge: security,
      totalCharge: total,
      minimumCharge: 75,
    });
    expect(p.netPerKg).toBeCloseTo(weight / kg, 4);
    expect(p.surchargePerKg).toBeCloseTo((fuel + security) / kg, 4);
    // Screening 0.10 per kg and the 25 AWB fee are stated apart, outside the total.
    expect(p.other.awbFee).toBe(25);
    expect(p.other.screening).toBeCloseTo(kg * 0.1, 2);
  });

  test("a minimum of 5 x N above the floor: AFR>LAT at N 20.00 has a 100.00 minimum", () => {
    const under = price(card, { nRate: 20, distanceKm: 7000, chargeableKg: 4 }); // 80 < 100
    expect([under.weightBreak, under.weightCharge, under.minimumCharge]).toEqual(["MIN", 100, 100]);
    expect(under.netPerKg).toBe(25); // 100 / 4
    expect(under.totalCharge).toBe(119.2); // 100 + 4 x 1.05 + 15
    const at = price(card, { nRate: 20, distanceKm: 7000, chargeableKg: 5 }); // 100 = the minimum
    expect([at.weightBreak, at.ratePerKg, at.weightCharge]).toEqual(["-45", 20, 100]);
  });

  test("break rates are N x multiplier to the cent: N 4.60 at +100 is 3.312 -> 3.31", () => {
    const p = price(card, { nRate: 4.6, distanceKm: 7000, chargeableKg: 100 });
    expect([p.weightBreak, p.ratePerKg, p.weightCharge, p.totalCharge]).toEqual(["+100", 3.31, 331, 451]);
  });
});

describe("lane rate and fuel tier", () => {
  test.each([
    ["EUR", "NAM", "EUR>NAM", 3],
    ["AFR", "LAT", "AFR>LAT", 20],
    ["NAM", "EUR", "DEFAULT", 3.5], // a pair the card does not list
    [null, "EUR", "DEFAULT", 3.5], // a country without a region
  ] as const)("%p > %p uses %s", (from, to, key, n) => {
    expect(laneRate(card, from, to)).toEqual({ key, nRate: n });
  });

  test.each([
    [0, 0.7],
    [3000, 0.7],
    [3000.01, 1.05],
    [8000, 1.05],
    [8000.01, 1.45],
    [19_999, 1.45],
  ])("%p km -> %p per kg", (km, rate) => {
    expect(fuelRate(card, km)).toBe(rate);
  });

  test("fuel by distance goes into the total: 100 kg at 2000 km and at 9000 km", () => {
    expect(price(card, { nRate: 3, distanceKm: 2000, chargeableKg: 100 }).totalCharge).toBe(216 + 70 + 15);
    expect(price(card, { nRate: 3, distanceKm: 9000, chargeableKg: 100 }).totalCharge).toBe(216 + 145 + 15);
  });
});
