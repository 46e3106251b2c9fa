/** Maps validated DCSA CS bodies to the internal schedule objects (cs-types.ts). */
import type {
  CallTimes,
  CsCutOffTime,
  CsLocation,
  CsPlace,
  CsPointToPoint,
  CsPortSchedule,
  CsServiceSchedule,
  CsTimestamp,
  CsVessel,
  CutOff,
  Place,
  PortSchedule,
  Route,
  RouteStop,
  Sailing,
  VesselRef,
} from "./cs-types.ts";

const place = (l: CsLocation | undefined): Place => ({
  unlocode: l?.UNLocationCode ?? null,
  facility: l?.facilitySMDGCode ?? l?.facility?.facilityCode ?? null,
  name: l?.locationName ?? l?.facilityName ?? null,
});

const cutOffs = (list: CsCutOffTime[] | undefined): CutOff[] =>
  (list ?? []).map((c) => ({ code: c.cutOffDateTimeCode, at: c.cutOffDateTime }));

/** A vessel with neither IMO nor name identifies nothing: treat it as absent. */
function vessel(v: CsVessel | undefined, dummy = false): VesselRef | null {
  if (!v || dummy || (!v.vesselIMONumber && !v.name)) return null;
  return {
    imo: v.vesselIMONumber ?? null,
    name: v.name ?? null,
    mmsi: v.MMSINumber ?? null,
    callSign: v.callSign ?? null,
    flag: v.flag ?? null,
    operator: v.operatorCarrierCode ?? null,
  };
}

const CLASSIFIER = { PLN: "planned", EST: "estimated", ACT: "actual" } as const;

/** Splits timestamps into arrival and departure by classifier; a later duplicate wins. */
function times(list: CsTimestamp[]): { arrival: CallTimes; departure: CallTimes } {
  const arrival: CallTimes = {};
  const departure: CallTimes = {};
  for (const t of list) {
    (t.eventTypeCode === "ARRI" ? arrival : departure)[CLASSIFIER[t.eventClassifierCode]] = t.eventDateTime;
  }
  return { arrival, departure };
}

export function mapVesselSchedules(body: CsServiceSchedule[]): Sailing[] {
  return body.flatMap((service) =>
    service.vesselSchedules.map((vs) => ({
      serviceCode: service.carrierServiceCode,
      serviceName: service.carrierServiceName,
      universalServiceReference: service.universalServiceReference ?? null,
      vessel: vessel(vs.vessel, vs.isDummyVessel),
      dummyVessel: vs.isDummyVessel,
      calls: (vs.transportCalls ?? []).map((tc) => ({
        place: place(tc.location),
        transportCallReference: tc.transportCallReference,
        importVoyage: tc.carrierImportVoyageNumber,
        exportVoyage: tc.carrierExportVoyageNumber ?? null,
        ...times(tc.timestamps),
        cutOffs: cutOffs(tc.cutOffTimes),
      })),
    })),
  );
}

export function mapPortSchedules(body: CsPortSchedule[]): PortSchedule[] {
  return body.map((ps) => ({
    port: place(ps.location),
    calls: (ps.vesselSchedules ?? []).map((s) => ({
      services: s.servicePartners.map((p) => ({
        carrierCode: p.carrierCode ?? null,
        serviceCode: p.carrierServiceCode,
        serviceName: p.carrierServiceName,
        importVoyage: p.carrierImportVoyageNumber,
        exportVoyage: p.carrierExportVoyageNumber,
      })),
      vessel: vessel(s.vessel, s.isDummyVessel),
      dummyVessel: s.isDummyVessel,
      ...times(s.timestamps),
      cutOffs: cutOffs(s.cutOffTimes),
    })),
  }));
}

const stop = (p: CsPlace): RouteStop => ({
  place: place(p.location),
  at: p.dateTime,
  facilityTypeCode: p.facilityTypeCode,
  transportCallReference: p.transportCallReference ?? null,
});

export function mapPointToPoint(body: CsPointToPoint[]): Route[] {
  return body.map((r) => {
    const legs = r.legs.map((leg) => {
      const t = leg.transport;
      return {
        sequence: leg.sequenceNumber ?? null,
        mode: t?.modeOfTransport ?? null,
        vessel: vessel(t?.vessel ?? t?.barge),
        services: (t?.servicePartners ?? []).map((p) => ({
          serviceCode: p.carrierServiceCode ?? null,
          importVoyage: p.carrierImportVoyageNumber ?? null,
          exportVoyage: p.carrierExportVoyageNumber ?? null,
        })),
        departure: stop(leg.departure),
        arrival: stop(leg.arrival),
        intermediateCalls: (leg.intermediateCalls ?? []).map((c) => ({
          place: place(c.location),
          arrival: c.arrivalDateTime ?? null,
          departure: c.departureDateTime ?? null,
        })),
        cutOffs: cutOffs(leg.cutOffTimes),
      };
    });
    const vesselLegs = legs.filter((l) => l.mode === "VESSEL").length;
    return {
      solutionNumber: r.solutionNumber ?? null,
      routingReference: r.routingReference ?? null,
      receipt: stop(r.placeOfReceipt),
      delivery: stop(r.placeOfDelivery),
      transitTimeDays: r.transitTime ?? null,
      transshipments: Math.max(0, vesselLegs - 1),
      cutOffs: cutOffs(r.cutOffTimes),
      legs,
    };
  });
}
