/**
 * The sailing schedules events' payloads (docs/schedules.md, "Events"), in catalogue order. Raised
 * by ingest/schedules/: events.ts (blank_sailing, sailing_slipped), cutoffs.ts, reliability-watch.ts.
 */
import { type Static, Type } from "@sinclair/typebox";
import { Int, NNum, NStr, Nullable, Num, Obj, Str } from "./fields.ts";

/** The sailing as every sailing event starts: port and planned departure name the call. */
const SAILING_SUBJECT = {
  sailing_id: Str,
  carrier_code: Type.String({ description: "SCAC" }),
  service_code: Str,
  service_name: Str,
  voyage: Str,
  vessel_imo: NStr,
  vessel_name: NStr,
  port_unlocode: Nullable(Type.String({ description: "UN/LOCODE of the call" })),
  planned_departure: NStr,
};

const Subject = Obj(SAILING_SUBJECT);
export type SailingSubjectData = Static<typeof Subject>;

const Lane = Obj({ origin: Str, destination: Str });

export const SCHEDULE_EVENTS = {
  blank_sailing: Obj({
    ...SAILING_SUBJECT,
    expected_departure: NStr,
    ports: Type.Array(NStr),
    withdrawn_at: Str,
  }),
  cutoff_approaching: Obj({
    ...SAILING_SUBJECT,
    transport_call_reference: NStr,
    call: Str,
    expected_departure: NStr,
    cut_off_code: Str,
    cut_off_at: Str,
    /** As published, with the port's offset. */
    cut_off_local: Str,
    hours_left: Num,
    lead_hours: Num,
    previous_cut_off_at: NStr,
    follow_ids: Type.Array(Str),
    detected_at: Str,
  }),
  sailing_slipped: Obj({
    ...SAILING_SUBJECT,
    previous_departure: Str,
    new_departure: Str,
    slip_hours: Num,
    delay_hours: NNum,
    threshold_hours: Num,
    detected_at: Str,
  }),
  reliability_drop: Obj({
    scope: Type.Union([Type.Literal("carrier"), Type.Literal("lane")]),
    carrier_code: NStr,
    lane: Nullable(Lane),
    reliability: NNum,
    previous_reliability: NNum,
    threshold: Num,
    rearm_at: Num,
    calls: Int,
    on_time: Int,
    mean_delay_hours: NNum,
    window: Obj({ from: Str, to: Str, days: Num }),
    tolerance_hours: Num,
    detected_at: Str,
  }),
};
