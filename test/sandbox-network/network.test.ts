/**
 * The sandbox service network: properties of its dated sailings and noise (fast-check over epochs,
 * clock readings and queries), and its DCSA CS 1.0.3 bodies checked against the OpenAPI shapes.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { isValidImo } from "../../ingest/sandbox/fleet.ts";
import { type CsEndpoint, csResponse } from "../../ingest/sandbox/network/cs-api.ts";
import {
  D,
  H,
  hullsNeeded,
  MAX_DELAY_H,
  MAX_EARLY_H,
  type Network,
  serviceNetwork,
} from "../../ingest/sandbox/network/network.ts";
import { type PublishedCall, publish, sailingNoise } from "../../ingest/sandbox/network/noise.ts";
import { publishedSailings } from "../../ingest/sandbox/network/routes.ts";
import { sailing, sailingNumbers } from "../../ingest/sandbox/network/sailings.ts";
import { SERVICE_SPECS } from "../../ingest/sandbox/network/services.ts";
import { DEFAULT_EPOCH } from "../../ingest/sandbox/simulate.ts";
import { loadWorld, SANDBOX_SCACS, type SandboxWorld } from "../../ingest/sandbox/world.ts";
import { validateCsBody } from "../../ingest/schedules/cs-validate.ts";

let world: SandboxWorld;
let network: Network;
beforeAll(async () => {
  world = await loadWorld();
  network = serviceNetwork(world);
});

/** Epochs within two years of the default; clock readings within 120 days of the epoch. */
const epochArb = fc.integer({ min: -365, max: 365 }).map((d) => DEFAULT_EPOCH + d * D + (d % 7) * H);
const offsetArb = fc.integer({ min: -60 * 24, max: 120 * 24 }).map((h) => h * H);

function callsBetween(epoch: number, now: number, from: number, to: number): PublishedCall[] {
  return network.services.flatMap((s) => publishedSailings(s, epoch, now, from, to).flatMap((p) => p.calls));
}

function get(endpoint: CsEndpoint, scac: string, query: string, epoch: number, now: number) {
  const res = csResponse(
    new Request(`http://sandbox/${scac}/cs/v1/${endpoint}?${query}`),
    network,
    epoch,
    now,
    scac,
    endpoint,
  );
  return res;
}

const ITEM = {
  "point-to-point-routes": "PointToPoint",
  "port-schedules": "PortSchedule",
  "vessel-schedules": "ServiceSchedule",
} as const;

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe("services", () => {
  test("each service has the hulls its round trip needs at its frequency, from its carrier's fleet", () => {
    expect(network.services.length).toBe(SERVICE_SPECS.length);
    for (const s of network.services) {
      expect(s.hulls.length).toBe(hullsNeeded(s.roundTripH, s.frequencyDays));
      expect(s.hulls.length).toBeGreaterThanOrEqual(Math.ceil(s.roundTripH / (s.frequencyDays * 24)));
      expect(s.cycleH).toBe(s.hulls.length * s.frequencyDays * 24);
      expect(s.hulls.every((v) => isValidImo(v.imo))).toBe(true);
      // Room for the worst delay at the last call and the earliest running at the next sailing's first.
      const lastLegH = Math.ceil(s.legNm.at(-1)! / s.knots);
      expect(s.cycleH - s.calls.at(-1)!.departureH - lastLegH).toBeGreaterThanOrEqual(
        MAX_DELAY_H + MAX_EARLY_H,
      );
      // Leg times come from real sea distances: no leg is shorter than the great-circle hop.
      expect(s.legNm.every((nm) => nm > 20)).toBe(true);
    }
    for (const scac of SANDBOX_SCACS) {
      const imos = network.byScac(scac).flatMap((s) => s.hulls.map((v) => v.imo));
      expect(new Set(imos).size).toBe(imos.length);
      expect(network.byScac(scac).length).toBeGreaterThanOrEqual(2);
    }
  });
});

