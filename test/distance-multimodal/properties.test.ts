/**
 * fast-check properties of door-to-door plans over the tiny world (world.ts), through the real
 * router.wasm: random doors, modes, optimize, handling, sea options and dates. Whatever the
 * answer, the route is the best chain under optimize, every chain's summary is the sum of its
 * sections plus its handling and its cost_index recomputes from the sections, every Sea + River
 * barge saves more road than a local transfer; a failure is only ever one of the spec's error codes.
 */
import { beforeAll, expect, test } from "bun:test";
import fc from "fast-check";
import { haversineM } from "../../common/geo.ts";
import type { Chain, TransportMode } from "../../engine/chain.ts";
import { EngineError } from "../../engine/errors.ts";
import { MODES } from "../../engine/modes/index.ts";
import { INLAND_CIRCUITY } from "../../engine/multimodal/estimate.ts";
import { NO_ACCESS_LEG_KM } from "../../engine/multimodal/inland.ts";
import { LOCAL_TRANSFER_KM } from "../../engine/multimodal/mode-rule.ts";
import { OPTIMIZE, type Place } from "../../engine/multimodal/options.ts";
import { compareChains } from "../../engine/multimodal/order.ts";
import { PASSAGE_IDS } from "../../engine/sea/policy.ts";
import { checkChain } from "../support/chain.ts";
import { MAIN_PORTS, tinyWorld, type World } from "./world.ts";

const SPEC_CODES = ["invalid_request", "location_not_found", "no_route", "geocoder_unavailable"];

let w: World;
beforeAll(async () => {
  w = await tinyWorld();
});

/** Doors over the tiny world's land and a little beyond it. */
const doorArb = fc
  .record({
    lat: fc.double({ min: -0.9, max: 3.5, noNaN: true }),
    lng: fc.double({ min: -0.5, max: 11, noNaN: true }),
  })
  .map((p): Place => ({ kind: "coordinates", name: null, ...p }));
const requestArb = fc.record({
  from: doorArb,
  to: doorArb,
  modes: fc.uniqueArray(fc.constantFrom(...MODES), { minLength: 1, maxLength: 5 }),
  optimize: fc.constantFrom(...OPTIMIZE),
  handling: fc.boolean(),
  alternatives: fc.boolean(),
  date: fc.constantFrom("2026-01-15", "2026-06-15"),
  avoid: fc.subarray(["suez", "panama"]),
});

/** Road km as the ranking estimates them: the great circle x the road model's circuity. */
const roadKmEst = (a: Place, b: Place) => (haversineM(a.lat, a.lng, b.lat, b.lng) / 1000) * INLAND_CIRCUITY;

/**
 * The barge rule (docs/multimodal.md, "Drop rules"): a Sea + River chain's barge saves more road
 * than a local transfer against a truck from its door to the gateway or the nearest main port.
 */
function bargeSavesRoad(c: Chain<Place>, from: Place, to: Place) {
  const river = c.sections.findIndex((s) => s.transport_mode === "RIVER");
  const beforeSea = river < c.sections.findIndex((s) => s.transport_mode === "SEA");
  const { from: a, to: b } = c.sections[river]!;
  const [door, port, gateway] = beforeSea ? [from, a, b] : [to, b, a];
  const seaPortKm = Math.min(...MAIN_PORTS.map((p) => roadKmEst(door, p)));
  const portKm = roadKmEst(door, port) / INLAND_CIRCUITY < NO_ACCESS_LEG_KM ? 0 : roadKmEst(door, port);
  expect(Math.min(seaPortKm, roadKmEst(door, gateway)) - portKm).toBeGreaterThan(LOCAL_TRANSFER_KM);
}

test("a plan's route is the best under optimize and every chain adds up; failures are no_route", async () => {
  await fc.assert(
    fc.asyncProperty(requestArb, async (req) => {
      try {
        const p = await w.planner.plan(req, w.road);
        const chains = [p.route, ...p.alternatives];
        expect(chains).toEqual([...chains].sort(compareChains(p.optimize)));
        for (const c of chains) {
          // Sections add up to the summary with the handling, cost_index recomputes, legs join.
          checkChain(c);
          // Only the allowed modes: without ROAD, a road section is the access leg of a barge,
          // train or flight, or a local transfer to a sea port.
          for (const [i, s] of c.sections.entries()) {
            if (s.transport_mode !== "ROAD" || req.modes.includes("ROAD")) {
              expect(req.modes).toContain(s.transport_mode);
              continue;
            }
            const beside = [c.sections[i - 1], c.sections[i + 1]].map((x) => x?.transport_mode);
            const access = beside.some((m) => m === "RIVER" || m === "RAIL" || m === "AIR");
            if (!access) expect(s.distance.meters).toBeLessThanOrEqual(LOCAL_TRANSFER_KM * 1000);
          }
        }
        for (const c of chains.filter((x) => x.label === "Sea + River")) bargeSavesRoad(c, req.from, req.to);
        if (!req.alternatives) expect(p.alternatives).toEqual([]);
        if (!req.handling) expect(chains.every((c) => c.summary.handling_hours === 0)).toBe(true);
      } catch (err) {
        expect(err).toBeInstanceOf(EngineError);
        expect((err as EngineError).code).toBe("no_route");
      }
    }),
    { numRuns: 150 },
  );
});

test("bad options answer only the spec's error codes", async () => {
  const junk = fc.record({
    speedKnots: fc.oneof(fc.constant(undefined), fc.double({ min: -5, max: 60 })),
    modes: fc.array(fc.constantFrom<string>(...MODES, "BOAT", "", "sea"), { maxLength: 3 }),
    optimize: fc.constantFrom(undefined, ...OPTIMIZE, "fastest", ""),
    routingMode: fc.constantFrom(undefined, "short", "safe", "scenic"),
    avoid: fc.array(fc.constantFrom<string>(...PASSAGE_IDS, "atlantis", ""), { maxLength: 3 }),
    date: fc.constantFrom(undefined, "2026-06-15", "2026-13-01", "soon"),
    cargoTonnes: fc.constantFrom(undefined, 1, 0, -3, 1e9),
    from: doorArb,
    to: doorArb,
  });
  await fc.assert(
    fc.asyncProperty(junk, async (req) => {
      try {
        await w.planner.plan({ ...req, modes: req.modes as TransportMode[] }, w.road);
      } catch (err) {
        expect(err).toBeInstanceOf(EngineError);
        expect(SPEC_CODES).toContain((err as EngineError).code);
      }
    }),
    { numRuns: 150 },
  );
});
