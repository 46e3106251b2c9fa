/**
 * The ONE Record client against the sandbox airline over HTTP (its server in this process on a real
 * socket, manual clock): snapshots equal to the simulated shipment, events revealed as the clock
 * passes their publication, determinism, pagination, and the airline's refusals as typed errors.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { withAwbCheckDigit } from "../../ingest/airlines/awb.ts";
import { AirlineError, type AwbEvent } from "../../ingest/airlines/connector.ts";
import { OneRecordConnector } from "../../ingest/airlines/one-record.ts";
import { type SimulatedAwb, simulateAwb } from "../../ingest/sandbox/airline-simulate.ts";
import { type LocalAirline, serveAirline } from "./serve.ts";

const H = 3600_000;
const D = 24 * H;
let air: LocalAirline;
beforeAll(async () => {
  air = await serveAirline();
});
afterAll(() => air?.stop());

const connector = (iata: string, baseUrl = air.baseUrl(iata), token?: string) =>
  new OneRecordConnector({ iata, baseUrl, token });
const sim = (awb: string, epoch = air.epoch): SimulatedAwb => simulateAwb(awb, { world: air.world, epoch })!;

/** What the contract says the client makes of a simulated event (docs/air-cargo.md). */
function expected(s: SimulatedAwb, now: number): Array<Omit<AwbEvent, "id">> {
  return s.events
    .filter((e) => e.created <= now)
    .map((e) => ({
      code: e.code,
      timeType: e.timeType,
      at: new Date(e.at).toISOString(),
      airport: e.airport.iata,
      flight: ["BKD", "MAN", "DEP", "ARR", "RCF"].includes(e.code) ? (e.flight?.flight ?? null) : null,
      toAirport: ["BKD", "MAN", "DEP"].includes(e.code) ? (e.flight?.to.iata ?? null) : null,
      pieces: e.pieces,
      partial: e.partial,
    }));
}
const withoutIds = (events: AwbEvent[]) => events.map(({ id: _, ...rest }) => rest);

async function kindOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "ok";
  } catch (err) {
    return err instanceof AirlineError ? err.kind : `thrown ${String(err)}`;
  }
}

/** Waybills of the played airlines with the paths the simulator can take. */
function findAwb(prefix: string, want: (s: SimulatedAwb) => boolean): string {
  for (let i = 0; i < 5000; i++) {
    const awb = withAwbCheckDigit(`${prefix}${String(3_000_000 + i * 37).padStart(7, "0")}`);
    if (want(sim(awb))) return awb;
  }
  throw new Error(`no AWB of ${prefix} found`);
}

describe("a shipment read through the airline's ONE Record server as the clock moves", () => {
  // Three stops or more, booked before the epoch: a multi-leg itinerary read from booking to delivery.
  let awb: string;
  let s: SimulatedAwb;
  beforeAll(() => {
    awb = findAwb("020", (x) => x.stops.length >= 3 && x.split);
    s = sim(awb);
  });

  test("before the booking the airline does not know the waybill", async () => {
    air.clock.set(s.bookedAt - 1);
    expect(await kindOf(connector("LH").waybill(awb))).toBe("not_found");
  });

  test("the snapshot is the simulated shipment; events grow only by publication, never change", async () => {
    let previous: AwbEvent[] = [];
    const end = Math.max(...s.events.map((e) => e.created)) + H;
    for (let now = s.bookedAt; now <= end + 6 * H; now += 6 * H) {
      air.clock.set(now);
      const snap = await connector("LH").waybill(awb);
      expect({ awb: snap.awb, origin: snap.origin, destination: snap.destination }).toEqual({
        awb,
        origin: s.origin.iata,
        destination: s.destination.iata,
      });
      expect([snap.pieces, snap.weightKg]).toEqual([s.pieces, s.weightKg]);
      expect(withoutIds(snap.events)).toEqual(expected(s, now));
      expect(snap.events.slice(0, previous.length)).toEqual(previous);
      previous = snap.events;
    }
    expect(previous.length).toBe(s.events.length);
    expect(new Set(previous.map((e) => e.id)).size).toBe(previous.length);
    // A split booking: both parts booked on the first leg, each partial, pieces adding up.
    const firstLeg = previous.filter((e) => e.code === "BKD" && e.airport === s.origin.iata);
    expect(firstLeg.every((e) => e.partial)).toBe(true);
    expect(firstLeg.reduce((n, e) => n + (e.pieces ?? 0), 0)).toBe(s.pieces);
    const delivered = previous.filter((e) => e.code === "DLV");
    expect(delivered.reduce((n, e) => n + (e.pieces ?? 0), 0)).toBe(s.pieces);
  });
});

test("an offloaded part: DIS_OFLD, a new booking on the next day's flight, the rest flies on", async () => {
  const awb = findAwb("157", (x) => x.offload !== null && x.offload.pieces < x.pieces);
  const s = sim(awb);
  air.clock.set(Math.max(...s.events.map((e) => e.created)));
  const snap = await connector("QR").waybill(awb);
  const off = snap.events.find((e) => e.code === "DIS_OFLD")!;
  expect(off).toMatchObject({ airport: s.offload!.airport.iata, pieces: s.offload!.pieces, partial: true });
  expect(off.flight).toBeNull(); // the contract names flights for BKD, MAN, DEP, ARR, RCF only
  const flight = s.offload!.flight;
  const booked = snap.events.filter((e) => e.code === "BKD" && e.flight === flight);
  expect(booked.length).toBe(2);
  expect(Date.parse(booked[1]!.at)).toBe(Date.parse(off.at));
  const departures = snap.events.filter(
    (e) => e.code === "DEP" && e.timeType === "ACTUAL" && e.flight === flight,
  );
  expect(departures.map((e) => e.pieces).sort()).toEqual(
    [s.offload!.pieces, s.pieces - s.offload!.pieces].sort(),
  );
  // The same flight a day later, at the same time of day.
  const [first, second] = departures.map((e) => Date.parse(e.at));
  expect(Math.round((second! - first!) / D)).toBeGreaterThanOrEqual(1);
});

