/**
 * The schedules product's read routes through the real app (app.handle), over sailings synced from
 * the real sandbox process (ingest/schedules/sync.ts) into the test database (SQLite, or PostgreSQL
 * under PORTOLAN_TEST_DB): point-to-point search, port calls, vessel and service schedules,
 * reliability; keyed under /v1 and open under /public/v1 (429 per IP at the spec's 40 per window);
 * bad parameters answer the validation error and no query answers 500.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import type { CallTimes, ScheduleCall } from "../../ingest/schedules/cs-types.ts";
import { ScheduleSync } from "../../ingest/schedules/sync.ts";
import type { SailingRow } from "../../storage/sailings.ts";
import { errorProblems, successProblems } from "../helpers/envelopes.ts";
import { bearer, makePlatform, type TestPlatform } from "../helpers/platform.ts";
import { type RunningSandbox, sandboxCarriers, startSandbox } from "../sandbox/spawn.ts";

const KEY = "schedules-routes-test-key";
const H = 3_600_000;
const D = 24 * H;
let sandbox: RunningSandbox;
let p: TestPlatform;
let key: string;
let rows: SailingRow[];
const clock = Date.parse("2026-02-02T00:00:00Z");

// A fresh client address per request keeps these tests clear of the per-IP window.
let nextIp = 1;
const freshIp = () => `198.51.${Math.floor(nextIp / 250) % 250}.${(nextIp++ % 250) + 1}`;

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read field by field and checked by the assertions
type Json = Record<string, any>;

async function keyed(path: string): Promise<{ status: number; body: Json }> {
  const res = await p.call("schedules", path, bearer(key));
  const body = (await res.json()) as Json;
  expect(res.ok ? successProblems("schedules", body) : errorProblems("schedules", body)).toEqual([]);
  return { status: res.status, body };
}

async function open(path: string, ip = freshIp()): Promise<{ status: number; body: Json }> {
  const res = await p.call("schedules", path, { headers: { "x-forwarded-for": ip } });
  const body = (await res.json()) as Json;
  expect(
    res.ok ? successProblems("schedules", body) : errorProblems("schedules", body, { open: true }),
  ).toEqual([]);
  return { status: res.status, body };
}

const data = async (path: string) => {
  const r = await keyed(path);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data as Json;
};

beforeAll(async () => {
  sandbox = await startSandbox({ SANDBOX_API_KEY: KEY, SANDBOX_EPOCH: "2026-01-05T00:00:00Z" });
  await sandbox.setClock({ now: new Date(clock).toISOString() });
  const carriers = await sandboxCarriers(sandbox, KEY);
  p = await makePlatform({ trustProxy: true }, () => clock);
  const tenant = await p.tenant();
  key = tenant.keys.schedules;
  // An arranged ceiling keeps the many keyed calls here clear of the account window.
  await p.accounts.setPlan(tenant.orgId, { rateLimit: 1_000_000 });
  const sync = new ScheduleSync({ storage: p.storage, carriers, now: () => clock, log: () => {} });
  expect(await sync.pollDue()).toBe(carriers.length);
  rows = (await p.storage.db.select().from(p.storage.t.sailings)).filter((r) => r.status === "active");
}, 120_000);
afterAll(async () => {
  await p?.close();
  await sandbox?.stop();
});

// ---- Independent readings of the stored rows (the definitions the docs state) ----

const callsOf = (s: SailingRow) => s.calls as ScheduleCall[];
const bestOf = (t: CallTimes) => {
  const v = t.actual ?? t.estimated ?? t.planned;
  return v === undefined ? undefined : Date.parse(v);
};
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Sailings departing `origin` (best-known time) in [from, to) that call `destination` after it. */
function directSailings(origin: string, destination: string, from: number, to: number): string[] {
  const out: string[] = [];
  for (const s of rows) {
    const calls = callsOf(s);
    calls.forEach((c, i) => {
      const dep = bestOf(c.departure);
      if (c.place.unlocode !== origin || (c.exportVoyage ?? c.importVoyage) !== s.voyage) return;
      if (dep === undefined || dep < from || dep >= to) return;
      if (
        calls.slice(i + 1).some((k) => k.place.unlocode === destination && bestOf(k.arrival) !== undefined)
      ) {
        out.push(s.id);
      }
    });
  }
  return out.sort();
}

