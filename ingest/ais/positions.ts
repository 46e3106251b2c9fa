/**
 * Latest vessel positions keyed by MMSI, linked to IMO and name through static data (types 5, 19,
 * 24). The rules live in pure functions over a serialisable `VesselRecord` (`applyMessage`,
 * `toPosition`) so that a SQLite- or Redis-backed store only has to load and save records;
 * `MemoryPositionStore` is the in-process Map version, `RedisPositionStore` (redis-positions.ts) the
 * one shared by several processes.
 */
import { haversineM } from "../../common/geo.ts";
import { type AisMessage, navStatusText } from "./messages.ts";

/**
 * Freshness bands by the age of the fix (position_fix_at), upper bounds exclusive, in hours:
 * live < 1, recent < 6, stale < 24, outdated ≥ 24; "unknown" when there is no usable fix.
 */
export const FRESHNESS_HOURS = { live: 1, recent: 6, stale: 24 } as const;

export type Freshness = "live" | "recent" | "stale" | "outdated" | "unknown";

/** Plausibility limits applied between consecutive fixes of one MMSI. */
export const POSITION_RULES = {
  /** A moored / at-anchor claim is dropped above this speed over ground (knots)... */
  stationaryMaxSogKnots: 2,
  /** ...or when the position moved more than this since the previous fix (km). */
  stationaryMaxJumpKm: 1,
  /** A fix implying more than this speed from the previous one is rejected (knots). */
  maxImpliedSpeedKnots: 60,
  /** Tag block times further than this ahead of the receive time are not trusted (ms). */
  maxClockAheadMs: 5 * 60_000,
} as const;

/** What the store keeps per MMSI (plain data: JSON- and row-friendly). */
export interface VesselRecord {
  mmsi: number;
  imo: number | null;
  name: string | null;
  lat: number | null;
  lng: number | null;
  sog: number | null;
  heading: number | null;
  navStatus: number | null;
  /** Epoch ms of the observation, or null before the first accepted fix. */
  fixAt: number | null;
  /** Epoch ms the fix was stored. */
  updatedAt: number | null;
  /**
   * Last fix rejected as an implausible jump: if the next fix agrees with it rather than with the
   * stored one, the stored fix was the outlier and the vessel moves there.
   */
  rejected: { lat: number; lng: number; fixAt: number } | null;
}

export interface VesselPosition {
  imo: number | null;
  mmsi: number;
  name: string | null;
  lat: number | null;
  lng: number | null;
  speed_knots: number | null;
  heading_deg: number | null;
  nav_status: string | null;
  /** ISO 8601 observation time (tag block c: or receive time, set to the AIS UTC second). */
  position_fix_at: string | null;
  /** ISO 8601 time the fix was stored. */
  position_updated_at: string | null;
  position_age_hours: number | null;
  position_freshness: Freshness;
}

export type UpdateOutcome = "position" | "static" | "ignored" | "out-of-order" | "implausible";

const EMPTY = (mmsi: number): VesselRecord => ({
  mmsi,
  imo: null,
  name: null,
  lat: null,
  lng: null,
  sog: null,
  heading: null,
  navStatus: null,
  fixAt: null,
  updatedAt: null,
  rejected: null,
});

/**
 * Observation time: the tag block time (unless it runs ahead of the receive time) or the receive
 * time, moved back to the report's UTC second when it has one (a fix precedes its reception).
 */
export function fixTime(msg: AisMessage, receivedAt: number): number {
  const tagged = msg.meta.tags?.time ?? null;
  const base = tagged !== null && tagged <= receivedAt + POSITION_RULES.maxClockAheadMs ? tagged : receivedAt;
  const second = "second" in msg && msg.type !== 4 ? msg.second : null;
  if (second === null) return base;
  const minute = Math.floor(base / 60_000) * 60_000;
  const at = minute + second * 1000;
  return at > base ? at - 60_000 : at;
}

/** Great-circle distance in km. */
export function distanceKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  return haversineM(lat1, lng1, lat2, lng2) / 1000;
}

function impliedKnots(km: number, fromMs: number, toMs: number): number {
  const hours = (toMs - fromMs) / 3_600_000;
  return hours <= 0 ? Number.POSITIVE_INFINITY : km / 1.852 / hours;
}

/**
 * The record after `msg`, or null when the message says nothing about a vessel (base stations,
 * aids to navigation). Never mutates `prev`.
 */
