/**
 * Properties for ROAD, RAIL, AIR and RIVER over arbitrary pairs of real places (and some
 * unplaceable ones): every answer is a chain or one of the spec's errors, never a 500; a chain's
 * sections add up to its summary and hours = moving + handling; a route is never shorter than the
 * great circle between its ends; swapping the ends changes road km by at most 2 % and air km not at all.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import fc from "fast-check";
import { haversineM } from "../../common/geo.ts";
import { errorProblems, successProblems } from "../helpers/envelopes.ts";
import type { TestPlatform } from "../helpers/platform.ts";
import { type ChainShape, chainClient, checkChain } from "./chain-client.ts";

let p: TestPlatform;
let get: Awaited<ReturnType<typeof chainClient>>["get"];
beforeAll(async () => {
  ({ p, get } = await chainClient("modes-property"));
});
afterAll(() => p.close());

/** Cities on six continents (coordinates, so the geocoder is not what is tested), a few islands, codes. */
const PLACES = [
  "52.52,13.405", // Berlin
  "48.8566,2.3522", // Paris
  "41.9028,12.4964", // Rome
  "40.4168,-3.7038", // Madrid
  "50.0755,14.4378", // Prague
  "59.3293,18.0686", // Stockholm
  "41.8781,-87.6298", // Chicago
  "34.0522,-118.2437", // Los Angeles
  "19.4326,-99.1332", // Mexico City
  "-23.5505,-46.6333", // Sao Paulo
  "-34.6037,-58.3816", // Buenos Aires
  "28.6139,77.209", // Delhi
  "31.2304,121.4737", // Shanghai
  "35.6762,139.6503", // Tokyo
  "-1.2921,36.8219", // Nairobi
  "-26.2041,28.0473", // Johannesburg
  "-33.8688,151.2093", // Sydney
  "-15.9244,-5.7181", // Saint Helena: nothing reaches it
  "NLRTM",
  "FRA",
  "KORD",
  "QQQQQ",
];

type Data = { from: { lat: number; lng: number }; to: { lat: number; lng: number }; route: ChainShape };

async function ask(mode: string, from: string, to: string) {
  const { status, body } = await get(
    `/v1/distance/route?mode=${mode}&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
  );
  expect([200, 400, 404, 422], `${mode} ${from} -> ${to}: ${JSON.stringify(body).slice(0, 200)}`).toContain(
    status,
  );
  if (status !== 200) {
    expect(errorProblems("distance", body)).toEqual([]);
    return null;
  }
  expect(successProblems("distance", body)).toEqual([]);
  return body.data as Data;
}

const km = (c: ChainShape) => c.summary.distance.meters / 1000;

test.each(["ROAD", "RAIL", "AIR"])(
  "%s: chains add up, never beat the great circle, swap as the spec says",
  async (mode) => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...PLACES), fc.constantFrom(...PLACES), async (from, to) => {
        const there = await ask(mode, from, to);
        if (!there) return;
        checkChain(there.route);
        const gc = haversineM(there.from.lat, there.from.lng, there.to.lat, there.to.lng) / 1000;
        expect(km(there.route)).toBeGreaterThanOrEqual(gc * 0.999);
        if (mode === "RAIL") return;
        const back = await ask(mode, to, from);
        expect(back, `${mode} ${to} -> ${from} has no route while the other way does`).not.toBeNull();
        if (mode === "AIR") expect(km(back!.route)).toBeCloseTo(km(there.route), 0);
        else
          expect(Math.abs(km(back!.route) - km(there.route))).toBeLessThanOrEqual(
            0.02 * km(there.route) + 0.5,
          );
      }),
      { numRuns: 30 },
    );
  },
  120_000,
);

/** Places on or near navigable rivers on four continents, and two far from any. */
const RIVER_PLACES = [
  "51.4344,6.7623", // Duisburg
  "47.5596,7.5886", // Basel
  "48.2082,16.3738", // Vienna
  "47.4979,19.0402", // Budapest
  "44.8176,20.4569", // Belgrade
  "48.7080,44.5133", // Volgograd
  "38.627,-90.1994", // St Louis
  "35.1495,-90.049", // Memphis
  "41.8781,-87.6298", // Chicago
  "30.5928,114.3055", // Wuhan
  "32.0603,118.7969", // Nanjing
  "-3.119,-60.0217", // Manaus
  "-32.9442,-60.6505", // Rosario
  "-15.9244,-5.7181", // Saint Helena
  "24.7136,46.6753", // Riyadh
];

test("RIVER: chains add up, never beat the great circle, seasonal=false is never slower on the same water", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...RIVER_PLACES),
      fc.constantFrom(...RIVER_PLACES),
      fc.integer({ min: 0, max: 364 }),
      async (from, to, day) => {
        const date = new Date(Date.UTC(2026, 0, 1 + day)).toISOString().slice(0, 10);
        const on = await ask("RIVER", from, `${to}&date=${date}`);
        if (!on) return;
        checkChain(on.route);
        const gc = haversineM(on.from.lat, on.from.lng, on.to.lat, on.to.lng) / 1000;
        expect(km(on.route)).toBeGreaterThanOrEqual(gc * 0.999);
        const off = await ask("RIVER", from, `${to}&date=${date}&seasonal=false`);
        expect(off, "seasonal=false found nothing where the rules of the date found a route").not.toBeNull();
        type Leg = ChainShape["sections"][number] & { from: { locode?: string }; to: { locode?: string } };
        const barge = (c: ChainShape) =>
          c.sections.find((s) => s.transport_mode === "RIVER") as Leg | undefined;
        const a = barge(on.route);
        const b = barge(off!.route);
        if (a && b && a.from.locode === b.from.locode && a.to.locode === b.to.locode)
          expect(b.duration.seconds).toBeLessThanOrEqual(a.duration.seconds);
      },
    ),
    { numRuns: 80 },
  );
}, 120_000);