/** A port pair on one stored sailing departing around the clock: origin first, destination later. */
function lanesAroundNow(n: number): Array<[string, string]> {
  const pairs = new Map<string, [string, string]>();
  for (const s of rows) {
    if (Math.abs(Date.parse(s.departsAt) - clock) > 10 * D) continue;
    const ports = callsOf(s).map((c) => c.place.unlocode!);
    const [a, b] = [ports[0]!, ports[Math.min(2, ports.length - 1)]!];
    if (a !== b) pairs.set(`${a}-${b}`, [a, b]);
  }
  return [...pairs.values()].slice(0, n);
}

describe("point-to-point search", () => {
  test("direct routings are exactly the stored sailings calling origin then destination in the window", async () => {
    const lanes = lanesAroundNow(6);
    expect(lanes.length).toBeGreaterThan(2);
    for (const [o, d] of lanes) {
      const from = clock;
      const to = clock + 28 * D;
      const res = await data(
        `/v1/point-to-point?origin=${o}&destination=${d}&from=${day(from)}&to=${day(to - D)}&direct_only=true&limit=500`,
      );
      expect(res).toMatchObject({
        origin: o,
        destination: d,
        from: day(from),
        to: day(to - D),
        max_transshipments: 0,
      });
      const expected = directSailings(o, d, from, to);
      expect(expected.length, `${o}-${d}`).toBeGreaterThan(0);
      expect(res.routes.map((r: Json) => r.routing).sort()).toEqual(expected);
      for (const r of res.routes) {
        expect(r.transshipments).toBe(0);
        expect(r.legs[0].from.unlocode).toBe(o);
        expect(r.legs[0].to.unlocode).toBe(d);
        expect(Date.parse(r.arrival_at)).toBeGreaterThan(Date.parse(r.departure_at));
      }
      const departures = res.routes.map((r: Json) => Date.parse(r.departure_at));
      expect(departures).toEqual([...departures].sort((a, b) => a - b));
    }
  });

  test("one transshipment joins two sailings of one carrier at a hub, at least 24 h and at most 21 days apart", async () => {
    let transfers = 0;
    // Ports of one service to ports of another: only a transfer joins some of them.
    const byService = new Map<string, SailingRow>();
    for (const s of rows) {
      if (Math.abs(Date.parse(s.departsAt) - clock) < 7 * D)
        byService.set(`${s.carrier}/${s.serviceCode}`, s);
    }
    const samples = [...byService.values()];
    for (let i = 0; i + 1 < samples.length && transfers < 10; i++) {
      const a = samples[i]!;
      const b = samples.find((s) => s.carrier === a.carrier && s.serviceCode !== a.serviceCode);
      if (!b) continue;
      const o = callsOf(a)[0]!.place.unlocode!;
      const d = callsOf(b).at(-1)!.place.unlocode!;
      if (o === d) continue;
      const res = await data(
        `/v1/point-to-point?origin=${o}&destination=${d}&carrier=${a.carrier}&limit=500`,
      );
      for (const r of res.routes) {
        expect(r.legs.every((l: Json) => l.carrier === a.carrier)).toBe(true);
        if (r.transshipments === 0) continue;
        transfers++;
        const [l1, l2] = r.legs;
        expect(l1.from.unlocode).toBe(o);
        expect(l2.to.unlocode).toBe(d);
        expect(l1.to.unlocode).toBe(r.transshipment.unlocode);
        expect(l2.from.unlocode).toBe(r.transshipment.unlocode);
        expect(l1.sailing_id).not.toBe(l2.sailing_id);
        const wait = bestOf(l2.from.departure)! - bestOf(l1.to.arrival)!;
        expect(wait).toBeGreaterThanOrEqual(24 * H);
        expect(wait).toBeLessThanOrEqual(21 * D);
        expect(r.transshipment.connection_hours).toBe(Math.round(wait / H));
      }
      const direct = await data(
        `/v1/point-to-point?origin=${o}&destination=${d}&carrier=${a.carrier}&max_transshipments=0`,
      );
      expect(direct.routes.every((r: Json) => r.transshipments === 0)).toBe(true);
    }
    expect(transfers).toBeGreaterThan(0);
  });

  test("sort=transit_time orders by transit time; the carrier filter keeps only that carrier", async () => {
    const [o, d] = lanesAroundNow(1)[0]!;
    const res = await data(`/v1/point-to-point?origin=${o}&destination=${d}&sort=transit_time&limit=500`);
    const transit = res.routes.map((r: Json) => Date.parse(r.arrival_at) - Date.parse(r.departure_at));
    expect(transit).toEqual([...transit].sort((a, b) => a - b));
    const carrier = res.routes[0].legs[0].carrier;
    const only = await data(`/v1/point-to-point?origin=${o}&destination=${d}&carrier=${carrier}&limit=500`);
    expect(only.routes.length).toBeGreaterThan(0);
    expect(only.routes.every((r: Json) => r.legs.every((l: Json) => l.carrier === carrier))).toBe(true);
    const limited = await data(`/v1/point-to-point?origin=${o}&destination=${d}&limit=1`);
    expect(limited.routes).toHaveLength(1);
    expect(limited.total).toBe(res.total);
  });

  test("a well-formed port no sailing calls answers an empty list", async () => {
    const res = await data("/v1/point-to-point?origin=ZZZZZ&destination=NLRTM");
    expect(res.routes).toEqual([]);
    expect(res.total).toBe(0);
  });
});

