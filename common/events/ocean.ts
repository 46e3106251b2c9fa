/**
 * The ocean tracking events' payloads (docs/webhooks.md, "Event catalogues"), in catalogue order.
 * Raised by ingest/tracking/outbox-events.ts and, for api_change_announced, api/webhooks/announce.ts.
 */
import { type Static, Type } from "@sinclair/typebox";
import { Bool, moment, NNum, NStr, Nullable, Obj, optional, Str } from "./fields.ts";

/** The shipment every shipment event is about, as it stands after the change. */
const OCEAN_SUBJECT = {
  id: Str,
  identifier: Str,
  identifier_type: Str,
  container_number: NStr,
  bl_number: NStr,
  booking_number: NStr,
  carrier_code: NStr,
  status: Str,
  eta: NStr,
  origin_unlocode: NStr,
  destination_unlocode: NStr,
};

/** The carrier event behind a shipment event: location is the port. */
const OCEAN_MOMENT = moment({ vessel_imo: NStr, vessel_name: NStr });

const Subject = Obj(OCEAN_SUBJECT);
const Moment = Obj(OCEAN_MOMENT);
export type OceanSubject = Static<typeof Subject>;
export type OceanMoment = Static<typeof Moment>;

/** A shipment event with its carrier event; the second kind carries it only when it is known. */
const AtMoment = Obj({ ...OCEAN_SUBJECT, ...OCEAN_MOMENT });
const MaybeAtMoment = Obj({ ...OCEAN_SUBJECT, ...optional(OCEAN_MOMENT) });

const DemurrageData = Obj({
  id: Str,
  identifier: Str,
  container_number: NStr,
  carrier_code: NStr,
  destination_unlocode: NStr,
  demurrage_last_free_day: NStr,
  demurrage_free_days_left: NNum,
  demurrage_accrued_usd: NNum,
  discharged_at: NStr,
});

export type DemurrageData = Static<typeof DemurrageData>;

const DisruptedCall = Obj({
  event_type: Str,
  location: Str,
  previous_time: Str,
  new_time: NStr,
  delay_hours: NNum,
});

export const OCEAN_EVENTS = {
  container_arrived: AtMoment,
  container_available: MaybeAtMoment,
  container_delivered: MaybeAtMoment,
  customs_hold: Obj({ ...OCEAN_SUBJECT, reason: NStr, since: NStr, ...optional(OCEAN_MOMENT) }),
  vessel_departed: AtMoment,
  eta_changed: Obj({ ...OCEAN_SUBJECT, previous_eta: Str, eta_is_estimated: Nullable(Bool) }),
  container_misrouted: Obj({
    ...OCEAN_SUBJECT,
    route_alert: Type.Union([Type.Literal("destination_change"), Type.Literal("missed_connection")]),
    previous_destination_unlocode: NStr,
  }),
  demurrage_started: DemurrageData,
  demurrage_warning: DemurrageData,
  schedule_disruption: Obj({
    ...OCEAN_SUBJECT,
    ...OCEAN_MOMENT,
    kind: Type.Union([Type.Literal("slip"), Type.Literal("omission"), Type.Literal("sailing_change")]),
    voyage: NStr,
    previous_vessel_imo: NStr,
    previous_vessel_name: NStr,
    previous_voyage: NStr,
    previous_time: Str,
    new_time: NStr,
    delay_hours: NNum,
    change_remark: NStr,
    delay_reason_code: NStr,
    calls: Type.Array(DisruptedCall),
  }),
  api_change_announced: Obj({
    announcement_id: Str,
    title: Str,
    message: Str,
    effective_date: Nullable(Type.String({ description: "When the change takes effect, YYYY-MM-DD" })),
    url: NStr,
    api_version: Str,
    announced_at: Str,
  }),
};
