/**
 * Properties of the quote arithmetic over random lanes, weights, distances and random valid cards
 * (multipliers falling with weight, any floor): total = weight charge + surcharges, which is
 * chargeable x (net + surcharge) per kg, the weight charge being the cheapest break or the minimum;
 * nothing negative; more weight never costs less in total; one break, one rate per kg.
 */
import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { chargeableWeight, price } from "../../engine/air-quote/price.ts";
import { parseRateCard, type RateCard } from "../../engine/air-quote/rate-card.ts";
import { testCardJson } from "./setup.ts";

const cents = (x: number) => Math.round(x * 100);

/** A valid card: five falling multipliers under a 1.0 N rate, any floor and 5 x N multiple. */
const cardArb: fc.Arbitrary<RateCard> = fc
  .record({
    drops: fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 5, maxLength: 5 }),
    floor: fc.integer({ min: 0, max: 200 }),
    multiple: fc.integer({ min: 0, max: 20 }),
  })
  .map(({ drops, floor, multiple }) => {
    const json = testCardJson();
    const labels = ["-45", "+45", "+100", "+300", "+500", "+1000"];
    let m = 100;
    const multipliers: Record<string, number> = { "-45": 1 };
    drops.forEach((d, i) => {
      m = Math.max(5, m - d);
      multipliers[labels[i + 1]!] = m / 100;
    });
    json.break_multipliers_vs_N = multipliers;
    json.min_charge = { floor_usd: floor, n_rate_multiple: multiple };
    return parseRateCard(JSON.stringify(json), "random-card.json");
  });

const nRate = fc.integer({ min: 50, max: 1200 }).map((c) => c / 100);
const km = fc.double({ min: 0, max: 20_000, noNaN: true });
/** Chargeable weights are whole half kilograms. */
const kg = fc.integer({ min: 1, max: 8000 }).map((h) => h / 2);