describe("port, vessel and service schedules", () => {
  test("port calls: each call at the port in the window once, earliest first", async () => {
    const port = callsOf(rows[0]!)[0]!.place.unlocode!;
    const from = clock - 7 * D;
    const to = clock + 7 * D;
    const res = await data(`/v1/ports/${port.toLowerCase()}/calls?from=${day(from)}&to=${day(to - D)}`);
    expect(res.unlocode).toBe(port);
    const keys = new Set<string>();
    for (const s of rows) {
      for (const c of callsOf(s)) {
        if (c.place.unlocode !== port) continue;
        const at = [bestOf(c.arrival), bestOf(c.departure)].filter((x) => x !== undefined);
        if (at.some((x) => x >= from && x < to)) keys.add(`${s.vesselImo}|${c.transportCallReference}`);
      }
    }
    expect(keys.size).toBeGreaterThan(0);
    expect(new Set(res.calls.map((c: Json) => `${c.vessel.imo}|${c.transport_call_reference}`))).toEqual(
      keys,
    );
    for (const c of res.calls) expect(c.unlocode).toBe(port);
    const first = res.calls.map((c: Json) =>
      Math.min(...[bestOf(c.arrival), bestOf(c.departure)].filter((x): x is number => x !== undefined)),
    );
    expect(first).toEqual([...first].sort((a, b) => a - b));
  });

  test("vessel schedule: the hull's sailings overlapping the window, with their calls", async () => {
    const s = rows.find((r) => Math.abs(Date.parse(r.departsAt) - clock) < 7 * D)!;
    const from = clock - 28 * D;
    const to = clock + 28 * D;
    const res = await data(`/v1/vessels/${s.vesselImo}/schedule?from=${day(from)}&to=${day(to - D)}`);
    const expected = rows
      .filter(
        (r) =>
          r.vesselImo === s.vesselImo && Date.parse(r.departsAt) <= to && Date.parse(r.arrivesAt) >= from,
      )
      .map((r) => r.id)
      .sort();
    expect(res.sailings.map((x: Json) => x.sailing_id).sort()).toEqual(expected);
    const mine = res.sailings.find((x: Json) => x.sailing_id === s.id);
    expect(mine.calls.map((c: Json) => c.unlocode)).toEqual(callsOf(s).map((c) => c.place.unlocode));
    expect(mine.calls[0].departure.planned).toBe(callsOf(s)[0]!.departure.planned ?? null);
    // A well-formed IMO no stored sailing uses: an empty list.
    expect((await data("/v1/vessels/0000000/schedule")).sailings).toEqual([]);
  });

  test("service schedule: the service's sailings, optionally of one carrier", async () => {
    const s = rows.find((r) => Math.abs(Date.parse(r.departsAt) - clock) < 7 * D)!;
    const res = await data(`/v1/services/${s.serviceCode}/schedule?carrier=${s.carrier}`);
    expect(res.sailings.length).toBeGreaterThan(0);
    for (const x of res.sailings) expect([x.service_code, x.carrier]).toEqual([s.serviceCode, s.carrier]);
    const expected = rows.filter(
      (r) =>
        r.serviceCode === s.serviceCode &&
        r.carrier === s.carrier &&
        Date.parse(r.departsAt) <= clock + 28 * D &&
        Date.parse(r.arrivesAt) >= clock - (clock % D),
    );
    expect(res.sailings.map((x: Json) => x.sailing_id).sort()).toEqual(expected.map((r) => r.id).sort());
  });
});

