/**
 * The air cargo events' payloads (docs/air-cargo.md), in catalogue order: every awb_* event carries
 * the waybill as it stands and, when the airline's event is known, its moment. Raised by
 * ingest/air-tracking/notify.ts; awb_departed is accepted in subscriptions but nothing raises it.
 */
import { type Static, Type } from "@sinclair/typebox";
import { Bool, moment, NInt, NNum, NStr, Nullable, Obj, optional, Str } from "./fields.ts";

const AWB_SUBJECT = {
  id: Str,
  awb: Str,
  airline_iata: Str,
  origin: NStr,
  destination: NStr,
  pieces: NInt,
  weight_kg: NNum,
  status: Str,
  exceptions: Type.Array(Str),
  eta: NStr,
  eta_is_estimated: Nullable(Bool),
};

/** The airline event that brought the status: location is the airport. */
const AWB_MOMENT = moment({ flight: NStr, event_pieces: NInt });

const Subject = Obj(AWB_SUBJECT);
const Moment = Obj(AWB_MOMENT);
export type AwbSubjectData = Static<typeof Subject>;
export type AwbMoment = Static<typeof Moment>;

const Waybill = Obj({ ...AWB_SUBJECT, ...optional(AWB_MOMENT) });

export const AIR_EVENTS = {
  awb_accepted: Waybill,
  awb_in_transit: Waybill,
  awb_arrived: Waybill,
  awb_available: Waybill,
  awb_delivered: Waybill,
  awb_departed: Waybill,
};
