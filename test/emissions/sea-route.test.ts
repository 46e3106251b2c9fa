/**
 * Emissions on the sea-only route (not a chain): the SEA factor, 7.6 g CO2e WTW and 6.48 g TTW per
 * tonne-km, times the route's own km, for the request's cargo mass (default 1 t); through the real
 * sea graph and router.wasm of the build.
 */
import { describe, expect, test } from "bun:test";
import { EMISSIONS_METHOD } from "../../engine/emissions.ts";
import { EngineError } from "../../engine/errors.ts";
import { seaRouter } from "../distance-sea/fixture.ts";

const rotterdam = { lat: 51.9, lng: 4.4667, name: "Rotterdam" };
const shanghai = { lat: 31.2333, lng: 121.4917, name: "Shanghai" };
const r = await seaRouter();

describe("sea route emissions", () => {
  test.each([
    [undefined, 1],
    [1, 1],
    [20, 20],
    [0.5, 0.5],
  ] as const)(
    "cargoTonnes %p: route and every alternative at 7.6 / 6.48 g per tonne-km x km x %p t",
    (cargo, t) => {
      const d = r.plan({ from: rotterdam, to: shanghai, alternatives: true, cargoTonnes: cargo });
      expect(d.alternatives.length).toBeGreaterThan(0);
      for (const route of [d.route, ...d.alternatives]) {
        const e = route.emissions;
        expect(e.cargo_tonnes).toBe(t);
        expect(e.method).toBe(EMISSIONS_METHOD);
        // distance.km is shown to 0.1 km: the emissions come from the unrounded metres.
        const slack = (0.05 * 7.6 * t) / 1000 + 0.0005;
        expect(Math.abs(e.co2e_kg! - (7.6 * route.distance.km * t) / 1000)).toBeLessThanOrEqual(slack);
        expect(Math.abs(e.co2e_ttw_kg! - (6.48 * route.distance.km * t) / 1000)).toBeLessThanOrEqual(slack);
      }
      // Rotterdam - Shanghai via Suez is about 19,700 km: about 150 kg CO2e WTW per tonne.
      expect(d.route.emissions.co2e_kg! / t).toBeGreaterThan(140);
      expect(d.route.emissions.co2e_kg! / t).toBeLessThan(160);
    },
  );

  test.each([0, -3, 100_001, Number.NaN])("cargoTonnes %p: invalid_request before any search", (cargo) => {
    let err: unknown;
    try {
      r.plan({ from: rotterdam, to: shanghai, cargoTonnes: cargo });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(EngineError);
    expect((err as EngineError).code).toBe("invalid_request");
  });
});