describe("reliability", () => {
  test("per carrier: calls reached in the window, on time within a day of the planned arrival", async () => {
    const res = await data("/v1/reliability");
    expect(res.tolerance_hours).toBe(24);
    expect(res.window).toMatchObject({ to: new Date(clock).toISOString(), days: 28 });
    const carriers = new Set(rows.map((r) => r.carrier));
    expect(res.carriers.map((c: Json) => c.carrier)).toEqual([...carriers].sort());
    let calls = 0;
    for (const c of res.carriers) {
      expect(c.calls).toBeGreaterThan(0);
      expect(c.on_time).toBeLessThanOrEqual(c.calls);
      expect(c.reliability).toBe(Math.round((c.on_time / c.calls) * 10_000) / 10_000);
      calls += c.calls;
    }
    expect(res.overall.calls).toBe(calls);
    // The sandbox's noise (delays up to +72 h, weather) leaves some calls late, most on time.
    expect(res.overall.reliability).toBeGreaterThan(0);
    expect(res.overall.reliability).toBeLessThan(1);
    // Independent count of one carrier's measured calls: distinct calls with an actual arrival in the window.
    const one = res.carriers[0];
    const measured = new Map<string, number>();
    for (const s of rows.filter((r) => r.carrier === one.carrier)) {
      for (const c of callsOf(s)) {
        if (!c.arrival.actual || !c.arrival.planned) continue;
        const at = Date.parse(c.arrival.actual);
        if (at < clock - 28 * D || at >= clock) continue;
        measured.set(`${s.vesselImo}|${c.transportCallReference}`, at - Date.parse(c.arrival.planned));
      }
    }
    expect(one.calls).toBe(measured.size);
    expect(one.on_time).toBe([...measured.values()].filter((d) => Math.abs(d) <= D).length);
    // A longer window measures at least as many calls.
    const longer = await data("/v1/reliability?window_days=56");
    expect(longer.overall.calls).toBeGreaterThanOrEqual(res.overall.calls);
  });

  test("per lane: only arrivals at the destination of sailings that called the origin before", async () => {
    const recent = (c: ScheduleCall) =>
      c.arrival.actual !== undefined && Date.parse(c.arrival.actual) >= clock - 28 * D;
    const s = rows.find((r) => callsOf(r).some((c, i) => i > 0 && recent(c)))!;
    const measuredCall = callsOf(s).findIndex((c, i) => i > 0 && recent(c));
    const [o, d] = [callsOf(s)[0]!.place.unlocode!, callsOf(s)[measuredCall]!.place.unlocode!];
    const lane = await data(
      `/v1/reliability?origin=${o}&destination=${d}&carrier=${s.carrier}&window_days=56`,
    );
    const all = await data(`/v1/reliability?carrier=${s.carrier}&window_days=56`);
    expect(lane.lane).toEqual({ origin: o, destination: d });
    expect(lane.carriers.map((c: Json) => c.carrier)).toEqual([s.carrier]);
    expect(lane.overall.calls).toBeGreaterThan(0);
    expect(lane.overall.calls).toBeLessThan(all.overall.calls);
  });
});