describe("sailings", () => {
  test("a hull is never in two places at once, planned or as published at any clock reading", () => {
    fc.assert(
      fc.property(epochArb, offsetArb, offsetArb, (epoch, windowOffset, clockOffset) => {
        const from = epoch + windowOffset;
        const calls = callsBetween(epoch, epoch + clockOffset, from, from + 60 * D);
        const byHull = new Map<string, PublishedCall[]>();
        for (const c of calls) {
          const list = byHull.get(c.sailing.vessel.imo) ?? [];
          list.push(c);
          byHull.set(c.sailing.vessel.imo, list);
        }
        const stays: Array<(c: PublishedCall) => [number, number]> = [
          (c) => [c.arrival.time, c.departure.time],
          (c) => [c.arrival.planned, c.departure.planned],
        ];
        for (const list of byHull.values()) {
          for (const stay of stays) {
            const sorted = list.map(stay).sort((a, b) => a[0] - b[0]);
            for (let i = 1; i < sorted.length; i++) expect(sorted[i]![0]).toBeGreaterThan(sorted[i - 1]![1]);
          }
        }
        expect(byHull.size).toBeGreaterThan(0);
      }),
      { numRuns: 40 },
    );
  });

  test("published calls keep rotation order and arrive before they depart", () => {
    fc.assert(
      fc.property(epochArb, offsetArb, (epoch, clockOffset) => {
        const now = epoch + clockOffset;
        for (const s of network.services) {
          for (const p of publishedSailings(s, epoch, now, now - 30 * D, now + 30 * D)) {
            const idx = p.calls.map((c) => c.call.index);
            expect(idx).toEqual([...idx].sort((a, b) => a - b));
            expect(new Set(idx).size).toBe(idx.length);
            for (const [i, c] of p.calls.entries()) {
              expect(c.departure.time).toBeGreaterThan(c.arrival.time);
              if (i > 0) expect(c.arrival.time).toBeGreaterThan(p.calls[i - 1]!.departure.time);
              // Actual only for what has happened; cut-offs before the departure.
              if (c.arrival.classifier === "ACT") expect(c.arrival.time).toBeLessThanOrEqual(now);
              if (c.departure.time <= now - 7 * 24 * H) expect(c.departure.classifier).toBe("ACT");
              expect(c.cutOffs.every((k) => k.at < c.departure.time)).toBe(true);
            }
          }
        }
      }),
      { numRuns: 40 },
    );
  });

  test("estimates move with the clock and settle on the actual times", () => {
    const s = network.services[0]!;
    let moved = 0;
    for (const n of sailingNumbers(s, DEFAULT_EPOCH, DEFAULT_EPOCH, DEFAULT_EPOCH + 200 * D)) {
      const sl = sailing(s, DEFAULT_EPOCH, n);
      const noise = sailingNoise(sl);
      const early = publish(sl, sl.start - 30 * D, noise);
      const late = publish(sl, sl.start + s.cycleH * H + 10 * D, noise);
      if (!early || !late) continue;
      // Long before, the proforma; long after, every call actual at its drawn delay.
      expect(early.calls.every((c) => c.arrival.time === c.arrival.planned)).toBe(true);
      for (const c of late.calls) {
        expect(c.arrival.classifier).toBe("ACT");
        expect(c.arrival.time).toBe(c.arrival.planned + noise.delayH[c.call.index]! * H);
      }
      if (late.calls.some((c) => c.arrival.time !== c.arrival.planned)) moved++;
    }
    expect(moved).toBeGreaterThan(0);
  });

  test("the same epoch gives identical bodies", async () => {
    const other = serviceNetwork(world, [...SERVICE_SPECS]);
    await fc.assert(
      fc.asyncProperty(
        epochArb,
        offsetArb,
        fc.constantFrom(...SANDBOX_SCACS),
        async (epoch, clockOffset, scac) => {
          const now = epoch + clockOffset;
          const code = network.byScac(scac)[0]!.rotation[0]!;
          const q = `UNLocationCode=${code}&date=${isoDate(now)}`;
          const a = csResponse(new Request(`http://x/?${q}`), network, epoch, now, scac, "port-schedules");
          const b = csResponse(new Request(`http://x/?${q}`), other, epoch, now, scac, "port-schedules");
          const [x, y] = await Promise.all([a.text(), b.text()]);
          expect(x).toBe(y);
          expect(JSON.parse(x).length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 20 },
    );
  });
});

describe("noise", () => {
  const all = () =>
    network.services.flatMap((s) =>
      sailingNumbers(s, DEFAULT_EPOCH, DEFAULT_EPOCH - 200 * D, DEFAULT_EPOCH + 200 * D).map((n) =>
        sailing(s, DEFAULT_EPOCH, n),
      ),
    );

  test("blank sailings vanish from every endpoint once announced, and are there before", async () => {
    const blanked = all().filter((s) => sailingNoise(s).blank);
    expect(blanked.length).toBeGreaterThan(0);
    for (const s of blanked.slice(0, 6)) {
      const at = sailingNoise(s).blank!.at;
      const first = s.calls[0]!;
      const q = `carrierServiceCode=${s.service.code}&startDate=${isoDate(s.start)}&endDate=${isoDate(s.start + 3 * D)}`;
      const ids = async (now: number) => {
        const body = (await get("vessel-schedules", s.service.scac, q, DEFAULT_EPOCH, now).json()) as Array<{
          vesselSchedules: Array<{ transportCalls: Array<{ transportCallReference: string }> }>;
        }>;
        return body.flatMap((x) =>
          x.vesselSchedules.flatMap((v) => v.transportCalls.map((c) => c.transportCallReference)),
        );
      };
      const mine = (refs: string[]) => refs.filter((r) => r.startsWith(`${s.id}-`));
      expect(mine(await ids(at - H)).length).toBeGreaterThan(0);
      expect(mine(await ids(at))).toEqual([]);
      const routes = (await get(
        "point-to-point-routes",
        s.service.scac,
        `placeOfReceipt=${first.port.locode}&placeOfDelivery=${s.calls[1]!.port.locode}&departureStartDate=${isoDate(first.departure - D)}&departureEndDate=${isoDate(first.departure + D)}&maxTranshipment=0`,
        DEFAULT_EPOCH,
        at,
      ).json()) as Array<{ routingReference: string }>;
      expect(routes.some((r) => r.routingReference.split("+").includes(s.id))).toBe(false);
    }
  });

  test("an omitted call disappears when announced; the rest of the sailing stays", () => {
    const omitted = all().filter((s) => sailingNoise(s).omit && !sailingNoise(s).blank);
    expect(omitted.length).toBeGreaterThan(0);
    for (const s of omitted) {
      const { index, at } = sailingNoise(s).omit!;
      expect(publish(s, at - H)!.calls.map((c) => c.call.index)).toContain(index);
      const after = publish(s, at)!.calls.map((c) => c.call.index);
      expect(after).not.toContain(index);
      expect(after.length).toBe(s.calls.length - 1);
    }
  });

  test("a cut-off change moves the FCL cut-off earlier from its announcement", () => {
    const changed = all().filter(
      (s) => sailingNoise(s).cutoff && !sailingNoise(s).blank && !sailingNoise(s).omit,
    );
    expect(changed.length).toBeGreaterThan(0);
    for (const s of changed) {
      const { index, hours, at } = sailingNoise(s).cutoff!;
      const fco = (now: number) => {
        const c = publish(s, now)!.calls.find((x) => x.call.index === index)!;
        return c.cutOffs.find((k) => k.code === "FCO")!.at - c.departure.time;
      };
      expect(fco(at) - fco(at - 1)).toBeLessThanOrEqual(0);
      expect(fco(at)).toBe(-(24 + hours) * H);
    }
  });
});

describe("DCSA CS 1.0.3", () => {
  const queryArb = fc.oneof(
    fc.record({
      endpoint: fc.constant("point-to-point-routes" as const),
      scac: fc.constantFrom(...SANDBOX_SCACS),
      pick: fc.nat(),
      pick2: fc.nat(),
      maxTs: fc.constantFrom(0, 1),
    }),
    fc.record({
      endpoint: fc.constantFrom("port-schedules" as const, "vessel-schedules" as const),
      scac: fc.constantFrom(...SANDBOX_SCACS),
      pick: fc.nat(),
      pick2: fc.nat(),
      maxTs: fc.constant(0),
    }),
  );

  function query(
    q: { endpoint: CsEndpoint; scac: string; pick: number; pick2: number; maxTs: number },
    now: number,
  ) {
    const ports = [...new Set(network.byScac(q.scac).flatMap((s) => s.rotation))].sort();
    const a = ports[q.pick % ports.length]!;
    const b = ports[(q.pick + 1 + (q.pick2 % (ports.length - 1))) % ports.length]!;
    const day = isoDate(now);
    if (q.endpoint === "point-to-point-routes")
      return `placeOfReceipt=${a}&placeOfDelivery=${b}&departureStartDate=${day}&departureEndDate=${isoDate(now + 42 * D)}&maxTranshipment=${q.maxTs}`;
    if (q.endpoint === "port-schedules") return `UNLocationCode=${a}&date=${day}`;
    const services = network.byScac(q.scac);
    return q.pick2 % 2
      ? `UNLocationCode=${a}&startDate=${day}&endDate=${isoDate(now + 20 * D)}`
      : `carrierServiceCode=${services[q.pick2 % services.length]!.code}&startDate=${day}&endDate=${isoDate(now + 30 * D)}`;
  }

  test("bodies match the OpenAPI shapes and pagination covers every result once", async () => {
    await fc.assert(
      fc.asyncProperty(queryArb, offsetArb, fc.integer({ min: 1, max: 4 }), async (q, clockOffset, limit) => {
        const now = DEFAULT_EPOCH + clockOffset;
        const qs = query(q, now);
        const whole = get(q.endpoint, q.scac, qs, DEFAULT_EPOCH, now);
        expect(whole.status).toBe(200);
        expect(whole.headers.get("API-Version")).toBe("1.0.3");
        const all = (await whole.json()) as unknown[];
        const checked = validateCsBody(all, ITEM[q.endpoint]);
        expect(checked.ok ? [] : checked.issues).toEqual([]);
        const pages: unknown[] = [];
        let cursor: string | null = null;
        for (let i = 0; i <= all.length; i++) {
          const more = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
          // Later pages see the clock of the first, whatever it reads now.
          const res = get(q.endpoint, q.scac, `${qs}&limit=${limit}${more}`, DEFAULT_EPOCH, now + i * D);
          const page = (await res.json()) as unknown[];
          expect(page.length).toBeLessThanOrEqual(limit);
          pages.push(...page);
          cursor = res.headers.get("Next-Page-Cursor");
          if (!cursor) break;
        }
        expect(cursor).toBeNull();
        expect(pages).toEqual(all);
      }),
      { numRuns: 40 },
    );
  });

  test("point-to-point routes are sorted, timed and connect at hubs", async () => {
    const body = (await get(
      "point-to-point-routes",
      "MAEU",
      `placeOfReceipt=CNSHA&placeOfDelivery=USNYC&departureStartDate=${isoDate(DEFAULT_EPOCH)}&departureEndDate=${isoDate(DEFAULT_EPOCH + 60 * D)}`,
      DEFAULT_EPOCH,
      DEFAULT_EPOCH,
    ).json()) as Array<{
      solutionNumber: number;
      placeOfReceipt: { dateTime: string };
      legs: Array<{
        departure: { location: { UNLocationCode: string }; dateTime: string };
        arrival: { location: { UNLocationCode: string }; dateTime: string };
      }>;
    }>;
    expect(body.length).toBeGreaterThan(0);
    body.forEach((r, i) => {
      expect(r.solutionNumber).toBe(i + 1);
      expect(r.legs.length).toBe(2);
      expect(r.legs[0]!.arrival.location.UNLocationCode).toBe(r.legs[1]!.departure.location.UNLocationCode);
      expect(
        Date.parse(r.legs[1]!.departure.dateTime) - Date.parse(r.legs[0]!.arrival.dateTime),
      ).toBeGreaterThanOrEqual(24 * H);
      if (i > 0)
        expect(Date.parse(r.placeOfReceipt.dateTime)).toBeGreaterThanOrEqual(
          Date.parse(body[i - 1]!.placeOfReceipt.dateTime),
        );
    });
    const direct = await get(
      "point-to-point-routes",
      "MAEU",
      "placeOfReceipt=CNSHA&placeOfDelivery=USNYC&maxTranshipment=0",
      DEFAULT_EPOCH,
      DEFAULT_EPOCH,
    ).json();
    expect(direct).toEqual([]);
  });

  test("bad queries get a CS ErrorResponse naming the parameter", async () => {
    const cases: Array<[CsEndpoint, string, string]> = [
      ["point-to-point-routes", "placeOfDelivery=NLRTM", "placeOfReceipt"],
      ["point-to-point-routes", "placeOfReceipt=cnsha&placeOfDelivery=NLRTM", "placeOfReceipt"],
      [
        "point-to-point-routes",
        "placeOfReceipt=CNSHA&placeOfDelivery=NLRTM&maxTranshipment=-1",
        "maxTranshipment",
      ],
      ["port-schedules", "UNLocationCode=SGSIN", "date"],
      ["port-schedules", "UNLocationCode=SGSIN&date=2026-13-45", "date"],
      ["vessel-schedules", "startDate=2026-11-01", "vesselIMONumber"],
      ["vessel-schedules", "carrierServiceCode=AE1&limit=0", "limit"],
      ["vessel-schedules", "carrierServiceCode=AE1&cursor=bogus", "cursor"],
    ];
    for (const [endpoint, qs, property] of cases) {
      const res = get(endpoint, "MAEU", qs, DEFAULT_EPOCH, DEFAULT_EPOCH);
      expect(res.status).toBe(400);
      const body = (await res.json()) as { errors: Array<{ property: string }> };
      expect(body.errors[0]!.property).toBe(property);
    }
    // A cursor continues only the query that issued it.
    const first = get(
      "vessel-schedules",
      "MAEU",
      "UNLocationCode=CNSHA&limit=1",
      DEFAULT_EPOCH,
      DEFAULT_EPOCH,
    );
    const cursor = first.headers.get("Next-Page-Cursor");
    expect(cursor).not.toBeNull();
    const altered = get(
      "vessel-schedules",
      "MAEU",
      `UNLocationCode=KRPUS&limit=1&cursor=${cursor}`,
      DEFAULT_EPOCH,
      DEFAULT_EPOCH,
    );
    expect(altered.status).toBe(400);
  });
});
