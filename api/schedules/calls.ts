/**
 * Stored sailings as the schedules product reads them: a call's best-known times, which calls a
 * sailing departs on, one identity per physical call (the turn call is stored on both voyages),
 * and the JSON views every route renders.
 */
import type { CallTimes, ScheduleCall } from "../../ingest/schedules/cs-types.ts";
import type { SailingRow } from "../../storage/sailings.ts";

export const HOUR_MS = 3_600_000;

/** The carrier's latest word on a time: actual, else estimated, else planned (epoch ms). */
export function best(t: CallTimes): number | undefined {
  const v = t.actual ?? t.estimated ?? t.planned;
  return v === undefined ? undefined : Date.parse(v);
}

export const callsOf = (s: SailingRow): ScheduleCall[] => s.calls as ScheduleCall[];

/** Whether the sailing departs from this call (the calls before its last arrival under the voyage). */
export const departsOn = (s: SailingRow, c: ScheduleCall): boolean =>
  (c.exportVoyage ?? c.importVoyage) === s.voyage && best(c.departure) !== undefined;

/** One key per physical call of a hull, whichever of its two voyages it is read from. */
export function callKey(s: SailingRow, c: ScheduleCall): string {
  const at = c.arrival.planned ?? c.departure.planned ?? "";
  return `${s.carrier}|${s.vesselImo ?? s.id}|${c.transportCallReference ?? `${c.place.unlocode}@${at}`}`;
}

const times = (t: CallTimes) => ({
  planned: t.planned ?? null,
  estimated: t.estimated ?? null,
  actual: t.actual ?? null,
});

export function sailingHeader(s: SailingRow) {
  return {
    sailing_id: s.id,
    carrier: s.carrier,
    service_code: s.serviceCode,
    service_name: s.serviceName,
    voyage: s.voyage,
    vessel: { imo: s.vesselImo, name: s.vesselName },
  };
}

/** A call as published: times in the port's offset, as the carrier wrote them. */
export function callView(c: ScheduleCall) {
  return {
    unlocode: c.place.unlocode,
    port_name: c.place.name,
    terminal: c.place.facility,
    transport_call_reference: c.transportCallReference,
    import_voyage: c.importVoyage,
    export_voyage: c.exportVoyage,
    arrival: times(c.arrival),
    departure: times(c.departure),
    cut_offs: c.cutOffs.map((k) => ({ code: k.code, at: k.at })),
  };
}

export function sailingView(s: SailingRow) {
  return {
    ...sailingHeader(s),
    departs_at: s.departsAt,
    arrives_at: s.arrivesAt,
    calls: callsOf(s).map(callView),
  };
}
