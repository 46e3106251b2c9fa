/**
 * Tracked voyages are bookings on the service network, and the AIS feed sails the network's hulls
 * (fast-check over epochs, clock readings and references): a hull is never in two places at once;
 * every box's vessel, voyage and times are its sailing's; AIS positions follow the schedule and a
 * restarted sandbox process broadcasts the same fixes; the same epoch gives the same output.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { haversineM, METRES_PER_NM } from "../../common/geo.ts";
import type { DcsaTransportEvent } from "../../ingest/carriers/dcsa.ts";
import { withCheckDigit } from "../../ingest/iso6346.ts";
import { SandboxAis } from "../../ingest/sandbox/ais.ts";
import { fleet } from "../../ingest/sandbox/fleet.ts";
import { trueCalls } from "../../ingest/sandbox/network/booking.ts";
import { fleetStates, serviceHullState } from "../../ingest/sandbox/network/hulls.ts";
import { D, H, type Network, serviceNetwork } from "../../ingest/sandbox/network/network.ts";
import { publish } from "../../ingest/sandbox/network/noise.ts";
import { sailing } from "../../ingest/sandbox/network/sailings.ts";
import { uuidFrom } from "../../ingest/sandbox/random.ts";
import { type CallRef, DEFAULT_EPOCH, simulateVoyage } from "../../ingest/sandbox/simulate.ts";
import { loadWorld, SANDBOX_SCACS, type SandboxWorld } from "../../ingest/sandbox/world.ts";
import { type RunningSandbox, startSandbox } from "../sandbox/spawn.ts";

let world: SandboxWorld;
let network: Network;
beforeAll(async () => {
  world = await loadWorld();
  network = serviceNetwork(world);
});

const epochArb = fc.integer({ min: -365, max: 365 }).map((d) => DEFAULT_EPOCH + d * D);
const offsetArb = fc.integer({ min: -120 * 24, max: 150 * 24 }).map((h) => h * H);
/** A container of any played carrier (owner prefixes of the five lines). */
const containerArb = fc
  .tuple(
    fc.constantFrom("MAEU", "MSKU", "MSCU", "MEDU", "CMAU", "CGMU", "HLCU", "HLXU", "ONEU", "MOLU"),
    fc.nat({ max: 999_999 }),
  )
  .map(([owner, serial]) => withCheckDigit(`${owner}${String(serial).padStart(6, "0")}`));
const nmBetween = (a: { lat: number; lng: number }, b: { lat: number; lng: number }) =>
  haversineM(a.lat, a.lng, b.lat, b.lng) / METRES_PER_NM;

describe("hulls", () => {
  test("no two sailings of one hull overlap in true time", () => {
    fc.assert(
      fc.property(epochArb, fc.integer({ min: -60, max: 60 }), (epoch, n) => {
        for (const s of network.services) {
          const a = sailing(s, epoch, n);
          const b = sailing(s, epoch, n + s.hulls.length);
          expect(b.vessel).toEqual(a.vessel);
          const calls = trueCalls(a);
          const next = trueCalls(b);
          if (!calls || !next) continue;
          // The hull leaves its last call before it reaches the first port of its next sailing.
          expect(calls.at(-1)!.departure.time).toBeLessThan(next[0]!.arrival.time);
          calls.forEach((c, i) => {
            expect(c.arrival.time).toBeLessThan(c.departure.time);
            if (i > 0) expect(calls[i - 1]!.departure.time).toBeLessThan(c.arrival.time);
          });
        }
      }),
      { numRuns: 40 },
    );
  });

  test("the feed lists every hull of the fleet once, at its schedule position", () => {
    fc.assert(
      fc.property(epochArb, offsetArb, (epoch, offset) => {
        const now = epoch + offset;
        const fixes = new SandboxAis(world, epoch).fixes(now);
        const imos = fixes.map((f) => f.vessel.imo);
        expect(new Set(imos).size).toBe(imos.length);
        expect(imos.sort()).toEqual(SANDBOX_SCACS.flatMap((s) => fleet(s).map((v) => v.imo)).sort());
        const byImo = new Map(fixes.map((f) => [f.vessel.imo, f]));
        for (const state of fleetStates(network, SANDBOX_SCACS, epoch, now)) {
          const fix = byImo.get(state.vessel.imo)!;
          if (state.kind === "at_sea") {
            // Between the two calls' ports: no further from them than the sea route between them.
            const leg = world.route(state.from, state.to)!.nm;
            expect(nmBetween(fix, state.from) + nmBetween(fix, state.to)).toBeLessThanOrEqual(
              leg * 1.05 + 10,
            );
            expect(state.departed).toBeLessThanOrEqual(now);
            expect(now).toBeLessThan(state.arrives);
            expect([fix.status, fix.destination]).toEqual([0, state.to.locode]);
          } else {
            expect([fix.lat, fix.lng, fix.sog]).toEqual([state.port.lat, state.port.lng, 0]);
            expect(fix.status).toBe(state.kind === "at_anchor" ? 1 : 5);
          }
          if (state.kind === "alongside") {
            // Moored during a call the sailing really makes, at that call's true times.
            const call = trueCalls(state.sailing)!.find((c) => c.call.index === state.index)!;
            expect(call.call.port.locode).toBe(state.port.locode);
            expect(call.arrival.time).toBeLessThanOrEqual(now);
            expect(now).toBeLessThan(call.departure.time);
          }
        }
      }),
      { numRuns: 25 },
    );
  });

  test("the same epoch and clock give the same fixes", () => {
    const now = DEFAULT_EPOCH + 5 * D + 7 * H;
    expect(new SandboxAis(world, DEFAULT_EPOCH).fixes(now)).toEqual(
      new SandboxAis(world, DEFAULT_EPOCH).fixes(now),
    );
    const s = network.services[0]!;
    expect(serviceHullState(s, DEFAULT_EPOCH, 0, now)).toEqual(serviceHullState(s, DEFAULT_EPOCH, 0, now));
  });
});

