/**
 * DCSA Commercial Schedules 1.0.3: the wire shapes the client reads (named as DCSA names them;
 * cs-validate.ts guarantees them before any cast) and the internal objects it maps them to.
 */

// ---- Wire (components/schemas), the fields we read ----

export interface CsLocation {
  locationName?: string;
  facilityName?: string;
  UNLocationCode?: string;
  /** TransportCallLocation / PortScheduleLocation. */
  facilitySMDGCode?: string;
  /** Location (point-to-point). */
  facility?: { facilityCode: string; facilityCodeListProvider: "BIC" | "SMDG" };
}

export interface CsCutOffTime {
  cutOffDateTimeCode: string;
  cutOffDateTime: string;
}

export interface CsTimestamp {
  eventTypeCode: "ARRI" | "DEPA";
  eventClassifierCode: "PLN" | "EST" | "ACT";
  eventDateTime: string;
}

export interface CsVessel {
  vesselIMONumber?: string;
  MMSINumber?: string;
  name?: string;
  flag?: string;
  callSign?: string;
  operatorCarrierCode?: string;
}

export interface CsServicePartner {
  carrierCode?: string;
  carrierServiceName?: string;
  carrierServiceCode?: string;
  carrierImportVoyageNumber?: string;
  carrierExportVoyageNumber?: string;
}

export interface CsPlace {
  transportCallReference?: string;
  facilityTypeCode: string;
  location: CsLocation;
  dateTime: string;
}

export interface CsTransport {
  modeOfTransport: string;
  transportCallReference?: string;
  servicePartners?: CsServicePartner[];
  universalServiceReference?: string;
  vessel?: CsVessel;
  barge?: CsVessel;
}

export interface CsIntermediateCall {
  transportCallReference?: string;
  location: CsLocation;
  arrivalDateTime?: string;
  departureDateTime?: string;
}

export interface CsLeg {
  sequenceNumber?: number;
  transport?: CsTransport;
  departure: CsPlace;
  intermediateCalls?: CsIntermediateCall[];
  arrival: CsPlace;
  cutOffTimes?: CsCutOffTime[];
}

export interface CsPointToPoint {
  placeOfReceipt: CsPlace;
  placeOfDelivery: CsPlace;
  receiptTypeAtOrigin?: "CY" | "SD" | "CFS";
  deliveryTypeAtDestination?: "CY" | "SD" | "CFS";
  cutOffTimes?: CsCutOffTime[];
  solutionNumber?: number;
  routingReference?: string;
  transitTime?: number;
  legs: CsLeg[];
}

export interface CsSchedule {
  universalServiceReference?: string;
  servicePartners: Array<
    CsServicePartner & {
      carrierServiceName: string;
      carrierServiceCode: string;
      carrierImportVoyageNumber: string;
      carrierExportVoyageNumber: string;
    }
  >;
  vessel?: CsVessel;
  isDummyVessel: boolean;
  timestamps: CsTimestamp[];
  cutOffTimes?: CsCutOffTime[];
}

export interface CsPortSchedule {
  location: CsLocation;
  vesselSchedules?: CsSchedule[];
}

export interface CsTransportCall {
  transportCallReference: string;
  carrierImportVoyageNumber: string;
  carrierExportVoyageNumber?: string;
  cutOffTimes?: CsCutOffTime[];
  location?: CsLocation;
  timestamps: CsTimestamp[];
}

export interface CsVesselSchedule {
  vessel?: CsVessel;
  isDummyVessel: boolean;
  transportCalls?: CsTransportCall[];
}

export interface CsServiceSchedule {
  carrierServiceName: string;
  carrierServiceCode: string;
  universalServiceReference?: string;
  vesselSchedules: CsVesselSchedule[];
}

// ---- Internal objects ----

/** RFC 3339 instants as the carrier published them (the port's local offset kept). */
export interface CallTimes {
  planned?: string;
  estimated?: string;
  actual?: string;
}

export interface CutOff {
  /** DCSA cut-off code: DCO, VCO, FCO, PCO… (the schema leaves it open). */
  code: string;
  at: string;
}

export interface Place {
  unlocode: string | null;
  /** SMDG terminal code (or the facility code of a point-to-point location). */
  facility: string | null;
  name: string | null;
}

export interface VesselRef {
  imo: string | null;
  name: string | null;
  mmsi: string | null;
  callSign: string | null;
  flag: string | null;
  operator: string | null;
}

/** One call of a vessel at a port. */
export interface ScheduleCall {
  place: Place;
  transportCallReference: string | null;
  importVoyage: string | null;
  exportVoyage: string | null;
  arrival: CallTimes;
  departure: CallTimes;
  cutOffs: CutOff[];
}

/** A vessel's published calls on one service (vessel schedules). */
export interface Sailing {
  serviceCode: string;
  serviceName: string;
  universalServiceReference: string | null;
  /** Null when the carrier publishes a dummy (TBN) vessel or none. */
  vessel: VesselRef | null;
  dummyVessel: boolean;
  calls: ScheduleCall[];
}

export interface ServiceVoyage {
  carrierCode: string | null;
  serviceCode: string;
  serviceName: string;
  importVoyage: string;
  exportVoyage: string;
}

/** One vessel's call in a port schedule. */
export interface PortCall {
  services: ServiceVoyage[];
  vessel: VesselRef | null;
  dummyVessel: boolean;
  arrival: CallTimes;
  departure: CallTimes;
  cutOffs: CutOff[];
}

export interface PortSchedule {
  port: Place;
  calls: PortCall[];
}

export interface RouteStop {
  place: Place;
  at: string;
  facilityTypeCode: string;
  transportCallReference: string | null;
}

export interface RouteLeg {
  sequence: number | null;
  /** VESSEL, BARGE, RAIL, TRUCK… or null when the carrier did not say. */
  mode: string | null;
  vessel: VesselRef | null;
  services: Array<{ serviceCode: string | null; importVoyage: string | null; exportVoyage: string | null }>;
  departure: RouteStop;
  arrival: RouteStop;
  intermediateCalls: Array<{ place: Place; arrival: string | null; departure: string | null }>;
  cutOffs: CutOff[];
}

/** One point-to-point routing option. */
export interface Route {
  solutionNumber: number | null;
  routingReference: string | null;
  receipt: RouteStop;
  delivery: RouteStop;
  /** Days, as the carrier states it; null when absent. */
  transitTimeDays: number | null;
  /** Vessel-to-vessel transfers (DCSA's definition): vessel legs minus one. */
  transshipments: number;
  cutOffs: CutOff[];
  legs: RouteLeg[];
}
