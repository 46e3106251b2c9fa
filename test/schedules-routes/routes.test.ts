/**
 * The schedules product's read routes through the real app (app.handle), over sailings synced from
 * the real sandbox process (ingest/schedules/sync.ts) into the test database (SQLite, or PostgreSQL
 * under PORTOLAN_TEST_DB): point-to-point search (staying aboard through a hull's turn, up to two
 * transshipments, against the sandbox's own CS routings), port calls, vessel and service schedules,
 * reliability; keyed under /v1 and open under /public/v1 (429 per IP at the spec's 40 per window);
 * bad parameters answer the validation error and no query answers 500.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fc from "fast-check";
import { routeView, searchReading, searchRoutes } from "../../api/schedules/search.ts";
import type { DcsaConnectorConfig } from "../../ingest/carriers/connector.ts";
import { CsClient } from "../../ingest/schedules/cs-client.ts";
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
let carriers: DcsaConnectorConfig[];
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
  carriers = await sandboxCarriers(sandbox, KEY);
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

const departs = (s: SailingRow, c: ScheduleCall) =>
  (c.exportVoyage ?? c.importVoyage) === s.voyage && bestOf(c.departure) !== undefined;

/** The hull's next voyage: the stored sailing of the same vessel departing from the call `s` ends at. */
function nextVoyage(s: SailingRow): SailingRow | undefined {
  const last = callsOf(s).at(-1)!;
  if (departs(s, last) || !last.transportCallReference) return undefined;
  return rows.find(
    (r) =>
      r.id !== s.id &&
      r.carrier === s.carrier &&
      r.vesselImo === s.vesselImo &&
      departs(r, callsOf(r)[0]!) &&
      callsOf(r)[0]!.transportCallReference === last.transportCallReference,
  );
}

/**
 * Direct routings from `origin` (best-known departure in [from, to)) to `destination`: the sailing
 * ids the hull rides, staying aboard through its next voyages until it calls the destination, never
 * calling a port twice (at most three voyages).
 */
function directRoutings(origin: string, destination: string, from: number, to: number): string[] {
  const out: string[] = [];
  for (const s of rows) {
    callsOf(s).forEach((c, i) => {
      const dep = bestOf(c.departure);
      if (c.place.unlocode !== origin || !departs(s, c) || dep === undefined || dep < from || dep >= to)
        return;
      const seen = new Set([origin]);
      const ids = [s.id];
      let calls = callsOf(s).slice(i + 1);
      let at: SailingRow | undefined = s;
      while (at) {
        for (const k of calls) {
          if (seen.has(k.place.unlocode!)) return;
          seen.add(k.place.unlocode!);
          if (k.place.unlocode === destination && bestOf(k.arrival) !== undefined) {
            out.push(ids.join("+"));
            return;
          }
        }
        at = ids.length < 3 ? nextVoyage(at) : undefined;
        if (at) {
          ids.push(at.id);
          calls = callsOf(at).slice(1);
        }
      }
    });
  }
  return out.sort();
}

