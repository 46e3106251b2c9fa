/**
 * Which awb_* webhook events a waybill's new state raises. Each is raised once per tracked waybill
 * (the row keeps the types raised), in lifecycle order, also when one poll passes several
 * milestones at once. awb_departed is in the catalogue but never raised: the spec says nothing
 * emits it, and awb_in_transit already reports the first departure (docs/air-cargo.md).
 */
import type { AwbMoment, AwbSubjectData } from "../../common/events/air.ts";
import type { EventType, ProductEvent } from "../../common/events/catalogue.ts";
import type { AwbEvent } from "../airlines/connector.ts";
import { knownLocalFields } from "../tracking/local-time.ts";
import { AWB_STATUSES, type AwbDerived, type AwbStatus } from "./status.ts";
import { type AirportLookup, toMilestone } from "./timeline.ts";

/** Each raised webhook event and the status that raises it. */
export const AWB_EVENT_TYPES = [
  ["awb_accepted", "received"],
  ["awb_in_transit", "in_transit"],
  ["awb_arrived", "arrived"],
  ["awb_available", "available"],
  ["awb_delivered", "delivered"],
] as const satisfies ReadonlyArray<readonly [EventType<"air">, AwbStatus]>;

export type RaisedAwbEvent = ProductEvent<"air">;

/** Who the event is about: the waybill as it stands after the change. */
export interface AwbSubject {
  id: string;
  awb: string;
  airlineIata: string;
  pieces: number | null;
  weightKg: number | null;
}

/**
 * The event types the new state has reached (a later status implies the earlier ones: a waybill
 * seen first at arrival was accepted and in transit too).
 */
function reachedTypes(d: AwbDerived): EventType<"air">[] {
  const rank = AWB_STATUSES.indexOf(d.status);
  return AWB_EVENT_TYPES.filter(([, s]) => AWB_STATUSES.indexOf(s) <= rank).map(([t]) => t);
}

/** The real-world moment of an event: UTC instant, and the airport's wall clock when its zone is known. */
function moment(e: AwbEvent, airports: AirportLookup): AwbMoment {
  const m = toMilestone(e, airports);
  return {
    event_type: m.type,
    label: m.label,
    location: m.location,
    flight: m.flight,
    event_pieces: m.pieces,
    event_date_time: m.timestamp,
    ...knownLocalFields(m),
  };
}

/** When a status was reached: its own event's time, else (implied) that of the first later one. */
function reachedAt(d: AwbDerived, status: AwbStatus): number | null {
  const times = AWB_STATUSES.slice(AWB_STATUSES.indexOf(status))
    .map((s) => d.reachedBy[s])
    .filter((e) => e !== undefined)
    .map((e) => Date.parse(e.at));
  return times.length ? Math.min(...times) : null;
}

/**
 * The types reached and not yet in `notified`, in lifecycle order: raised, or passed over when the
 * milestone happened before `since` (the waybill was added later: webhooks report what happens
 * after tracking starts). Both go into `notified`.
 */
export function awbEvents(
  subject: AwbSubject,
  d: AwbDerived,
  notified: readonly string[],
  since: string,
  airports: AirportLookup,
): { raised: RaisedAwbEvent[]; passed: string[] } {
  const base: AwbSubjectData = {
    id: subject.id,
    awb: subject.awb,
    airline_iata: subject.airlineIata,
    origin: d.origin,
    destination: d.destination,
    pieces: subject.pieces,
    weight_kg: subject.weightKg,
    status: d.status,
    exceptions: d.exceptions,
    eta: d.eta,
    eta_is_estimated: d.etaIsEstimated,
  };
  const reached = new Set(reachedTypes(d));
  const raised: RaisedAwbEvent[] = [];
  const passed: string[] = [];
  for (const [type, status] of AWB_EVENT_TYPES) {
    if (!reached.has(type) || notified.includes(type)) continue;
    const when = reachedAt(d, status);
    if (when !== null && when < Date.parse(since)) {
      passed.push(type);
      continue;
    }
    const by = d.reachedBy[status];
    raised.push({ type, data: { ...base, ...(by ? moment(by, airports) : {}) } });
  }
  return { raised, passed };
}