describe("validation", () => {
  test.each([
    ["/v1/point-to-point?destination=NLRTM", "origin"],
    ["/v1/point-to-point?origin=NL&destination=NLRTM", "origin"],
    ["/v1/point-to-point?origin=NLRTM&destination=NLRTM", "differ"],
    ["/v1/point-to-point?origin=CNSHA&destination=NLRTM&from=2026-02-30", "from"],
    ["/v1/point-to-point?origin=CNSHA&destination=NLRTM&from=2026-03-01&to=2026-02-01", "before"],
    ["/v1/point-to-point?origin=CNSHA&destination=NLRTM&from=2026-01-01&to=2026-03-01", "56 days"],
    ["/v1/point-to-point?origin=CNSHA&destination=NLRTM&max_transshipments=2", "max_transshipments"],
    ["/v1/point-to-point?origin=CNSHA&destination=NLRTM&direct_only=yes", "direct_only"],
    ["/v1/point-to-point?origin=CNSHA&destination=NLRTM&sort=price", "sort"],
    ["/v1/point-to-point?origin=CNSHA&destination=NLRTM&limit=0", "limit"],
    ["/v1/point-to-point?origin=CNSHA&destination=NLRTM&carrier=M4EU", "carrier"],
    ["/v1/ports/ROTTERDAM/calls", "UN/LOCODE"],
    ["/v1/ports/NLRTM/calls?from=2026-01-01&to=2026-06-01", "56 days"],
    ["/v1/vessels/12345/schedule", "IMO"],
    ["/v1/services/ABCDEFGHIJKL/schedule", "service code"],
    ["/v1/reliability?origin=CNSHA", "both"],
    ["/v1/reliability?window_days=57", "window_days"],
  ])("%s answers VALIDATION_ERROR naming %s, keyed and open", async (path, names) => {
    const k = await keyed(path);
    expect(k.status).toBe(400);
    expect(k.body.error.code).toBe("VALIDATION_ERROR");
    expect(k.body.error.message).toContain(names);
    const o = await open(`/public${path}`);
    expect(o.status).toBe(400);
    expect(o.body.message).toContain(names);
  });
});

describe("/public/* and keys", () => {
  test("/public/v1 answers without a key, exactly as the keyed route; /v1 needs the key", async () => {
    const [o, d] = lanesAroundNow(1)[0]!;
    const path = `/v1/point-to-point?origin=${o}&destination=${d}`;
    const pub = await open(`/public${path}`);
    expect(pub.status).toBe(200);
    expect(pub.body.data).toEqual(await data(path));
    const bare = await p.call("schedules", path);
    expect(bare.status).toBe(401);
    expect(errorProblems("schedules", (await bare.json()) as Json)).toEqual([]);
  });

  test("one IP gets 40 requests per window on /public/*, then 429; another IP is unaffected", async () => {
    const ip = "203.0.113.9";
    const statuses: number[] = [];
    for (let i = 0; i < 41; i++)
      statuses.push((await open("/public/v1/reliability?window_days=1", ip)).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(40);
    expect(statuses[40]).toBe(429);
    expect((await open("/public/v1/reliability?window_days=1", "203.0.113.10")).status).toBe(200);
  });

  test("the OpenAPI document lists the keyed and the public routes", async () => {
    const doc = (await (
      await p.call("schedules", "/swagger/json", { headers: { "x-forwarded-for": freshIp() } })
    ).json()) as Json;
    for (const path of [
      "/v1/point-to-point",
      "/public/v1/point-to-point",
      "/v1/ports/{unlocode}/calls",
      "/v1/vessels/{imo}/schedule",
      "/v1/services/{code}/schedule",
      "/public/v1/reliability",
    ]) {
      expect(doc.paths[path]?.get, path).toBeDefined();
    }
  });
});

test("no query answers 500 (fast-check over every route's parameters)", async () => {
  const word = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.string({ unit: "binary", maxLength: 12 }),
    fc.constantFrom("CNSHA", "NLRTM", "2026-02-01", "2026-13-01", "0", "1", "-1", "true", "MAEU", "9999999"),
  );
  const route = fc.constantFrom(
    "point-to-point",
    "reliability",
    "ports/{x}/calls",
    "vessels/{x}/schedule",
    "services/{x}/schedule",
  );
  const names = fc.constantFrom(
    "origin",
    "destination",
    "from",
    "to",
    "carrier",
    "direct_only",
    "max_transshipments",
    "sort",
    "limit",
    "window_days",
  );
  await fc.assert(
    fc.asyncProperty(
      route,
      word,
      fc.array(fc.tuple(names, word), { maxLength: 6 }),
      fc.boolean(),
      async (r, seg, q, pub) => {
        const qs = new URLSearchParams(q).toString();
        const path = `${pub ? "/public" : ""}/v1/${r.replace("{x}", encodeURIComponent(seg))}?${qs}`;
        const res = pub ? await open(path) : await keyed(path);
        expect([200, 400, 404], `${path} ${JSON.stringify(res.body)}`).toContain(res.status);
      },
    ),
    { numRuns: 300 },
  );
}, 120_000);