/** Pairs of one hull's consecutive voyages (the first ends where the second departs) near the clock. */
function hullTurns(): Array<[SailingRow, SailingRow]> {
  const out: Array<[SailingRow, SailingRow]> = [];
  for (const s of rows) {
    if (Math.abs(Date.parse(s.departsAt) - clock) > 14 * D) continue;
    const next = nextVoyage(s);
    if (next) out.push([s, next]);
  }
  return out;
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

const byId = (id: string) => rows.find((r) => r.id === id)!;

/**
 * Checks a routing's legs against the stored rows: origin to destination, one carrier, each leg one
 * hull (its sailings consecutive voyages of that hull), each transfer at the port both legs share,
 * to another hull, 24 h to 21 days after the arrival, and no port called twice along the way.
 */
function checkChain(r: Json, o: string, d: string) {
  const legs = r.legs as Json[];
  expect(legs[0]!.from.unlocode).toBe(o);
  expect(legs.at(-1)!.to.unlocode).toBe(d);
  expect(r.routing).toBe(legs.flatMap((l) => l.sailing_ids).join("+"));
  expect(r.connections).toHaveLength(legs.length - 1);
  const ports: string[] = [o];
  legs.forEach((l, i) => {
    expect(l.carrier).toBe(legs[0]!.carrier);
    const ids = l.sailing_ids as string[];
    for (let j = 1; j < ids.length; j++) expect(nextVoyage(byId(ids[j - 1]!))?.id).toBe(ids[j]);
    ids.forEach((id, j) => {
      const calls = callsOf(byId(id));
      const start =
        j === 0 ? calls.findIndex((c) => c.transportCallReference === l.from.transport_call_reference) : 0;
      const end =
        j === ids.length - 1
          ? calls.findIndex((c) => c.transportCallReference === l.to.transport_call_reference)
          : calls.length - 1;
      expect(start).toBeGreaterThanOrEqual(0);
      expect(end).toBeGreaterThan(start);
      for (const c of calls.slice(start + 1, end + 1)) ports.push(c.place.unlocode!);
    });
    if (i === 0) return;
    const prev = legs[i - 1]!;
    const hub = r.connections[i - 1];
    expect([prev.to.unlocode, l.from.unlocode]).toEqual([hub.unlocode, hub.unlocode]);
    expect(l.vessel.imo).not.toBe(prev.vessel.imo);
    const wait = bestOf(l.from.departure)! - bestOf(prev.to.arrival)!;
    expect(wait).toBeGreaterThanOrEqual(24 * H);
    expect(wait).toBeLessThanOrEqual(21 * D);
    expect(hub.connection_hours).toBe(Math.round(wait / H));
  });
  expect(new Set(ports).size, ports.join(" ")).toBe(ports.length);
  expect(Date.parse(r.departure_at)).toBe(bestOf(legs[0]!.from.departure)!);
  expect(Date.parse(r.arrival_at)).toBe(bestOf(legs.at(-1)!.to.arrival)!);
  expect(Date.parse(r.arrival_at) - Date.parse(r.departure_at)).toBeLessThanOrEqual(120 * D);
}

/** Routes with fewer transshipments than `r` leaving no earlier and arriving no later. */
const dominating = (routes: Json[], r: Json) =>
  routes.filter(
    (f) =>
      f.transshipments < r.transshipments &&
      Date.parse(f.departure_at) >= Date.parse(r.departure_at) &&
      Date.parse(f.arrival_at) <= Date.parse(r.arrival_at),
  );

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
      const expected = directRoutings(o, d, from, to);
      expect(expected.length, `${o}-${d}`).toBeGreaterThan(0);
      expect(res.routes.map((r: Json) => r.routing).sort()).toEqual(expected);
      for (const r of res.routes) {
        expect(r.transshipments).toBe(0);
        expect(r.connections).toEqual([]);
        expect(r.legs).toHaveLength(1);
        expect(r.legs[0].sailing_ids.join("+")).toBe(r.routing);
        expect(r.legs[0].from.unlocode).toBe(o);
        expect(r.legs[0].to.unlocode).toBe(d);
        expect(Date.parse(r.arrival_at)).toBeGreaterThan(Date.parse(r.departure_at));
      }
      const departures = res.routes.map((r: Json) => Date.parse(r.departure_at));
      expect(departures).toEqual([...departures].sort((a, b) => a - b));
    }
  });

  test("one transshipment joins two hulls of one carrier at a hub, 24 h to 21 days apart, and beats every direct", async () => {
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
        expect(r.transshipments).toBe(1);
        expect(r.legs).toHaveLength(2);
        checkChain(r, o, d);
        expect(dominating(res.routes, r), r.routing).toEqual([]);
      }
      const direct = await data(
        `/v1/point-to-point?origin=${o}&destination=${d}&carrier=${a.carrier}&max_transshipments=0`,
      );
      expect(direct.routes.every((r: Json) => r.transshipments === 0)).toBe(true);
    }
    expect(transfers).toBeGreaterThan(0);
  });

  test("a hull staying aboard through its turn is one vessel leg: a direct routing, no connection", async () => {
    const turns = hullTurns();
    expect(turns.length).toBeGreaterThan(0);
    let checked = 0;
    for (const [s1, s2] of turns) {
      // Origin: the last departure of the first voyage; destination: a port only the next voyage calls.
      const c1 = callsOf(s1);
      const oi = c1.findLastIndex((c) => departs(s1, c));
      const o = c1[oi]!.place.unlocode!;
      const onFirst = new Set(c1.map((c) => c.place.unlocode));
      const d = callsOf(s2)
        .slice(1)
        .find((c) => !onFirst.has(c.place.unlocode))?.place.unlocode;
      if (!d || oi < 0) continue;
      const dep = bestOf(c1[oi]!.departure)!;
      const q = `origin=${o}&destination=${d}&carrier=${s1.carrier}&from=${day(dep)}&to=${day(dep)}&limit=500`;
      for (const extra of ["&direct_only=true", "", "&max_transshipments=2"]) {
        const res = await data(`/v1/point-to-point?${q}${extra}`);
        const r = res.routes.find((x: Json) => x.routing === `${s1.id}+${s2.id}`);
        expect(r, `${o}-${d} ${s1.id}+${s2.id}${extra}`).toBeDefined();
        expect(r.transshipments).toBe(0);
        expect(r.connections).toEqual([]);
        expect(r.legs).toHaveLength(1);
        expect(r.legs[0]).toMatchObject({
          sailing_id: s1.id,
          sailing_ids: [s1.id, s2.id],
          voyages: [s1.voyage, s2.voyage],
          vessel: { imo: s1.vesselImo },
          stays_aboard_at: [{ unlocode: c1.at(-1)!.place.unlocode }],
        });
        checkChain(r, o, d);
        // Never offered as a transfer between the two voyages of the hull.
        for (const x of res.routes) {
          for (let i = 1; i < x.legs.length; i++)
            expect(x.legs[i].vessel.imo).not.toBe(x.legs[i - 1].vessel.imo);
        }
      }
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
  });

  test("direct routings agree with the sandbox carrier's own CS point-to-point (staying aboard included)", async () => {
    const lanes = new Map<string, [string, string, string]>();
    for (const [s1, s2] of hullTurns().slice(0, 6)) {
      const o = callsOf(s1)[0]!.place.unlocode!;
      const d = callsOf(s2)[1]!.place.unlocode!;
      if (o !== d) lanes.set(`${s1.carrier}${o}${d}`, [s1.carrier, o, d]);
    }
    for (const [o, d] of lanesAroundNow(3)) {
      const s = rows.find((r) => callsOf(r)[0]!.place.unlocode === o)!;
      lanes.set(`${s.carrier}${o}${d}`, [s.carrier, o, d]);
    }
    let compared = 0;
    for (const [carrier, o, d] of lanes.values()) {
      const config = carriers.find((c) => c.scac === carrier)!;
      const client = new CsClient({ ...config, baseUrl: config.schedulesBaseUrl! });
      const theirs = await client.pointToPointRoutes({
        placeOfReceipt: o,
        placeOfDelivery: d,
        departureStartDate: day(clock - 2 * D),
        departureEndDate: day(clock + 30 * D),
        maxTranshipment: 0,
      });
      const ours = await data(
        `/v1/point-to-point?origin=${o}&destination=${d}&carrier=${carrier}&from=${day(clock)}&to=${day(clock + 27 * D)}&direct_only=true&limit=500`,
      );
      // Inside a day of either window's edges the two date conventions (local vs UTC) differ.
      const inner = (dep: number) => dep >= clock + D && dep < clock + 27 * D;
      const a = theirs
        .map((r) => [Date.parse(r.legs[0]!.departure.at), Date.parse(r.legs.at(-1)!.arrival.at)])
        .filter(([dep]) => inner(dep!));
      const b = ours.routes
        .map((r: Json) => [Date.parse(r.departure_at), Date.parse(r.arrival_at)])
        .filter(([dep]: number[]) => inner(dep!));
      expect(b, `${carrier} ${o}-${d}`).toEqual(a);
      compared += a.length;
    }
    expect(compared).toBeGreaterThan(5);
  });

  test("max_transshipments=2: three legs of one carrier, each connection 24 h to 21 days, no port twice, none beaten by a route with fewer transfers", async () => {
    // Lanes whose ends share no service of the carrier, and no service meets both ends' services.
    const services = new Map<string, { carrier: string; ports: Set<string> }>();
    for (const s of rows) {
      const key = `${s.carrier}/${s.serviceCode}`;
      const held = services.get(key) ?? { carrier: s.carrier, ports: new Set<string>() };
      for (const c of callsOf(s)) held.ports.add(c.place.unlocode!);
      services.set(key, held);
    }
    const list = [...services.values()];
    const meets = (a: Set<string>, b: Set<string>) => [...a].some((p) => b.has(p));
    const lanes: Array<[string, string, string]> = [];
    for (const a of list) {
      for (const c of list) {
        if (a === c || a.carrier !== c.carrier || meets(a.ports, c.ports)) continue;
        const others = list.filter((x) => x.carrier === a.carrier);
        const o = [...a.ports].find((p) => others.every((x) => x === a || !x.ports.has(p)));
        const d = [...c.ports].find((p) => others.every((x) => x === c || !x.ports.has(p)));
        if (o && d) lanes.push([a.carrier, o, d]);
      }
    }
    expect(lanes.length).toBeGreaterThan(0);
    // And lanes a single transfer joins (one service's first port to another's last), where a
    // second transfer has to beat the routes with fewer.
    const mixed: Array<[string, string, string]> = [];
    for (const a of list) {
      const c = list.find((x) => x !== a && x.carrier === a.carrier && meets(a.ports, x.ports));
      const [o, d] = [[...a.ports][0]!, [...(c?.ports ?? [])].at(-1)];
      if (c && d && o !== d) mixed.push([a.carrier, o, d]);
    }
    let twice = 0;
    for (const [carrier, o, d] of [...lanes.slice(0, 8), ...mixed.slice(0, 8)]) {
      const q = `/v1/point-to-point?origin=${o}&destination=${d}&carrier=${carrier}&from=${day(clock)}&to=${day(clock + 27 * D)}&limit=500`;
      const res = await data(`${q}&max_transshipments=2`);
      expect(res.max_transshipments).toBe(2);
      expect(res.total).toBe(res.routes.length);
      for (const r of res.routes) {
        expect(r.transshipments).toBe(r.legs.length - 1);
        checkChain(r, o, d);
        expect(dominating(res.routes, r), r.routing).toEqual([]);
        if (r.transshipments === 2) twice++;
      }
      // Routes with fewer transfers are those the lower limit finds.
      const one = await data(`${q}&max_transshipments=1`);
      expect(res.routes.filter((r: Json) => r.transshipments < 2)).toEqual(one.routes);
    }
    expect(twice).toBeGreaterThan(0);
  });

  test("reading on demand finds exactly what a search over every stored sailing finds", async () => {
    // Lanes the long way round a rotation (second port to first) ride almost a round trip: past
    // the first read of a direct-only search.
    const lanes = new Map<string, [string, string]>();
    for (const s of rows) {
      if (Math.abs(Date.parse(s.departsAt) - clock) > 10 * D) continue;
      const [a, b] = [callsOf(s)[0]!.place.unlocode!, callsOf(s)[1]!.place.unlocode!];
      lanes.set(`${b}-${a}`, [b, a]);
      lanes.set(`${a}-${b}`, [a, b]);
    }
    // Every stored row whose planned span meets the read, as Sailings.overlapping selects them.
    const read = async (from: number, to: number, only?: string[]) =>
      rows.filter(
        (r) =>
          Date.parse(r.departsAt) <= to &&
          Date.parse(r.arrivesAt) >= from &&
          (only === undefined || only.includes(r.carrier)),
      );
    let again = 0;
    let found = 0;
    for (const [o, d] of [...lanes.values()].slice(0, 12)) {
      for (const k of [0, 1, 2] as const) {
        const q = {
          origin: o,
          destination: d,
          fromMs: clock,
          toMs: clock + 14 * D,
          maxTransshipments: k,
          sort: "departure" as const,
        };
        const { routes, reads } = await searchReading(read, q);
        expect(routes.map(routeView), `${o}-${d} ${k}`).toEqual(searchRoutes(rows, q).map(routeView));
        if (k === 0 && reads > 1) again++;
        found += routes.length;
      }
    }
    expect(found).toBeGreaterThan(0);
    expect(again).toBeGreaterThan(0);
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
  test("a port, vessel or service nothing is known of answers an empty list, and the document promises no 404", async () => {
    expect((await data("/v1/ports/ZZZZZ/calls")).calls).toEqual([]);
    expect((await data("/v1/vessels/9999998/schedule")).sailings).toEqual([]);
    expect((await data("/v1/services/ZZZ9/schedule")).sailings).toEqual([]);
    const doc = (await (await p.call("schedules", "/docs/json")).json()) as {
      paths: Record<string, { get: { responses: Record<string, unknown> } }>;
    };
    for (const base of ["/v1", "/public/v1"])
      for (const path of ["/ports/{unlocode}/calls", "/vessels/{imo}/schedule", "/services/{code}/schedule"])
        expect(Object.keys(doc.paths[`${base}${path}`]!.get.responses), path).not.toContain("404");
  });

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
    ["/v1/point-to-point?origin=CNSHA&destination=NLRTM&max_transshipments=3", "max_transshipments"],
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
