/**
 * Vessel positions shared by every process through Redis (REDIS_URL): the `ais` role applies the
 * feeds, API and poller processes read. Reads stay synchronous: each process keeps a replica of the
 * records, loaded at start and kept current from a channel on which every write is published.
 *
 * Writes apply the pure rules (`applyMessage`) to the record *in Redis*, not to the replica, and
 * commit with a compare-and-set script that retries on conflict, so two processes feeding the same
 * MMSI end up as one MemoryPositionStore fed the same messages in commit order. Within a process the
 * writes of one MMSI go one at a time, in arrival order.
 *
 * Layout: hash `vessels` (MMSI → "<seq> <record JSON>"), hash `imos` (IMO → MMSI of the latest
 * vessel that claimed it), counter `seq` (one per commit, so a replica never goes back to an older
 * record whatever order the channel and its own replies arrive in) and channel `channel`.
 *
 * Fails open like the rest of the Redis use (api/shared/redis-link.ts, whose link api/ hands in;
 * api/shared/cross-process.ts picks this store when REDIS_URL is set): while Redis is unreachable a
 * message is applied to this process's replica only and kept (bounded) to be applied to Redis, by
 * the same rules, once it is back. A value in Redis that does not parse is skipped by readers and
 * overwritten by the next write of its MMSI.
 */
import type { RedisClientType } from "redis";
import { log } from "../../common/log.ts";
import { LuaScript } from "../../common/lua-script.ts";
import { type SharedRedis, type Subscription, subscribe } from "../redis-pubsub.ts";
import type { AisMessage } from "./messages.ts";
import {
  applyMessage,
  type PositionStore,
  toPosition,
  type UpdateOutcome,
  type VesselPosition,
  type VesselRecord,
} from "./positions.ts";

export const AIS_KEYS = {
  vessels: "portolan:ais:vessels",
  imos: "portolan:ais:imo",
  seq: "portolan:ais:seq",
  channel: "portolan:ais:updates",
} as const;

/** Conflicts in a row before a write gives up on Redis (a few writers per MMSI need one or two). */
const MAX_ATTEMPTS = 16;
/** Messages kept during an outage to apply to Redis when it is back (oldest dropped beyond). */
const MAX_OUTAGE_MESSAGES = 20_000;
/** Hash fields per HSCAN page when loading: each page is its own short call. */
const SCAN_COUNT = 1000;

/** Writes the record only if the stored value is still the one it was computed from. */
const COMMIT = `
local cur = redis.call('HGET', KEYS[1], ARGV[1])
if (cur or '') ~= ARGV[2] then return false end
local value = redis.call('INCR', KEYS[3]) .. ' ' .. ARGV[3]
redis.call('HSET', KEYS[1], ARGV[1], value)
if ARGV[4] ~= '' then redis.call('HSET', KEYS[2], ARGV[4], ARGV[1]) end
redis.call('PUBLISH', ARGV[5], value)
return value
`;
const COMMIT_SCRIPT = new LuaScript(COMMIT);

interface Entry {
  /** The commit that wrote it; a record applied here during an outage keeps its base's. */
  seq: number;
  record: VesselRecord;
}

/** One key order, so an unchanged record is recognised and not written again. */
function encodeRecord(r: VesselRecord): string {
  const { mmsi, imo, name, lat, lng, sog, heading, navStatus, fixAt, updatedAt, rejected } = r;
  const rej = rejected && { lat: rejected.lat, lng: rejected.lng, fixAt: rejected.fixAt };
  return JSON.stringify({
    mmsi,
    imo,
    name,
    lat,
    lng,
    sog,
    heading,
    navStatus,
    fixAt,
    updatedAt,
    rejected: rej,
  });
}

const NULLABLE_NUMBERS = ["imo", "lat", "lng", "sog", "heading", "navStatus", "fixAt", "updatedAt"] as const;
const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

