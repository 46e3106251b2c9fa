/**
 * The DCSA event bodies the sandbox carrier publishes for a simulated shipment (TNT 2.2): shipment,
 * transport and equipment events with their transport calls and locations, and the carriers'
 * date-time forms (UTC for eventCreatedDateTime, the port's wall clock for eventDateTime).
 */
import type {
  DcsaDocumentReference,
  DcsaEquipmentEvent,
  DcsaEvent,
  DcsaLocation,
  DcsaShipmentEvent,
  DcsaTransportCall,
  DcsaTransportEvent,
  DocumentTypeCode,
  EquipmentEventCode,
  ShipmentEventCode,
} from "../carriers/dcsa.ts";
import type { Sailing } from "./network/sailings.ts";
import { uuidFrom } from "./random.ts";
import { MIN } from "./sim-time.ts";
import type { SimulatedContainer, VoyageLeg } from "./simulate.ts";
import type { Port } from "./world.ts";

/** UTC without milliseconds, as carriers send eventCreatedDateTime. */
export const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();
/** The port's wall clock with its offset, as carriers send eventDateTime ("2026-11-03T14:00:00+08:00"). */
export function localIso(ms: number, timeZone: string): string {
  let f = offsetFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" });
    offsetFormatters.set(timeZone, f);
  }
  const name = f.formatToParts(ms).find((p) => p.type === "timeZoneName")?.value ?? "GMT";
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  const offsetMin = m ? (m[1] === "-" ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
  const wall = new Date(Math.floor(ms / 1000) * 1000 + offsetMin * MIN).toISOString().slice(0, 19);
  return `${wall}${m ? `${m[1]}${m[2]}:${m[3]}` : "Z"}`;
}

/** One vessel call and the boxes aboard. */
export interface Call {
  key: string;
  leg: VoyageLeg;
  sailing: Sailing;
  index: number;
  port: Port;
  code: "DEPA" | "ARRI";
  sequence: number;
  planned: number | null;
  actual: number;
}

/** Writes one shipment's DCSA events, each with the time it is published. */
export class Emitter {
  readonly events: Array<{ created: number; event: DcsaEvent }> = [];
  /** When the transport document (B/L) is issued; set before any event that references documents. */
  trdIssuedAt = Number.POSITIVE_INFINITY;
  constructor(
    private readonly documentNumber: string,
    private readonly scac: string,
  ) {}

  /**
   * Until the B/L is issued the number is only a booking, and a real carrier cannot name a
   * transport document that does not exist yet: events created before the issue list BKG alone.
   */
  documentReferences(created: number): DcsaDocumentReference[] {
    const bkg = { documentReferenceType: "BKG" as const, documentReferenceValue: this.documentNumber };
    return created < this.trdIssuedAt
      ? [bkg]
      : [bkg, { documentReferenceType: "TRD", documentReferenceValue: this.documentNumber }];
  }

  private id(key: string) {
    return uuidFrom(`${this.scac}|${this.documentNumber}|${key}`);
  }

  shipment(
    key: string,
    at: number,
    code: ShipmentEventCode,
    documentTypeCode: DocumentTypeCode,
    extra: Partial<DcsaShipmentEvent> = {},
  ) {
    // The schema wants a shipment event's eventDateTime equal to its eventCreatedDateTime.
    this.events.push({
      created: at,
      event: {
        eventID: this.id(key),
        eventType: "SHIPMENT",
        eventClassifierCode: "ACT",
        eventCreatedDateTime: iso(at),
        eventDateTime: iso(at),
        shipmentEventTypeCode: code,
        documentID: this.documentNumber,
        documentTypeCode,
        ...extra,
      },
    });
  }

  transport(
    key: string,
    created: number,
    call: Call,
    classifier: "PLN" | "EST" | "ACT",
    at: number,
    boxes: string[],
    extra: Partial<DcsaTransportEvent> = {},
  ) {
    this.events.push({
      created,
      event: {
        eventID: this.id(key),
        eventType: "TRANSPORT",
        eventClassifierCode: classifier,
        eventCreatedDateTime: iso(created),
        eventDateTime: localIso(at, call.port.timezone),
        transportEventTypeCode: call.code,
        transportCall: transportCall(call.leg, call.code === "DEPA" ? "from" : "to", call.sequence),
        documentReferences: this.documentReferences(created),
        references: boxes.map((b) => ({ referenceType: "EQ" as const, referenceValue: b })),
        ...extra,
      },
    });
  }

  equipment(
    key: string,
    at: number,
    box: SimulatedContainer,
    code: EquipmentEventCode,
    empty: boolean,
    place: { port: Port; location: DcsaLocation; call?: DcsaTransportCall },
    lag: number,
  ) {
    const created = at + lag;
    const event: DcsaEquipmentEvent = {
      eventID: this.id(key),
      eventType: "EQUIPMENT",
      eventClassifierCode: "ACT",
      eventCreatedDateTime: iso(created),
      eventDateTime: localIso(at, place.port.timezone),
      equipmentEventTypeCode: code,
      equipmentReference: box.number,
      ISOEquipmentCode: box.isoEquipmentCode,
      emptyIndicatorCode: empty ? "EMPTY" : "LADEN",
      eventLocation: place.location,
      documentReferences: this.documentReferences(created),
    };
    if (place.call) event.transportCall = place.call;
    this.events.push({ created, event });
  }
}

/**
 * The call where a leg loads (`from`) or discharges (`to`). Its ID names the network call, so every
 * box on the sailing sees the same one; carrierVoyageNumber is the voyage the box sails (the export
 * voyage where it loads), import and export voyages are the call's own.
 */
export function transportCall(leg: VoyageLeg, end: "from" | "to", sequence: number): DcsaTransportCall {
  const call = end === "from" ? leg.departureCall : leg.arrivalCall;
  const port = leg[end];
  return {
    transportCallID: uuidFrom(`call|${call.sailing}|${call.index}`),
    // TNT 2.2 caps the code at 5 characters where CS allows 11 (DRAGON, AMERICAS): its head.
    carrierServiceCode: leg.service.slice(0, 5),
    carrierVoyageNumber: leg.voyage,
    exportVoyageNumber: call.exportVoyage,
    importVoyageNumber: call.importVoyage,
    transportCallSequenceNumber: sequence,
    UNLocationCode: port.locode,
    facilityTypeCode: "POTE",
    modeOfTransport: "VESSEL",
    location: location(port, "container terminal"),
    vessel: {
      vesselIMONumber: leg.vessel.imo,
      vesselName: leg.vessel.name,
      vesselFlag: leg.vessel.flag,
      vesselCallSignNumber: leg.vessel.callSign,
      vesselOperatorCarrierCode: leg.operator,
      vesselOperatorCarrierCodeListProvider: "NMFTA",
    },
  };
}

export function location(port: Port, what: string): DcsaLocation {
  return {
    locationName: `${port.name} ${what}`.slice(0, 100),
    UNLocationCode: port.locode,
    latitude: port.lat.toFixed(4),
    longitude: port.lng.toFixed(4),
  };
}
