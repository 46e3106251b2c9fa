/** Sandbox voyages are physically possible: no leg arrives before it departs, whatever the reference. */
import { expect, test } from "bun:test";
import fc from "fast-check";
import { withCheckDigit } from "../../ingest/iso6346.ts";
import { simulateVoyage } from "../../ingest/sandbox/simulate.ts";
import { loadWorld } from "../../ingest/sandbox/world.ts";

const world = await loadWorld();

test("every leg takes time, planned and actual", () => {
  fc.assert(
    fc.property(
      fc.constantFrom("MAEU", "MSCU", "CMAU", "HLCU", "ONEU", "MSKU"),
      fc.nat({ max: 999_999 }),
      (owner, serial) => {
        const v = simulateVoyage(withCheckDigit(`${owner}${String(serial).padStart(6, "0")}`), { world });
        if (!v) return;
        for (const leg of v.legs) {
          expect(Date.parse(leg.arrival)).toBeGreaterThan(Date.parse(leg.departure));
          expect(Date.parse(leg.plannedArrival)).toBeGreaterThan(Date.parse(leg.plannedDeparture));
        }
      },
    ),
    { numRuns: 300 },
  );
});
