/**
 * RedisPositionStore on a real redis-server, with two stores on one Redis as two processes have
 * them: what one applies the other reads; concurrent writers end up as one memory store fed the
 * same messages in commit order; a store opened later, or re-subscribed after missing messages,
 * catches up; garbage in Redis is skipped; an outage is replayed; closing releases the connections.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { createClient } from "redis";
import { positionStore } from "../../api/shared/cross-process.ts";
import { health } from "../../api/shared/health.ts";
import { prng } from "../../common/random.ts";
import type { VesselReport } from "../../ingest/ais/encode.ts";
import type { AisMessage } from "../../ingest/ais/messages.ts";
import {
  applyMessage,
  MemoryPositionStore,
  type PositionStore,
  type UpdateOutcome,
  type VesselRecord,
} from "../../ingest/ais/positions.ts";
import { AIS_KEYS, parseEntry } from "../../ingest/ais/redis-positions.ts";
import { type RedisProcess, startRedis } from "../helpers/redis-server.ts";
import { until } from "../webhooks/setup.ts";
import { aisLines, decodeAll, heard, REAL_LOGS } from "./fixture.ts";

const T0 = Date.parse("2026-03-01T12:00:30Z");
const MIN = 60_000;
/** Views are compared at one instant. */
const NOW = T0 + 90 * MIN;

interface Heard {
  m: AisMessage;
  at: number;
}
/** Every message of the reference logs, heard one second apart. */
const REAL: Heard[] = decodeAll(REAL_LOGS.flatMap((f) => aisLines(f))).messages.map((m, i) => ({
  m,
  at: T0 + i * 1000,
}));

const at = (min: number) => T0 + min * MIN;
/** One vessel's day: static data, an outlier rejected, a move confirmed, fixes heard late. */
function track(mmsi: number): Heard[] {
  const ship: VesselReport = {
    mmsi,
    imo: 9_000_000 + (mmsi % 1_000_000),
    name: "NORDIC STAR",
    lat: 55.5,
    lng: 12.5,
  };
  const fix = (lat: number, fixMin: number, heardMin = fixMin): Heard => ({
    m: heard({ ...ship, lat, sog: 12 }, at(heardMin), { tagTime: at(fixMin) })[0]!,
    at: at(heardMin),
  });
  return [
    { m: heard(ship, at(0), { statics: true })[0]!, at: at(0) },
    fix(55.5, 1),
    fix(55.51, 2),
    fix(56.5, 3), // 110 km in a minute: implausible
    fix(55.52, 4),
    fix(55.515, 3, 5), // observed before the stored fix: out of order
    fix(40, 6), // implausible...
    fix(40.01, 7), // ...until the next fix agrees with it
    fix(40.02, 8),
    fix(40.015, 7.5, 9), // late again
    { m: heard({ ...ship, name: "NORDIC STAR II" }, at(10), { statics: true })[0]!, at: at(10) },
  ];
}

let redis: RedisProcess;
let admin: ReturnType<typeof createClient>;
const opened: PositionStore[] = [];

async function store(url = redis.url): Promise<PositionStore> {
  const s = await positionStore({ redisUrl: url });
  opened.push(s);
  return s;
}

const mmsisOf = (hs: readonly Heard[]) => [...new Set(hs.map((h) => h.m.mmsi))];

/**
 * `s` shows what `expected` shows for every vessel (once the channel has delivered), and by IMO
 * unless `byImo` is false (which of two MMSIs claimed an IMO last depends on the order across them).
 */
async function expectSame(s: PositionStore, expected: MemoryPositionStore, mmsis: number[], byImo = true) {
  const view = (p: PositionStore) => mmsis.map((x) => p.byMmsi(x, NOW));
  const imos = byImo
    ? mmsis.map((x) => expected.byMmsi(x, NOW)?.imo).filter((i): i is number => typeof i === "number")
    : [];
  await until(async () => Bun.deepEquals(view(s), view(expected)), 5000, "the replica").catch(() => {});
  expect(view(s)).toEqual(view(expected));
  expect(imos.map((i) => s.byImo(i, NOW))).toEqual(imos.map((i) => expected.byImo(i, NOW)));
}

