/**
 * The demo references as documented: one per scenario and carrier, notes true to the simulated
 * voyages, README's and docs/sandbox-carrier.md's tables equal to demo.ts. What tracking them shows
 * through the day is demo-states.test.ts.
 */
import { beforeAll, expect, test } from "bun:test";
import { DEMO_REFERENCES, isDemoReference } from "../../ingest/sandbox/demo.ts";
import { DEFAULT_EPOCH, simulateVoyage } from "../../ingest/sandbox/simulate.ts";
import { loadWorld, SANDBOX_SCACS, type SandboxWorld } from "../../ingest/sandbox/world.ts";
import { docsDemoTable, readmeDemoTable } from "./demo-tables.ts";

const D = 86_400_000;
let world: SandboxWorld;
beforeAll(async () => {
  world = await loadWorld();
});

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
  expect(isDemoReference(" mrku0158387 ")).toBe(true);
  expect(isDemoReference("MRKU0158388")).toBe(false);
});

test("notes describe the simulated voyages (route, boxes, hold reason, roll, sailing day)", () => {
  for (const d of DEMO_REFERENCES) {
    const v = simulateVoyage(d.reference, { world })!;
    expect(v.carrier.scac).toBe(d.scac);
    const own = v.containers.find((c) => c.number === d.reference);
    const route = [v.origin, v.transshipment, v.destination].flatMap((p) => (p ? [p.locode] : []));
    const facts: Record<string, unknown> = { route: route.join(" → ") };
    if (d.kind !== "container") facts.boxes = `${v.containers.length} boxes`;
    if (d.scenario === "customs_hold") facts.hold = own?.customsHold?.reason;
    if (d.scenario === "missed_connection")
      facts.roll = own?.rolled && `rolled at ${v.transshipment!.locode}`;
    if (d.scenario === "booking") {
      const day = Math.floor((Date.parse(v.legs[0]!.plannedDeparture) - DEFAULT_EPOCH) / D);
      facts.sails = `planned to sail on start day + ${day}`;
    }
    const missing = Object.entries(facts).filter(([, f]) => typeof f !== "string" || !d.note.includes(f));
    expect([d.reference, d.note, missing]).toEqual([d.reference, d.note, []]);
    if (d.kind !== "container") expect([d.reference, d.boxes]).toEqual([d.reference, v.containers.length]);
  }
});

test("README's table lists every demo reference under its scenario, one line per carrier", () => {
  const table = readmeDemoTable();
  expect(table.map((r) => `${r.reference} ${r.scenario}`).sort()).toEqual(
    DEMO_REFERENCES.map((d) => `${d.reference} ${d.scenario}`).sort(),
  );
  const scacOf = new Map(DEMO_REFERENCES.map((d) => [d.reference, d.scac]));
  const lines = new Map<string, Set<string>>();
  for (const r of table) lines.set(r.line, (lines.get(r.line) ?? new Set()).add(scacOf.get(r.reference)!));
  expect([...lines.values()].map((s) => [...s])).toEqual(SANDBOX_SCACS.map((s) => [s]));
});

test("docs/sandbox-carrier.md's table is DEMO_REFERENCES", () => {
  expect(docsDemoTable()).toEqual(
    DEMO_REFERENCES.map(({ scac, scenario, reference, kind, note }) => ({
      scac,
      scenario,
      reference,
      kind,
      note,
    })),
  );
});
