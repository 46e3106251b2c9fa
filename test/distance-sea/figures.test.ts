/**
 * SeaRouter.figures, a matrix cell's sea figures, against the single route's (plan) on random
 * pairs of main container ports and coordinates, with random speeds, modes, closures and cargo:
 * the same distance, transit and emissions, or the same error.
 */
import { expect, test } from "bun:test";
import fc from "fast-check";
import { PASSAGE_IDS } from "../../engine/sea/policy.ts";
import type { SeaRouter } from "../../engine/sea/router.ts";
import { mainPorts, seaRouter } from "./fixture.ts";

const outcome = (run: () => unknown) => {
  try {
    return run();
  } catch (err) {
    return { error: String(err) };
  }
};

test("a cell's figures are the single route's", async () => {
  const router: SeaRouter = await seaRouter();
  const ports = mainPorts().map((p) => ({ lat: p.lat, lng: p.lng, name: p.name, kind: "port" }));
  const point = fc.oneof(
    fc.constantFrom(...ports),
    fc.record({
      lat: fc.double({ min: -60, max: 70, noNaN: true }),
      lng: fc.double({ min: -180, max: 180, noNaN: true }),
    }),
  );
  const request = fc.record({
    from: point,
    to: point,
    speedKnots: fc.integer({ min: 3, max: 40 }),
    routingMode: fc.constantFrom("short", "safe"),
    avoid: fc.subarray([...PASSAGE_IDS], { maxLength: 2 }),
    cargoTonnes: fc.integer({ min: 1, max: 50_000 }),
  });
  fc.assert(
    fc.property(request, (req) => {
      const single = outcome(() => {
        const { distance, transit, emissions } = router.plan(req).route;
        return { distance, transit, emissions };
      });
      const cell = outcome(() => {
        const { distance, transit, emissions } = router.figures(req);
        return { distance, transit, emissions };
      });
      expect(cell).toEqual(single);
    }),
    { numRuns: 300 },
  );
});
