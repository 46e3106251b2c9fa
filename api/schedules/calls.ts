/**
 * Stored sailings as the schedules product renders them: the JSON views every route returns (the
 * call helpers, best-known times and call identities, are ingest/schedules/stored.ts's).
 */
import type { CallTimes, ScheduleCall } from "../../ingest/schedules/cs-types.ts";
import { callsOf } from "../../ingest/schedules/stored.ts";
import type { SailingRow } from "../../storage/sailings.ts";

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
