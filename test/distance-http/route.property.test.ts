/**
 * Arbitrary places and options against GET /v1/distance/route: every answer is a route or one of
 * the spec's errors (400, 404, 422) in the distance envelope, never a 500; a route's numbers add up.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import fc from "fast-check";
import { PASSAGE_IDS } from "../../engine/sea/policy.ts";
import { errorProblems, successProblems } from "../helpers/envelopes.ts";
import { bearer, makePlatform, type TestPlatform } from "../helpers/platform.ts";

let p: TestPlatform;
let key: string;
beforeAll(async () => {
  p = await makePlatform({ buildDir: join(import.meta.dir, "../../data/build") });
  const org = await p.accounts.createOrg("route-fuzz", { paid: true, rateLimit: 1_000_000_000 });
  key = (await p.accounts.createKey(org.id, "distance")).key;
});
afterAll(() => p.close());

const place = fc.oneof(
  fc
    .tuple(fc.double({ min: -95, max: 95, noNaN: true }), fc.double({ min: -185, max: 185, noNaN: true }))
    .map(([a, b]) => `${a.toFixed(4)},${b.toFixed(4)}`),
  fc.constantFrom(
    "NLRTM",
    "SGSIN",
    "CNSHA",
    "USLAX",
    "DEHAM",
    "LKCMB",
    "ESALG",
    "BRSSZ",
    "AUSYD",
    "ZADUR",
    "QQQQQ",
    "NL",
    "BR",
    "XX",
    "LAX",
    "EGLL",
    "Hamburg",
    "Denver, US",
    "Kathmandu",
  ),
  fc.string({ minLength: 1, maxLength: 20 }),
);
const options = fc.record(
  {
    speed_knots: fc.oneof(fc.integer({ min: -5, max: 60 }).map(String), fc.string({ maxLength: 4 })),
    avoid: fc.subarray([...PASSAGE_IDS, "atlantis"]).map((a) => a.join(",")),
    routing_mode: fc.constantFrom("short", "safe", "fast"),
    path: fc.constantFrom("true", "false", "maybe"),
    alternatives: fc.constantFrom("true", "false"),
  },
  { requiredKeys: [] },
);

test("no 500 and consistent numbers for arbitrary places and options", async () => {
  await fc.assert(
    fc.asyncProperty(place, place, options, async (from, to, opts) => {
      const q = new URLSearchParams({ from, to, ...opts });
      const res = await p.call("distance", `/v1/distance/route?${q}`, bearer(key));
      const body = (await res.json()) as Record<string, unknown>;
      expect([200, 400, 404, 422]).toContain(res.status);
      if (res.status !== 200) {
        expect(errorProblems("distance", body)).toEqual([]);
        return;
      }
      expect(successProblems("distance", body)).toEqual([]);
      const route = (
        body.data as { route: { distance: { nm: number }; eca: { nm: number; non_eca_nm: number } } }
      ).route;
      expect(route.distance.nm).toBeGreaterThanOrEqual(0);
      expect(Math.round((route.eca.nm + route.eca.non_eca_nm) * 10)).toBe(Math.round(route.distance.nm * 10));
    }),
    { numRuns: 300 },
  );
});
