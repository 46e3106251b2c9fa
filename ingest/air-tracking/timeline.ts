/**
 * An air waybill's milestones as users read them: the current airline events with a label, the
 * UTC instant and the wall clock of the airport where each happened (its IANA zone), as the ocean
 * record's milestones have them.
 */
import type { AwbEvent } from "../airlines/connector.ts";
import { type LocalFields, localFields } from "../tracking/local-time.ts";

/** Airports by IATA code: their IANA zone and name, null when unknown. */
export interface AirportLookup {
  timezone(iata: string): string | null;
  name(iata: string): string | null;
}

/** The wall-clock fields (LocalFields) follow timestamp in the record. */
export interface AwbMilestone extends LocalFields {
  /** ONE Record StatusCode (BKD, RCS, DEP, ARR, NFD, DLV, DIS_OFLD, ...). */
  type: string;
  time_type: AwbEvent["timeType"];
  is_actual: boolean;
  label: string;
  timestamp: string;
  /** IATA code of the airport where it happened. */
  location: string | null;
  flight: string | null;
  /** The flight's arrival airport (BKD, MAN, DEP). */
  to_location: string | null;
  pieces: number | null;
  partial: boolean;
  event_id: string;
}

/** What each status code says; {at} is the airport, {flight} and {to} the flight and its destination. */
const WORDS: Record<string, string> = {
  BKD: "Booked on {flight} from {at}{to}",
  RCS: "Accepted from the shipper at {at}",
  FOH: "On hand at {at}",
  MAN: "Manifested on {flight} from {at}{to}",
  PRE: "Prepared for loading on {flight} at {at}",
  DEP: "Departed {at} on {flight}{to}",
  ARR: "Arrived at {at} on {flight}",
  RCF: "Received from flight {flight} at {at}",
  TFD: "Transferred to another carrier at {at}",
  RCT: "Received from another carrier at {at}",
  NFD: "Consignee notified of arrival at {at}",
  AWD: "Documents delivered to the consignee at {at}",
  CCD: "Cleared by customs at {at}",
  DLV: "Delivered to the consignee at {at}",
  DDL: "Delivered to the consignee's door",
  DIS_OFLD: "Offloaded at {at}",
  DIS_MSCA: "Cargo reported missing at {at}",
  DIS_FDCA: "Missing cargo found at {at}",
  DIS_MSAW: "Air waybill reported missing at {at}",
  DIS_FDAW: "Missing air waybill found at {at}",
  DIS_OVCD: "Overcarried beyond {at}",
  DIS_SSPD: "Short-shipped at {at}",
  DIS_DFLD: "Confirmed loaded at {at}",
};

function labelOf(e: AwbEvent, airports: AirportLookup): string {
  const place = (code: string | null) => (code ? (airports.name(code) ?? code) : "an unnamed airport");
  const words = (WORDS[e.code] ?? `${e.code} at {at}`)
    .replace("{at}", place(e.airport))
    .replace("{flight}", e.flight ?? "a flight")
    .replace("{to}", e.toAirport ? ` to ${place(e.toAirport)}` : "");
  const part = e.partial ? (e.pieces !== null ? ` (${e.pieces} pieces)` : " (part of the pieces)") : "";
  const when = e.timeType === "PLANNED" ? " (planned)" : e.timeType === "ESTIMATED" ? " (estimated)" : "";
  return `${words}${part}${when}`;
}

export function toMilestone(e: AwbEvent, airports: AirportLookup): AwbMilestone {
  return {
    type: e.code,
    time_type: e.timeType,
    is_actual: e.timeType === "ACTUAL",
    label: labelOf(e, airports),
    timestamp: new Date(Date.parse(e.at)).toISOString(),
    // The wall clock at the event's airport.
    ...localFields(Date.parse(e.at), e.airport ? airports.timezone(e.airport) : null),
    location: e.airport,
    flight: e.flight,
    to_location: e.toAirport,
    pieces: e.pieces,
    partial: e.partial,
    event_id: e.id,
  };
}