/** A stored "<seq> <JSON>" value, or null for anything else (garbage is skipped, never thrown). */
export function parseEntry(value: string, mmsi?: number): Entry | null {
  const space = value.indexOf(" ");
  const seq = Number(value.slice(0, space));
  if (space <= 0 || !Number.isSafeInteger(seq)) return null;
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(value.slice(space + 1));
  } catch {
    return null;
  }
  if (typeof o !== "object" || o === null || !Number.isSafeInteger(o.mmsi)) return null;
  if (mmsi !== undefined && o.mmsi !== mmsi) return null;
  if (!NULLABLE_NUMBERS.every((k) => o[k] === null || isNumber(o[k]))) return null;
  if (o.name !== null && typeof o.name !== "string") return null;
  const r = o.rejected as Record<string, unknown> | null;
  if (r !== null && (typeof r !== "object" || !isNumber(r.lat) || !isNumber(r.lng) || !isNumber(r.fixAt))) {
    return null;
  }
  const n = (k: (typeof NULLABLE_NUMBERS)[number]) => o[k] as number | null;
  const record: VesselRecord = {
    mmsi: o.mmsi as number,
    imo: n("imo"),
    name: o.name as string | null,
    lat: n("lat"),
    lng: n("lng"),
    sog: n("sog"),
    heading: n("heading"),
    navStatus: n("navStatus"),
    fixAt: n("fixAt"),
    updatedAt: n("updatedAt"),
    rejected: r && { lat: r.lat as number, lng: r.lng as number, fixAt: r.fixAt as number },
  };
  return { seq, record };
}

export class RedisPositionStore implements PositionStore {
  private vessels = new Map<number, Entry>();
  /** IMO → MMSI of the latest vessel that claimed it. */
  private imos = new Map<number, number>();
  /** The last pending write per MMSI in this process: the next one waits for it. */
  private readonly queues = new Map<number, Promise<UpdateOutcome>>();
  private outage: { msg: AisMessage; receivedAt: number }[] = [];
  /** While a load runs: what arrived meanwhile, merged into the loaded records by seq. */
  private arrived: Map<number, Entry> | null = null;
  private loading: Promise<void> | null = null;
  private loadAgain = false;
  private closed = false;
  private readonly stopReplay: () => void;
  private readonly subscription: Subscription;

  private constructor(
    private readonly link: SharedRedis,
    private readonly release: () => Promise<void>,
  ) {
    this.stopReplay = link.whenUp(() => this.replayOutage());
    // Loaded after each (re)subscription: whatever was published before it may have been missed.
    this.subscription = subscribe(
      link,
      [AIS_KEYS.channel],
      (value) => this.receive(value),
      () => void this.load(),
    );
  }

  /**
   * Subscribes and loads the records (when Redis is down, empty until it is up); `release` gives
   * the link back on close.
   */
  static async open(link: SharedRedis, release: () => Promise<void>): Promise<RedisPositionStore> {
    const store = new RedisPositionStore(link, release);
    if (await store.subscription.ready) await store.loading;
    return store;
  }

  /** Vessels in this process's replica. */
  get size(): number {
    return this.vessels.size;
  }

  update(msg: AisMessage, receivedAt: number = msg.meta.receivedAt): Promise<UpdateOutcome> {
    if (applyMessage(undefined, msg, receivedAt) === null) return Promise.resolve("ignored");
    const before = this.queues.get(msg.mmsi);
    const next = before ? before.then(() => this.apply(msg, receivedAt)) : this.apply(msg, receivedAt);
    this.queues.set(msg.mmsi, next);
    void next.then(() => {
      if (this.queues.get(msg.mmsi) === next) this.queues.delete(msg.mmsi);
    });
    return next;
  }

  byMmsi(mmsi: number, now: number = Date.now()): VesselPosition | null {
    const e = this.vessels.get(mmsi);
    return e ? toPosition(e.record, now) : null;
  }

  byImo(imo: number, now: number = Date.now()): VesselPosition | null {
    const mmsi = this.imos.get(imo);
    return mmsi === undefined ? null : this.byMmsi(mmsi, now);
  }

