/**
 * The sandbox airline's shipments over a sample of waybills of every played airline: every path
 * occurs (one to three legs, split bookings, offloads, delays, missed connections), and every
 * shipment keeps the rules of the road (flights chain the stops, milestones in order, pieces add up,
 * ACTUAL events published after they happen, one schedule per flight number).
 */
import { beforeAll, expect, test } from "bun:test";
import { withAwbCheckDigit } from "../../ingest/airlines/awb.ts";
import { type SimulatedAwb, simulateAwb } from "../../ingest/sandbox/airline-simulate.ts";
import { type AirlineWorld, loadAirlineWorld, SANDBOX_AIRLINES } from "../../ingest/sandbox/airline-world.ts";
import { DEFAULT_EPOCH } from "../../ingest/sandbox/simulate.ts";

const H = 3600_000;
const D = 24 * H;
let world: AirlineWorld;
let sample: SimulatedAwb[];
beforeAll(async () => {
  world = await loadAirlineWorld();
  const prefixes = [...world.airlines.keys()];
  sample = Array.from({ length: 600 }, (_, i) => {
    const awb = withAwbCheckDigit(
      `${prefixes[i % prefixes.length]}${String(5_000_000 + i * 131).padStart(7, "0")}`,
    );
    return simulateAwb(awb, { world, epoch: DEFAULT_EPOCH })!;
  });
});

test("the played airlines come from the prefix table, each with its hub among the cargo airports", () => {
  expect([...world.airlines.values()].map((a) => [a.iata, a.hub.iata])).toEqual(
    SANDBOX_AIRLINES.map((a) => [a.iata, a.hub]),
  );
  expect(simulateAwb(withAwbCheckDigit("0011234567"), { world })).toBeNull(); // AA: not played
  for (const a of world.airports)
    expect(() => new Intl.DateTimeFormat("en", { timeZone: a.timezone })).not.toThrow();
});

test("every path occurs in the sample", () => {
  const share = (p: (s: SimulatedAwb) => boolean) => sample.filter(p).length / sample.length;
  const paths: Record<string, number> = {
    "one leg": share((s) => s.stops.length === 2),
    "two legs": share((s) => s.stops.length === 3),
    "three legs": share((s) => s.stops.length === 4),
    split: share((s) => s.split),
    "whole offload": share((s) => s.offload !== null && s.offload.pieces === s.parts[0]!.pieces),
    "partial offload": share((s) => s.offload !== null && s.offload.pieces < s.pieces),
    "late departure": share((s) =>
      s.parts.some((p) => p.flights.some((f) => f.departure - f.plannedDeparture >= H)),
    ),
    "missed connection": share((s) => s.parts.some((p) => p.rebooked)),
  };
  for (const [path, fraction] of Object.entries(paths)) expect([path, fraction > 0.01]).toEqual([path, true]);
  for (const { iata } of SANDBOX_AIRLINES) expect(sample.some((s) => s.airline.iata === iata)).toBe(true);
});

test("every shipment keeps the rules", () => {
  for (const s of sample) {
    const problems: string[] = [];
    const check = (ok: boolean, what: string) => ok || problems.push(what);
    check(s.stops.includes(s.airline.hub), "itinerary misses the hub");
    check(new Set(s.stops).size === s.stops.length, "an airport twice");
    check(s.parts.reduce((n, p) => n + p.pieces, 0) === s.pieces, "parts do not add up");
    for (const p of s.parts) {
      // A part's flights chain the stops; each leaves after the one before arrived.
      check(
        p.flights.map((f) => f.from.iata).join() ===
          s.stops
            .slice(0, -1)
            .map((a) => a.iata)
            .join(),
        "legs",
      );
      check(
        p.flights.map((f) => f.to.iata).join() ===
          s.stops
            .slice(1)
            .map((a) => a.iata)
            .join(),
        "legs",
      );
      p.flights.forEach((f, i) => {
        check(f.departure < f.arrival, `${f.flight} arrives before it leaves`);
        if (i > 0)
          check(
            p.flights[i - 1]!.arrival + 90 * 60_000 < f.departure,
            `${f.flight} leaves before the cargo is in`,
          );
      });
    }
    for (const e of s.events) {
      if (e.timeType === "ACTUAL") check(e.created >= e.at, `${e.key} published before it happened`);
      else check(e.created < e.at || e.code === "ARR", `${e.key} planned after the fact`);
      check(e.partial === e.pieces < s.pieces, `${e.key} partial flag`);
      if (e.flight && e.code !== "ARR" && e.code !== "RCF")
        check(e.airport === e.flight.from, `${e.key} airport`);
      if (e.flight && (e.code === "ARR" || e.code === "RCF"))
        check(e.airport === e.flight.to, `${e.key} airport`);
      if (["NFD", "AWD", "DLV"].includes(e.code))
        check(e.airport === s.destination, `${e.key} not at destination`);
    }
    const actual = (code: string) => s.events.filter((e) => e.code === code && e.timeType === "ACTUAL");
    check(actual("DLV").reduce((n, e) => n + e.pieces, 0) === s.pieces, "not every piece delivered");
    check(actual("RCS").length === 1 && actual("RCS")[0]!.airport === s.origin, "one RCS at the origin");
    check(actual("AWD").length === 1, "one AWD");
    // Per flight and part: manifested, departed, arrived, received, in that order.
    for (const dep of actual("DEP")) {
      const same = (code: string) =>
        actual(code).find((e) => e.flight === dep.flight && e.key.split("|")[0] === dep.key.split("|")[0]);
      const [man, arr, rcf] = [same("MAN"), same("ARR"), same("RCF")];
      check(
        !!man && man.at < dep.at && dep.at < arr!.at && arr!.at < rcf!.at,
        `${dep.key} milestones out of order`,
      );
    }
    for (const est of s.events.filter((e) => e.code === "DEP" && e.timeType === "ESTIMATED"))
      check(est.created < est.flight!.departure, `${est.key} estimate after the departure`);
    expect([s.awb, problems]).toEqual([s.awb, []]);
  }
});

test("a flight number is one lane with one departure time of day, whatever the waybill", () => {
  const lanes = new Map<string, string>();
  for (const s of sample)
    for (const f of s.parts.flatMap((p) => p.flights)) {
      const lane = `${f.from.iata}-${f.to.iata}@${(((f.plannedDeparture - DEFAULT_EPOCH) % D) + D) % D}`;
      expect([f.flight, lanes.get(f.flight) ?? lane]).toEqual([f.flight, lane]);
      lanes.set(f.flight, lane);
    }
  expect(lanes.size).toBeGreaterThan(50);
});

test("the same waybill is the same shipment; the epoch moves it whole", () => {
  const awb = sample[7]!.awb;
  expect(simulateAwb(awb, { world, epoch: DEFAULT_EPOCH })).toEqual(sample[7]!);
  const later = simulateAwb(awb, { world, epoch: DEFAULT_EPOCH + 10 * D })!;
  expect(later.events.map((e) => [e.key, e.at - 10 * D, e.created - 10 * D])).toEqual(
    sample[7]!.events.map((e) => [e.key, e.at, e.created]),
  );
});