describe("quote properties", () => {
  test("total = weight charge + fuel + security = chargeable x (net + surcharge); the weight charge is the cheapest break or the minimum", () => {
    fc.assert(
      fc.property(cardArb, nRate, km, kg, (card, n, distanceKm, cw) => {
        const p = price(card, { nRate: n, distanceKm, chargeableKg: cw });
        expect(cents(p.totalCharge)).toBe(
          cents(p.weightCharge) + cents(p.fuelSurcharge) + cents(p.securitySurcharge),
        );
        // Per-kg figures carry 4 decimals: at most 0.0001 per kg of drift.
        expect(Math.abs(cw * (p.netPerKg + p.surchargePerKg) - p.totalCharge)).toBeLessThanOrEqual(
          cw * 1e-4 + 1e-9,
        );
        // An oracle written apart: every break from the cargo's own, charged on max(kg, threshold),
        // at N x multiplier to the cent (that product has 4 decimals: the nudge undoes float error
        // so half a cent rounds up, as on paper).
        const own = card.breaks.filter((b) => cw >= b.fromKg).length - 1;
        const options = card.breaks
          .slice(own)
          .map((b) => Math.max(cw, b.fromKg) * (Math.round(n * b.multiplier * 100 + 1e-6) / 100));
        const minimum = Math.max(card.minCharge.floor, n * card.minCharge.nRateMultiple);
        const expected = Math.max(minimum, Math.min(...options));
        expect(Math.abs(p.weightCharge - expected)).toBeLessThanOrEqual(0.011);
        if (p.weightBreak === "MIN") {
          expect(p.weightCharge).toBe(p.minimumCharge);
          expect(p.ratePerKg).toBeNull();
        } else {
          expect(p.weightCharge).toBeGreaterThanOrEqual(p.minimumCharge);
          // The engine rounds exact decimals half up; the float product here may sit a hair either side.
          expect(Math.abs(p.weightCharge - p.ratedWeightKg! * p.ratePerKg!)).toBeLessThanOrEqual(
            0.005 + 1e-9,
          );
          expect(p.ratedWeightKg!).toBeGreaterThanOrEqual(cw);
        }
        // Surcharges go by chargeable weight.
        expect(Math.abs(p.fuelSurcharge - cw * p.fuelPerKg)).toBeLessThanOrEqual(0.005 + 1e-9);
        expect(p.securitySurcharge).toBeGreaterThanOrEqual(card.security.minPerAwb);
      }),
      { numRuns: 500 },
    );
  });

  test("nothing is negative and the total is positive", () => {
    fc.assert(
      fc.property(cardArb, nRate, km, kg, (card, n, distanceKm, cw) => {
        const p = price(card, { nRate: n, distanceKm, chargeableKg: cw });
        const figures = [
          p.netPerKg,
          p.surchargePerKg,
          p.weightCharge,
          p.fuelSurcharge,
          p.securitySurcharge,
          p.minimumCharge,
          p.other.total,
        ];
        for (const f of figures) expect(f).toBeGreaterThanOrEqual(0);
        expect(p.totalCharge).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });

  test("more weight never costs less in total (the break-point rule at work)", () => {
    fc.assert(
      fc.property(cardArb, nRate, km, kg, kg, (card, n, distanceKm, a, b) => {
        const [light, heavy] = a <= b ? [a, b] : [b, a];
        const pl = price(card, { nRate: n, distanceKm, chargeableKg: light });
        const ph = price(card, { nRate: n, distanceKm, chargeableKg: heavy });
        expect(ph.totalCharge).toBeGreaterThanOrEqual(pl.totalCharge);
      }),
      { numRuns: 500 },
    );
  });

  test("within one break the heavier shipment is never cheaper per kg: one rate for the break", () => {
    // Pairs inside one break's span, so the property is exercised on every break, not only by luck.
    const inBreak = fc
      .record({ card: cardArb, n: nRate, distanceKm: km, i: fc.integer({ min: 0, max: 5 }) })
      .chain(({ card, n, distanceKm, i }) => {
        const from = card.breaks[i]!.fromKg;
        const to = card.breaks[i + 1]?.fromKg ?? 4000;
        const half = fc.integer({ min: Math.max(1, from * 2), max: to * 2 - 1 }).map((h) => h / 2);
        return fc.tuple(fc.constant({ card, n, distanceKm }), half, half);
      });
    fc.assert(
      fc.property(inBreak, ([{ card, n, distanceKm }, a, b]) => {
        const [light, heavy] = a <= b ? [a, b] : [b, a];
        const pl = price(card, { nRate: n, distanceKm, chargeableKg: light });
        const ph = price(card, { nRate: n, distanceKm, chargeableKg: heavy });
        if (pl.weightBreak !== ph.weightBreak || pl.weightBreak === "MIN") return;
        expect(ph.ratePerKg).toBe(pl.ratePerKg);
        // Both charged on their own weight: net per kg is that rate (within the cent the charge is
        // rounded to, spread over the kilograms, and the 4 decimals shown).
        for (const [p, w] of [
          [pl, light],
          [ph, heavy],
        ] as const)
          if (p.ratedWeightKg === w)
            expect(Math.abs(p.netPerKg - p.ratePerKg!)).toBeLessThanOrEqual(0.005 / w + 5e-5 + 1e-9);
      }),
      { numRuns: 500 },
    );
  });

  test("chargeable weight: a half kilogram multiple, at least gross and volume / 6000, less than half a kilo above", () => {
    const card = parseRateCard(JSON.stringify(testCardJson()), "test-card.json");
    fc.assert(
      fc.property(
        fc.double({ min: 0.001, max: 100_000, noNaN: true }),
        fc.double({ min: 0.001, max: 1e9, noNaN: true }),
        (gross, volume) => {
          const cw = chargeableWeight(card, gross, volume);
          const real = Math.max(gross, volume / 6000);
          expect(Number.isInteger(cw * 2)).toBe(true);
          // Inputs are read to six decimals (milligrams, cubic millimetres).
          expect(cw).toBeGreaterThanOrEqual(real - 1e-6);
          expect(cw - real).toBeLessThan(0.5);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