test("a delayed departure is announced (ESTIMATED DEP and ARR) before it happens", async () => {
  const awb = findAwb("176", (x) =>
    x.parts[0]!.flights.some((f) => f.departure - f.plannedDeparture >= 2 * H),
  );
  const s = sim(awb);
  const late = s.parts[0]!.flights.find((f) => f.departure - f.plannedDeparture >= 2 * H)!;
  const estimate = s.events.find((e) => e.code === "DEP" && e.timeType === "ESTIMATED" && e.flight === late)!;
  air.clock.set(estimate.created);
  const snap = await connector("EK").waybill(awb);
  const dep = snap.events.filter((e) => e.code === "DEP" && e.flight === late.flight);
  expect(dep.map((e) => [e.timeType, Date.parse(e.at)])).toEqual([
    ["PLANNED", late.plannedDeparture],
    ["ESTIMATED", late.departure],
  ]);
  const estimates = snap.events.filter((e) => e.timeType === "ESTIMATED" && e.flight === late.flight);
  expect(estimates.map((e) => [e.code, Date.parse(e.at)]).sort()).toEqual([
    ["ARR", late.plannedArrival + late.departure - late.plannedDeparture],
    ["DEP", late.departure],
  ]);
  expect(
    snap.events.some((e) => e.timeType === "ACTUAL" && e.code === "DEP" && e.flight === late.flight),
  ).toBe(false);
});

test("same AWB, same itinerary: a fresh server agrees, and another epoch shifts every time alike", async () => {
  const awb = withAwbCheckDigit("1601234567");
  const other = await serveAirline({ world: air.world });
  const later = await serveAirline({ world: air.world, epoch: air.epoch + 100 * D });
  try {
    air.clock.set(air.epoch + 20 * D);
    other.clock.set(air.epoch + 20 * D);
    later.clock.set(air.epoch + 120 * D);
    const [a, b, c] = await Promise.all([
      connector("CX").waybill(awb),
      connector("CX", other.baseUrl("CX")).waybill(awb),
      connector("CX", later.baseUrl("CX")).waybill(awb),
    ]);
    expect(b).toEqual(a);
    expect(c.events.map((e) => [e.id, e.code, Date.parse(e.at) - 100 * D])).toEqual(
      a.events.map((e) => [e.id, e.code, Date.parse(e.at)]),
    );
  } finally {
    other.stop();
    later.stop();
  }
});

test("a long log comes in pages (skip) and reads the same as in one response", async () => {
  const paged = await serveAirline({ world: air.world, pageSize: 3 });
  try {
    const awb = findAwb("235", (x) => x.events.length > 20);
    const now = air.epoch + 30 * D;
    air.clock.set(now);
    paged.clock.set(now);
    const whole = await connector("TK").waybill(awb);
    expect(whole.events.length).toBeGreaterThan(20);
    expect(await connector("TK", paged.baseUrl("TK")).waybill(awb)).toEqual(whole);
  } finally {
    paged.stop();
  }
});

describe("the airline's refusals", () => {
  test.each([
    ["a wrong check digit", "LH", "02012345670", "not_found"],
    ["another airline's prefix", "LH", withAwbCheckDigit("1601234567"), "not_found"],
    ["a prefix the sandbox does not play", "LH", withAwbCheckDigit("0011234567"), "not_found"],
    ["an airline the sandbox does not play", "AA", withAwbCheckDigit("0011234567"), "not_found"],
  ])("%s: %s %s answers %s", async (_, iata, awb, kind) => {
    air.clock.set(air.epoch + 60 * D);
    expect(await kindOf(connector(iata).waybill(awb))).toBe(kind);
  });

  test("the not_found message carries the airline's hint", async () => {
    air.clock.set(air.epoch);
    const err = await connector("LH")
      .waybill("02012345670")
      .catch((e: AirlineError) => e);
    expect((err as AirlineError).message).toContain("check digit should be 5");
  });

  test("a server wanting a token: none or a wrong one is unavailable (401), the right one reads", async () => {
    const locked = await serveAirline({ world: air.world, apiKey: "s3cret" });
    try {
      const awb = withAwbCheckDigit("0201111111");
      locked.clock.set(air.epoch + 60 * D);
      const base = locked.baseUrl("LH");
      expect(await kindOf(connector("LH", base).waybill(awb))).toBe("unavailable");
      expect(await kindOf(connector("LH", base, "wrong").waybill(awb))).toBe("unavailable");
      expect(await kindOf(connector("LH", base, "s3cret").waybill(awb))).toBe("ok");
    } finally {
      locked.stop();
    }
  });

  test("nobody listening is unavailable", async () => {
    const gone = await serveAirline({ world: air.world });
    const base = gone.baseUrl("LH");
    gone.stop();
    expect(await kindOf(connector("LH", base).waybill(withAwbCheckDigit("0201111111")))).toBe("unavailable");
  });
});
