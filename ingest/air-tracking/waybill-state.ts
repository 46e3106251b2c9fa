/**
 * A refresh's pure steps for an air waybill, as for ocean records (ingest/tracking/apply.ts): the
 * airline's snapshot against the stored events, then the waybill's new fields and the webhook events
 * it raises. The refresh's transaction reads the stored state and writes what these return.
 */
import type { AirWaybillRow, StoredAirEvent } from "../../storage/air-waybills.ts";
import { formatAwb } from "../airlines/awb.ts";
import type { AwbEvent, AwbSnapshot } from "../airlines/connector.ts";
import { diffSnapshot } from "../tracking/snapshot-diff.ts";
import { visiblyChanged } from "../tracking/visible.ts";
import { awbEvents, type RaisedAwbEvent } from "./notify.ts";
import { type AwbStatus, deriveAwb, type SeenEvent } from "./status.ts";
import type { AirportLookup } from "./timeline.ts";

/** Row fields a user sees; updated_at moves when one of them (or the timeline) changes. */
export const WAYBILL_VISIBLE = [
  "origin",
  "destination",
  "pieces",
  "weightKg",
  "status",
  "exceptions",
  "eta",
  "etaIsEstimated",
  "plannedArrivalAt",
  "departedAt",
  "arrivedAt",
  "deliveredAt",
  "lastError",
  "connectorStatus",
  "archivedAt",
] as const satisfies readonly (keyof AirWaybillRow)[];

export interface MergedEvents {
  /** New events, numbered after the last stored one in the snapshot's order. */
  inserts: StoredAirEvent[];
  /** Stored events the airline changed, as it publishes them now. */
  replaces: AwbEvent[];
  /** Every event after the snapshot, in the order first seen. */
  seen: SeenEvent[];
}

/** The airline's snapshot against the waybill's stored events. */
export function mergeEvents(stored: readonly StoredAirEvent[], snapshot: readonly AwbEvent[]): MergedEvents {
  const seqOf = new Map(stored.map((s) => [s.eventId, s.seq]));
  let next = stored.reduce((max, s) => Math.max(max, s.seq), -1) + 1;
  const { writes, after } = diffSnapshot(
    new Map(stored.map((s) => [s.eventId, s.payload as AwbEvent])),
    snapshot,
    (e) => e.id,
  );
  const inserts: StoredAirEvent[] = [];
  const replaces: AwbEvent[] = [];
  for (const { event, was } of writes) {
    if (was) replaces.push(event);
    else {
      seqOf.set(event.id, next);
      inserts.push({ eventId: event.id, seq: next++, payload: event });
    }
  }
  const seen = [...after.values()].map((event) => ({ event, seq: seqOf.get(event.id)! }));
  return { inserts, replaces, seen };
}

/**
 * The waybill's new fields from its events and the snapshot's facts, and the events it raises.
 * Milestones reached before the waybill was added raise nothing (webhooks report what happens
 * after tracking starts); they count as notified.
 */
export function waybillState(
  row: AirWaybillRow,
  snapshot: AwbSnapshot,
  merged: MergedEvents,
  at: { nowMs: number; cadence: Record<AwbStatus, number | null> },
  airports: AirportLookup,
): { update: Partial<AirWaybillRow>; raised: RaisedAwbEvent[] } {
  const nowIso = new Date(at.nowMs).toISOString();
  const facts = {
    origin: snapshot.origin ?? row.origin,
    destination: snapshot.destination ?? row.destination,
    pieces: snapshot.pieces ?? row.pieces,
  };
  const weightKg = snapshot.weightKg ?? row.weightKg;
  const d = deriveAwb(merged.seen, facts);
  const subject = {
    id: row.id,
    awb: formatAwb(row.awb),
    airlineIata: row.airlineIata,
    pieces: facts.pieces,
    weightKg,
  };
  const { raised, passed } = awbEvents(subject, d, row.notified, row.addedAt, airports);
  const cadence = at.cadence[d.status];
  const update: Partial<AirWaybillRow> = {
    origin: d.origin,
    destination: d.destination,
    pieces: facts.pieces,
    weightKg,
    status: d.status,
    exceptions: d.exceptions,
    eta: d.eta,
    etaIsEstimated: d.etaIsEstimated,
    plannedArrivalAt: d.plannedArrivalAt,
    departedAt: d.departedAt,
    arrivedAt: d.arrivedAt,
    deliveredAt: d.deliveredAt,
    notified: [...row.notified, ...passed, ...raised.map((r) => r.type)],
    lastError: null,
    connectorStatus: null,
    pollFailures: 0,
    lastPolledAt: nowIso,
    nextPollAt: cadence === null ? null : new Date(at.nowMs + cadence).toISOString(),
    // Every refresh write ends an add, in the statement that sets the next poll.
    adding: false,
  };
  const eventsChanged = merged.inserts.length > 0 || merged.replaces.length > 0;
  if (eventsChanged || visiblyChanged(WAYBILL_VISIBLE, row, update)) update.updatedAt = nowIso;
  return { update, raised };
}