  /** Waits for this process's pending writes, then releases both connections. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopReplay();
    await Promise.all(this.queues.values());
    await this.subscription.close();
    await this.loading;
    await this.release();
  }

  private async apply(msg: AisMessage, receivedAt: number): Promise<UpdateOutcome> {
    const outcome = await this.link.run(
      (c) => this.commit(c, msg, receivedAt),
      () => null,
    );
    if (outcome !== null) return outcome;
    if (this.link.state === "down") {
      this.outage.push({ msg, receivedAt });
      if (this.outage.length > MAX_OUTAGE_MESSAGES) this.outage.shift();
    }
    // This process's readers keep seeing its own feed; a record from Redis replaces it.
    const current = this.vessels.get(msg.mmsi);
    const result = applyMessage(current?.record, msg, receivedAt)!;
    this.keep({ seq: current?.seq ?? 0, record: result.record });
    return result.outcome;
  }

  /** Read, apply, compare-and-set; again on conflict. Null when it keeps conflicting. */
  private async commit(
    c: RedisClientType,
    msg: AisMessage,
    receivedAt: number,
  ): Promise<UpdateOutcome | null> {
    const field = String(msg.mmsi);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const stored = await c.hGet(AIS_KEYS.vessels, field);
      const prev = stored === null ? null : parseEntry(stored, msg.mmsi);
      if (prev) this.note(prev);
      const { record, outcome } = applyMessage(prev?.record, msg, receivedAt)!;
      const json = encodeRecord(record);
      if (prev && json === encodeRecord(prev.record)) return outcome;
      const value = await COMMIT_SCRIPT.run(c, {
        keys: [AIS_KEYS.vessels, AIS_KEYS.imos, AIS_KEYS.seq],
        arguments: [
          field,
          stored ?? "",
          json,
          record.imo === null ? "" : String(record.imo),
          AIS_KEYS.channel,
        ],
      });
      if (typeof value === "string") {
        this.receive(value);
        return outcome;
      }
    }
    log.warn(
      { component: "ais" },
      `MMSI ${msg.mmsi}: ${MAX_ATTEMPTS} conflicting writes in a row, applied here only`,
    );
    return null;
  }

  /** A committed value from the channel or from this process's own commit. */
  private receive(value: string): void {
    const entry = parseEntry(value);
    if (entry) this.note(entry);
  }

  /** A record seen in Redis: kept unless the replica has a later one. */
  private note(entry: Entry): void {
    if (this.arrived) {
      const seen = this.arrived.get(entry.record.mmsi);
      if (!seen || seen.seq < entry.seq) this.arrived.set(entry.record.mmsi, entry);
    }
    this.install(entry);
  }

  private install(entry: Entry): void {
    const current = this.vessels.get(entry.record.mmsi);
    if (!current || current.seq < entry.seq) this.keep(entry);
  }

  private keep(entry: Entry): void {
    this.vessels.set(entry.record.mmsi, entry);
    if (entry.record.imo !== null) this.imos.set(entry.record.imo, entry.record.mmsi);
  }

  /** Replaces the replica with what Redis holds (plus what arrived meanwhile); one load at a time. */
  private load(): Promise<void> {
    if (this.loading) {
      this.loadAgain = true;
      return this.loading;
    }
    const run = async () => {
      do {
        this.loadAgain = false;
        await this.loadOnce();
      } while (this.loadAgain && !this.closed);
    };
    this.loading = run().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  private async loadOnce(): Promise<void> {
    const arrived = new Map<number, Entry>();
    this.arrived = arrived;
    try {
      const vessels = await this.scanHash(AIS_KEYS.vessels);
      const imos = vessels && (await this.scanHash(AIS_KEYS.imos));
      // Redis failed midway: keep the replica; the next re-subscription loads again.
      if (!vessels || !imos) return;
      const next = new Map<number, Entry>();
      const merge = (e: Entry) => {
        const seen = next.get(e.record.mmsi);
        if (!seen || seen.seq < e.seq) next.set(e.record.mmsi, e);
      };
      for (const { field, value } of vessels) {
        const e = parseEntry(value, Number(field));
        if (e) merge(e);
      }
      for (const e of arrived.values()) merge(e);
      const index = new Map<number, number>();
      for (const { field, value } of imos) {
        const imo = Number(field);
        const mmsi = Number(value);
        if (Number.isSafeInteger(imo) && next.has(mmsi)) index.set(imo, mmsi);
      }
      for (const e of arrived.values()) if (e.record.imo !== null) index.set(e.record.imo, e.record.mmsi);
      this.vessels = next;
      this.imos = index;
    } finally {
      this.arrived = null;
    }
  }

  /** Every field of a hash, page by page; null if Redis fails or the store closes meanwhile. */
  private async scanHash(key: string): Promise<{ field: string; value: string }[] | null> {
    const out: { field: string; value: string }[] = [];
    let cursor = "0";
    do {
      const page = await this.link.run(
        (c) => c.hScan(key, cursor, { COUNT: SCAN_COUNT }),
        () => null,
      );
      if (!page || this.closed) return null;
      for (const e of page.entries) out.push(e);
      cursor = page.cursor;
    } while (cursor !== "0");
    return out;
  }

  /** Redis is back: what was applied here only meanwhile goes to Redis, in arrival order. */
  private replayOutage(): void {
    const batch = this.outage;
    this.outage = [];
    for (const { msg, receivedAt } of batch) void this.update(msg, receivedAt);
  }
}