beforeAll(async () => {
  redis = await startRedis();
  admin = createClient({ url: redis.url });
  await admin.connect();
});
beforeEach(async () => {
  await admin.flushAll();
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});
afterAll(async () => {
  await admin.quit();
  await redis.stop();
});

describe("RedisPositionStore, two processes on one Redis", () => {
  test("alternating stores give the memory store's outcomes, and each reads what the other applied", async () => {
    const [a, b] = [await store(), await store()];
    const mem = new MemoryPositionStore();
    const got: UpdateOutcome[] = [];
    for (const [i, h] of REAL.entries()) got.push(await (i % 2 ? b : a).update(h.m, h.at));
    expect(got).toEqual(REAL.map((h) => mem.update(h.m, h.at)));
    expect(new Set(got)).toEqual(new Set(["position", "static", "ignored", "out-of-order", "implausible"]));
    await expectSame(a, mem, mmsisOf(REAL));
    await expectSame(b, mem, mmsisOf(REAL));
  });

  test("a message that changes nothing (a second receiver's duplicate) writes nothing", async () => {
    const [a, b] = [await store(), await store()];
    const records = new Map<number, VesselRecord>();
    let changes = 0;
    for (const [s, h] of [...REAL.map((h) => [a, h] as const), ...REAL.map((h) => [b, h] as const)]) {
      await s.update(h.m, h.at);
      const r = applyMessage(records.get(h.m.mmsi), h.m, h.at);
      if (!r || Bun.deepEquals(r.record, records.get(h.m.mmsi))) continue;
      records.set(h.m.mmsi, r.record);
      changes++;
    }
    expect(changes).toBeLessThan(REAL.length);
    expect(Number(await admin.get(AIS_KEYS.seq))).toBe(changes);
  });

  test("concurrent writers end as one memory store fed the commits in their order", async () => {
    const log: string[] = [];
    const sub = admin.duplicate();
    await sub.connect();
    await sub.subscribe(AIS_KEYS.channel, (v) => void log.push(v));
    const [a, b] = [await store(), await store()];
    const random = prng(15);
    // Each message through one store, chosen at random, all at once: only the MMSI orders them.
    const sent = [...REAL, ...[1, 2, 3, 4, 5, 6, 7, 8].flatMap((r) => track(219_000_000 + r))];
    const outcomes = await Promise.all(sent.map((h) => (random() < 0.5 ? a : b).update(h.m, h.at)));
    const stored = Object.values(await admin.hGetAll(AIS_KEYS.vessels));
    await until(async () => stored.every((v) => log.includes(v)), 5000, "every commit on the channel");
    await sub.quit();

    const mem = new MemoryPositionStore();
    const mmsis = mmsisOf(sent);
    const vessel = (h: Heard) => applyMessage(undefined, h.m, h.at) !== null;
    expect(sent.flatMap((h, i) => (vessel(h) ? [] : [outcomes[i]]))).toEqual(
      sent.filter((h) => !vessel(h)).map(() => "ignored"),
    );
    for (const mmsi of mmsis) {
      const mine = sent.flatMap((h, i) =>
        h.m.mmsi === mmsi && vessel(h) ? [{ ...h, outcome: outcomes[i]! }] : [],
      );
      const commits = log
        .map((v) => parseEntry(v))
        .filter((e) => e !== null && e.record.mmsi === mmsi)
        .sort((x, y) => x!.seq - y!.seq)
        .map((e) => e!.record);
      const order = serialise(mine, commits);
      expect(order.map((h) => mem.update(h.m, h.at))).toEqual(order.map((h) => h.outcome));
    }
    await expectSame(a, mem, mmsis, false);
    await expectSame(b, mem, mmsis, false);
  });

  test("a store opened later loads every record; one that missed messages catches up on re-subscribing", async () => {
    const a = await store();
    const mem = new MemoryPositionStore();
    for (const h of REAL) {
      await a.update(h.m, h.at);
      mem.update(h.m, h.at);
    }
    const late = await store();
    const view = (s: PositionStore) => mmsisOf(REAL).map((x) => s.byMmsi(x, NOW));
    expect(view(late)).toEqual(view(mem)); // no waiting: loaded before open() returned

    // A commit whose publication the subscribers never got (as if sent while they were away).
    const [first] = track(219_000_099);
    const record = applyMessage(undefined, first!.m, first!.at)!.record;
    const seq = await admin.incr(AIS_KEYS.seq);
    await admin.hSet(AIS_KEYS.vessels, String(record.mmsi), `${seq} ${JSON.stringify(record)}`);
    expect(late.byMmsi(record.mmsi)).toBeNull();
    await admin.sendCommand(["CLIENT", "KILL", "TYPE", "pubsub"]);
    await until(async () => late.byMmsi(record.mmsi) !== null && a.byMmsi(record.mmsi) !== null, 10_000);
    mem.update(first!.m, first!.at);
    expect(late.byMmsi(record.mmsi, NOW)).toEqual(mem.byMmsi(record.mmsi, NOW));
    expect(view(late)).toEqual(view(mem));

    // A delivery that arrives after a later commit of the same vessel does not take a replica back.
    const deliver = (n: number, r: VesselRecord) =>
      admin.publish(AIS_KEYS.channel, `${n} ${JSON.stringify(r)}`);
    const lats = () => [late.byMmsi(record.mmsi)?.lat, a.byMmsi(record.mmsi)?.lat];
    /** Delivered after everything published before it (one channel, one order). */
    const barrier = async (n: number) => {
      await deliver(seq + 10 + n, { ...record, mmsi: 219_000_098, lat: n });
      await until(async () => late.byMmsi(219_000_098)?.lat === n && a.byMmsi(219_000_098)?.lat === n, 5000);
    };
    await deliver(seq - 1, { ...record, lat: 10 });
    await barrier(1);
    expect(lats()).toEqual([record.lat, record.lat]);
    await deliver(seq + 1, { ...record, lat: 11 });
    await deliver(seq, { ...record, lat: 12 });
    await barrier(2);
    expect(lats()).toEqual([11, 11]);
  });

  test("garbage in Redis or on the channel is skipped, and replaced by the next write", async () => {
    const [, ok, other] = track(219_000_555);
    const good = { ...applyMessage(undefined, ok!.m, ok!.at)!.record, imo: 9_000_555 };
    const json = JSON.stringify(good);
    await admin.hSet(AIS_KEYS.vessels, {
      [good.mmsi]: `1 ${json}`,
      "219000111": "garbage",
      "219000222": "2 {not json",
      "219000333": `3 ${JSON.stringify({ ...good, mmsi: 219000333, lat: "55.5" })}`,
      "219000444": `4 ${JSON.stringify({ ...good, mmsi: 219000445 })}`,
      "219000666": `x ${JSON.stringify({ ...good, mmsi: 219000666 })}`,
      "219000777": `5 ${JSON.stringify({ ...good, mmsi: 219000777, rejected: { lat: 1 } })}`,
    });
    await admin.hSet(AIS_KEYS.imos, { abc: "def", "9300001": "219000111", [good.imo]: String(good.mmsi) });
    const a = await store();
    expect(a.byMmsi(good.mmsi, NOW)?.lat).toBe(55.5);
    expect(a.byImo(good.imo, NOW)?.mmsi).toBe(good.mmsi);
    expect(a.byImo(9300001)).toBeNull();
    for (const mmsi of [219000111, 219000222, 219000333, 219000444, 219000445, 219000666, 219000777]) {
      expect(a.byMmsi(mmsi)).toBeNull();
    }
    for (const v of ["nonsense", "9 []", "10 null", `11 ${JSON.stringify({ ...good, fixAt: "later" })}`]) {
      await admin.publish(AIS_KEYS.channel, v);
    }
    // A garbled record counts as none: the next message writes a whole one over it.
    const garbled = { ...other!, m: { ...other!.m, mmsi: 219000222 } as AisMessage };
    expect(await a.update(garbled.m, garbled.at)).toBe("position");
    const fresh = await store();
    expect(fresh.byMmsi(219000222, NOW)?.lat).toBe(55.51);
    expect(a.byMmsi(good.mmsi, NOW)?.lat).toBe(55.5); // the garbage published above changed nothing
  });

  test("closing releases both connections of every store", async () => {
    const clients = async () => (await admin.clientList()).length;
    const before = await clients();
    const stores = [await store(), await store()];
    // One shared link per process, one subscriber per store.
    expect(await clients()).toBe(before + 3);
    await Promise.all(stores.map((s) => s.close()));
    await until(async () => (await clients()) === before, 5000, "connections closed").catch(() => {});
    expect(await clients()).toBe(before);
  });
});

