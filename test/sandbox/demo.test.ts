/** The documented demo references are in their documented states around the default epoch. */
import { beforeAll, expect, test } from "bun:test";
import { DEMO_REFERENCES, isDemoReference } from "../../ingest/sandbox/demo.ts";
import { type BoxPhase, boxPhaseAt, DEFAULT_EPOCH, simulateVoyage } from "../../ingest/sandbox/simulate.ts";
import { loadWorld, SANDBOX_SCACS, type SandboxWorld } from "../../ingest/sandbox/world.ts";

const H = 3600_000;
const WINDOW = [DEFAULT_EPOCH + 6 * H, DEFAULT_EPOCH + 30 * H];
let world: SandboxWorld;
beforeAll(async () => {
  world = await loadWorld();
});

const EXPECTED: Record<string, BoxPhase> = {
  in_transit: "in_transit",
  discharged: "discharged",
  customs_hold: "customs_hold",
  returned_empty: "returned_empty",
};

test("every played carrier has every scenario, once", () => {
  for (const scac of SANDBOX_SCACS) {
    const scenarios = DEMO_REFERENCES.filter((d) => d.scac === scac).map((d) => d.scenario);
    expect(scenarios.sort()).toEqual([
      "bill_of_lading",
      "booking",
      "customs_hold",
      "discharged",
      "in_transit",
      "missed_connection",
      "returned_empty",
    ]);
  }
  expect(isDemoReference(" maeu4988977 ")).toBe(true);
  expect(isDemoReference("MAEU4988978")).toBe(false);
});

test("demo references hold their scenario through the demo window", () => {
  for (const d of DEMO_REFERENCES) {
    const v = simulateVoyage(d.reference, { world })!;
    expect(v.carrier.scac).toBe(d.scac);
    for (const now of WINDOW) {
      const phases = v.containers.map((c) => boxPhaseAt(c, now));
      const own = v.containers.find((c) => c.number === d.reference);
      const label = `${d.reference} (${d.scenario}) at ${new Date(now).toISOString()}`;
      if (d.scenario in EXPECTED)
        expect([label, own && boxPhaseAt(own, now)]).toEqual([label, EXPECTED[d.scenario]!]);
      if (d.scenario === "missed_connection") {
        expect([label, own?.rolled, boxPhaseAt(own!, now)]).toEqual([label, true, "in_transit"]);
      }
      if (d.scenario === "bill_of_lading") {
        expect(v.containers.length).toBeGreaterThanOrEqual(3);
        expect(v.billOfLading).toBe(d.reference);
        expect([label, phases.every((p) => p === "in_transit")]).toEqual([label, true]);
      }
      if (d.scenario === "booking")
        expect([label, phases.every((p) => p === "booked")]).toEqual([label, true]);
    }
  }
});
