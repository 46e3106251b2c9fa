/**
 * The demo air waybills as documented: one per scenario, each in its scenario through the demo
 * window for several epochs, notes true to the simulated shipment, README's and docs/air-cargo.md's
 * tables equal to DEMO_AWBS.
 */
import { beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { formatAwb, parseAwb } from "../../ingest/airlines/awb.ts";
import { AIR_DEMO_CHECKS, AIR_DEMO_HOURS, DEMO_AWBS, isDemoAwb } from "../../ingest/sandbox/airline-demo.ts";
import { simulateAwb } from "../../ingest/sandbox/airline-simulate.ts";
import { type AirlineWorld, loadAirlineWorld } from "../../ingest/sandbox/airline-world.ts";
import { DEFAULT_EPOCH } from "../../ingest/sandbox/simulate.ts";
import { tableAfter } from "../sandbox/demo-tables.ts";

const H = 3600_000;
const D = 24 * H;
const ROOT = join(import.meta.dir, "../..");
let world: AirlineWorld;
beforeAll(async () => {
  world = await loadAirlineWorld();
});

test("one demo per scenario, each a valid AWB of the airline it names", () => {
  expect(DEMO_AWBS.map((d): string => d.scenario).sort()).toEqual(Object.keys(AIR_DEMO_CHECKS).sort());
  for (const d of DEMO_AWBS) {
    expect([d.awb, parseAwb(d.awb).ok]).toEqual([d.awb, true]);
    expect(world.airlines.get(d.awb.slice(0, 3))?.iata).toBe(d.iata);
  }
  expect(isDemoAwb(formatAwb(DEMO_AWBS[0]!.awb))).toBe(true);
  expect(isDemoAwb("02012345675")).toBe(false);
});

// Epochs at 00:00 UTC around the year (a DST change day among them): the scenarios hold at each.
test.each(["2026-11-21", "2025-03-30", "2027-07-01"])(
  "every demo shows its scenario from epoch %s",
  (day) => {
    const epoch = Date.parse(`${day}T00:00:00Z`);
    for (const d of DEMO_AWBS) {
      const s = simulateAwb(d.awb, { world, epoch })!;
      expect([d.awb, d.scenario, AIR_DEMO_CHECKS[d.scenario](s, epoch)]).toEqual([d.awb, d.scenario, true]);
    }
    expect(AIR_DEMO_HOURS).toEqual({ from: 0, to: 36 });
  },
);

test("notes describe the simulated shipments", () => {
  for (const d of DEMO_AWBS) {
    const s = simulateAwb(d.awb, { world, epoch: DEFAULT_EPOCH })!;
    const first = s.parts[0]!.flights[0]!;
    const facts: string[] = [s.stops.map((a) => a.iata).join(" → ")];
    if (d.scenario === "booked")
      facts.push(`${s.pieces} pieces`, `first flight ${first.flight} on start day + ${first.day}`);
    if (d.scenario === "in_transit") facts.push(s.parts[0]!.flights.map((f) => f.flight).join(", "));
    if (d.scenario === "delayed") {
      const late = s.parts[0]!.flights.find((f) => f.departure - f.plannedDeparture >= 2 * H)!;
      facts.push(`${late.flight} left ${Math.floor((late.departure - late.plannedDeparture) / H)} h late`);
    }
    if (d.scenario === "offloaded") {
      const o = s.offload!;
      facts.push(`${o.pieces} of ${s.pieces} pieces offloaded from ${o.flight} at ${o.airport.iata}`);
    }
    if (d.scenario === "split") facts.push(`booked as ${s.parts.map((p) => p.pieces).join(" + ")} pieces`);
    if (d.scenario === "rebooked") {
      const at = s.events.find((e) => e.code === "BKD" && e.created > s.bookedAt + H)!.airport.iata;
      facts.push(`missed its connection at ${at}`);
    }
    if (d.scenario === "arrived" || d.scenario === "delivered") facts.push(`${s.pieces} pieces`);
    expect([d.awb, facts.filter((f) => !d.note.includes(f))]).toEqual([d.awb, []]);
  }
});

test("the booked demo really departs after the window, the delivered one is done before it", () => {
  const booked = DEMO_AWBS.find((d) => d.scenario === "booked")!;
  const s = simulateAwb(booked.awb, { world, epoch: DEFAULT_EPOCH })!;
  const firstDeparture = Math.min(...s.parts.flatMap((p) => p.flights.map((f) => f.departure)));
  expect(firstDeparture).toBeGreaterThan(DEFAULT_EPOCH + AIR_DEMO_HOURS.to * H);
  expect(firstDeparture).toBeLessThan(DEFAULT_EPOCH + 5 * D);
});

/** The demo table under `heading` in a document: airline, scenario, AWB, note. */
function documented(file: string, heading: string) {
  const text = readFileSync(join(ROOT, file), "utf8");
  const at = text.indexOf(heading);
  expect([file, heading, at >= 0]).toEqual([file, heading, true]);
  return tableAfter(text.slice(at), "airline").rows.map(([iata, scenario, awb, note]) => ({
    iata: iata!,
    scenario: scenario!,
    awb: awb!.replace(/`/g, ""),
    note: note!,
  }));
}

test("README's and docs/air-cargo.md's demo tables are DEMO_AWBS", () => {
  const want = DEMO_AWBS.map(({ iata, scenario, awb, note }) => ({
    iata,
    scenario,
    awb: formatAwb(awb),
    note,
  }));
  expect(documented("README.md", "Demo air waybills")).toEqual(want);
  expect(documented("docs/air-cargo.md", "### Demo air waybills")).toEqual(want);
});