describe("bookings", () => {
  /** The network call a leg names, with its true times. */
  const callOf = (scac: string, epoch: number, ref: CallRef) => {
    const s = sailing(network.service(scac, ref.service)!, epoch, ref.n);
    return { s, call: trueCalls(s)!.find((c) => c.call.index === ref.index)! };
  };

  test("every box's vessel, voyage and times are those of the sailing it is booked on", () => {
    fc.assert(
      fc.property(containerArb, epochArb, (ref, epoch) => {
        const v = simulateVoyage(ref, { world, epoch });
        if (!v) return;
        const scac = v.carrier.scac;
        for (const leg of v.legs) {
          const dep = callOf(scac, epoch, leg.departureCall);
          const arr = callOf(scac, epoch, leg.arrivalCall);
          expect(dep.s.id).toBe(leg.departureCall.sailing);
          // One hull from loading to discharge (across its turn into its next sailing, if so).
          expect(arr.s.vessel).toEqual(dep.s.vessel);
          expect(leg.vessel).toEqual(dep.s.vessel);
          expect(leg.service).toBe(dep.s.service.code);
          expect(leg.voyage).toBe(dep.call.call.exportVoyage);
          expect([leg.from.locode, leg.to.locode]).toEqual([
            dep.call.call.port.locode,
            arr.call.call.port.locode,
          ]);
          expect(
            [leg.plannedDeparture, leg.plannedArrival, leg.departure, leg.arrival].map(Date.parse),
          ).toEqual([
            dep.call.departure.planned,
            arr.call.arrival.planned,
            dep.call.departure.time,
            arr.call.arrival.time,
          ]);
          // Never a blanked sailing nor an omitted call (trueCalls found both above).
          expect(dep.call && arr.call).toBeTruthy();
        }
        // Every transport event names its network call; ACT is the true time, EST what the
        // network published when the event was created.
        const calls = new Map(
          v.legs.flatMap((l) =>
            [l.departureCall, l.arrivalCall].map(
              (c) => [uuidFrom(`call|${c.sailing}|${c.index}`), c] as const,
            ),
          ),
        );
        for (const e of v.events) {
          if (e.eventType !== "TRANSPORT") continue;
          const t = e as DcsaTransportEvent;
          const ref = calls.get(t.transportCall.transportCallID)!;
          expect(ref).toBeDefined();
          const { s, call } = callOf(scac, epoch, ref);
          expect(t.transportCall.vessel!.vesselIMONumber).toBe(s.vessel.imo);
          const pick = (c: { arrival: { time: number }; departure: { time: number } }) =>
            t.transportEventTypeCode === "DEPA" ? c.departure.time : c.arrival.time;
          const at = Date.parse(t.eventDateTime);
          if (t.eventClassifierCode === "ACT") expect(at).toBe(pick(call));
          if (t.eventClassifierCode === "EST") {
            const published = publish(s, Date.parse(t.eventCreatedDateTime))!.calls.find(
              (c) => c.call.index === ref.index,
            )!;
            expect(at).toBe(pick(published));
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  test("two shipments on one sailing see the same hull, times and call", () => {
    // Enough shipments of one carrier that several share a sailing.
    const voyages = Array.from({ length: 400 }, (_, i) =>
      simulateVoyage(`MAEU${200000000 + i}`, { world, epoch: DEFAULT_EPOCH }),
    );
    const seen = new Map<string, string>();
    let shared = 0;
    for (const v of voyages)
      for (const l of v!.legs) {
        const key = `${l.departureCall.sailing}|${l.departureCall.index}`;
        const facts = JSON.stringify([l.vessel, l.voyage, l.departure, l.plannedDeparture]);
        if (seen.has(key)) {
          shared++;
          expect(facts).toBe(seen.get(key)!);
        } else seen.set(key, facts);
      }
    expect(shared).toBeGreaterThan(20);
  });

  test("identical output for the same epoch", () => {
    fc.assert(
      fc.property(containerArb, epochArb, (ref, epoch) => {
        expect(simulateVoyage(ref, { world, epoch })).toEqual(simulateVoyage(ref, { world, epoch }));
      }),
      { numRuns: 30 },
    );
  });
});

describe("a restarted sandbox process", () => {
  const START = "2026-12-03T07:00:00Z";
  let running: RunningSandbox | null = null;
  afterAll(async () => {
    await running?.stop();
  });

  /** Every line the AIS feed sends a new listener. */
  async function firstBroadcast(sandbox: RunningSandbox): Promise<string[]> {
    const [host, port] = sandbox.aisUrl.replace("tcp://", "").split(":");
    let text = "";
    let last = Date.now();
    const socket = await Bun.connect({
      hostname: host!,
      port: Number(port),
      socket: {
        data: (_s, chunk) => {
          text += chunk.toString();
          last = Date.now();
        },
      },
    });
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && (!text || Date.now() - last < 300)) await Bun.sleep(50);
    socket.end();
    return text.split("\r\n").filter(Boolean);
  }

  test("broadcasts the same fixes of every hull at the same clock reading", async () => {
    running = await startSandbox({ SANDBOX_START: START });
    const first = await firstBroadcast(running);
    await running.stop();
    running = await startSandbox({ SANDBOX_START: START });
    const second = await firstBroadcast(running);
    // Two sentences of static data and one position per hull.
    const hulls = SANDBOX_SCACS.reduce((n, s) => n + fleet(s).length, 0);
    expect(first.length).toBe(3 * hulls);
    expect(second).toEqual(first);
  });
});