export function applyMessage(
  prev: VesselRecord | undefined,
  msg: AisMessage,
  receivedAt: number,
): { record: VesselRecord; outcome: UpdateOutcome } | null {
  if (msg.type === 4 || msg.type === 21) return null;
  const record = { ...(prev ?? EMPTY(msg.mmsi)) };
  let outcome: UpdateOutcome = "ignored";
  if (msg.type === 5) {
    record.imo = msg.imo ?? record.imo;
    record.name = msg.shipname ?? record.name;
    outcome = "static";
  } else if ((msg.type === 24 && msg.partno === 0) || msg.type === 19) {
    if (msg.shipname) {
      record.name = msg.shipname;
      outcome = "static";
    }
  }
  if (msg.type === 5 || msg.type === 24 || msg.lat === null || msg.lon === null) return { record, outcome };

  const lat = msg.lat;
  const lng = msg.lon;
  const fixAt = fixTime(msg, receivedAt);
  if (record.fixAt !== null && fixAt <= record.fixAt) return { record, outcome: "out-of-order" };
  if (record.fixAt !== null && record.lat !== null && record.lng !== null) {
    const km = distanceKm(record.lat, record.lng, lat, lng);
    if (impliedKnots(km, record.fixAt, fixAt) > POSITION_RULES.maxImpliedSpeedKnots) {
      const r = record.rejected;
      const agrees =
        r !== null &&
        fixAt > r.fixAt &&
        impliedKnots(distanceKm(r.lat, r.lng, lat, lng), r.fixAt, fixAt) <=
          POSITION_RULES.maxImpliedSpeedKnots;
      if (!agrees) {
        record.rejected = { lat, lng, fixAt };
        return { record, outcome: "implausible" };
      }
    }
  }
  const navStatus = msg.type === 18 || msg.type === 19 ? null : msg.navStatus;
  const stationary = navStatus === 1 || navStatus === 5;
  const moved =
    (msg.sog !== null && msg.sog > POSITION_RULES.stationaryMaxSogKnots) ||
    (record.lat !== null &&
      record.lng !== null &&
      distanceKm(record.lat, record.lng, lat, lng) > POSITION_RULES.stationaryMaxJumpKm);
  record.lat = lat;
  record.lng = lng;
  record.sog = msg.sog;
  record.heading = msg.type === 27 ? null : msg.heading;
  record.navStatus = stationary && moved ? null : navStatus;
  record.fixAt = fixAt;
  record.updatedAt = receivedAt;
  record.rejected = null;
  return { record, outcome: "position" };
}

export function freshness(ageHours: number | null): Freshness {
  if (ageHours === null || ageHours < 0) return "unknown";
  if (ageHours < FRESHNESS_HOURS.live) return "live";
  if (ageHours < FRESHNESS_HOURS.recent) return "recent";
  if (ageHours < FRESHNESS_HOURS.stale) return "stale";
  return "outdated";
}

/** The public view of a record at `now` (a fix from the future reads as unknown freshness). */
export function toPosition(r: VesselRecord, now: number): VesselPosition {
  const age = r.fixAt === null ? null : (now - r.fixAt) / 3_600_000;
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    imo: r.imo,
    mmsi: r.mmsi,
    name: r.name,
    lat: r.lat,
    lng: r.lng,
    speed_knots: r.sog,
    heading_deg: r.heading,
    nav_status: navStatusText(r.navStatus),
    position_fix_at: iso(r.fixAt),
    position_updated_at: iso(r.updatedAt),
    position_age_hours: age === null || age < 0 ? null : Math.round(age * 1000) / 1000,
    position_freshness: freshness(age),
  };
}

export interface PositionStore {
  /** Applies one message; a shared store answers once the shared record is written. */
  update(msg: AisMessage, receivedAt?: number): UpdateOutcome | Promise<UpdateOutcome>;
  /** Reads stay synchronous (hot paths: tracking records, compat renders). */
  byMmsi(mmsi: number, now?: number): VesselPosition | null;
  byImo(imo: number, now?: number): VesselPosition | null;
  close(): Promise<void>;
}

export class MemoryPositionStore implements PositionStore {
  private readonly vessels = new Map<number, VesselRecord>();
  /** IMO → MMSI of the latest vessel that claimed it. */
  private readonly imos = new Map<number, number>();

  get size(): number {
    return this.vessels.size;
  }

  update(msg: AisMessage, receivedAt: number = msg.meta.receivedAt): UpdateOutcome {
    const result = applyMessage(this.vessels.get(msg.mmsi), msg, receivedAt);
    if (!result) return "ignored";
    this.vessels.set(msg.mmsi, result.record);
    if (result.record.imo !== null) this.imos.set(result.record.imo, msg.mmsi);
    return result.outcome;
  }

  byMmsi(mmsi: number, now: number = Date.now()): VesselPosition | null {
    const r = this.vessels.get(mmsi);
    return r ? toPosition(r, now) : null;
  }

  byImo(imo: number, now: number = Date.now()): VesselPosition | null {
    const mmsi = this.imos.get(imo);
    return mmsi === undefined ? null : this.byMmsi(mmsi, now);
  }

  async close(): Promise<void> {}
}