test("Redis down: a store keeps its own readers current, and Redis gets the messages when it is back", async () => {
  const own = await startRedis();
  const port = Number(new URL(own.url).port);
  let again: RedisProcess | null = null;
  const warn = console.warn;
  console.warn = () => {}; // the link announces the outage; not this test's subject
  try {
    const [a, b] = [await store(own.url), await store(own.url)];
    const [, fix] = track(219_000_777);
    await own.stop();
    await until(async () => health({ config: { redisUrl: own.url } }).dependencies.redis === "down", 10_000);
    expect(await a.update(fix!.m, fix!.at)).toBe("position");
    expect(a.byMmsi(fix!.m.mmsi, NOW)?.lat).toBe(55.5);
    expect(b.byMmsi(fix!.m.mmsi)).toBeNull();
    again = await startRedis(port);
    await until(async () => b.byMmsi(fix!.m.mmsi) !== null, 15_000, "the replay");
    expect(b.byMmsi(fix!.m.mmsi, NOW)).toEqual(a.byMmsi(fix!.m.mmsi, NOW));
    await Promise.all(opened.splice(0).map((s) => s.close()));
  } finally {
    console.warn = warn;
    await again?.stop();
  }
});

/**
 * The one sequence of `sent` that a memory store would turn into `commits` (as published, in seq
 * order) with the outcomes each writer was told: every commit must follow from one message applied
 * to the record before it (a lost or reordered update does not), and every message that committed
 * nothing must have found the record as some commit left it, unchanged.
 */
function serialise(sent: (Heard & { outcome: UpdateOutcome })[], commits: VesselRecord[]) {
  const fits = (
    h: (typeof sent)[number],
    state: VesselRecord | undefined,
    next: VesselRecord | undefined,
  ) => {
    const r = applyMessage(state, h.m, h.at);
    return r !== null && r.outcome === h.outcome && Bun.deepEquals(r.record, next);
  };
  const left = new Set(sent.keys());
  const states: (VesselRecord | undefined)[] = [undefined];
  const committed: typeof sent = [];
  for (const record of commits) {
    const k = [...left].find((i) => fits(sent[i]!, states.at(-1), record));
    if (k === undefined) throw new Error(`commit ${JSON.stringify(record)} follows from no message`);
    left.delete(k);
    committed.push(sent[k]!);
    states.push(record);
  }
  const slots: (typeof sent)[] = states.map(() => []);
  for (const i of left) {
    const j = states.findIndex((s) => s !== undefined && fits(sent[i]!, s, s));
    if (j < 0) throw new Error(`${sent[i]!.outcome} for a message that fits no state`);
    slots[j]!.push(sent[i]!);
  }
  return slots.flatMap((slot, j) => (j === 0 ? slot : [committed[j - 1]!, ...slot]));
}
