/**
 * DCSA Track & Trace 2.2 event shapes (GET /v2/events), kept as DCSA names them so a connector
 * passes carrier payloads through unchanged. Enums follow ../shared/reference/dcsa/tnt_v2.2.0.yaml.
 */

export const EVENT_TYPES = ["SHIPMENT", "TRANSPORT", "EQUIPMENT"] as const;
export const CLASSIFIERS = ["ACT", "PLN", "EST"] as const;
export const TRANSPORT_EVENT_CODES = ["ARRI", "DEPA"] as const;
export const EQUIPMENT_EVENT_CODES = [
  "LOAD",
  "DISC",
  "GTIN",
  "GTOT",
  "STUF",
  "STRP",
  "PICK",
  "DROP",
  "INSP",
  "RSEA",
  "RMVD",
] as const;
export const SHIPMENT_EVENT_CODES = [
  "RECE",
  "DRFT",
  "PENA",
  "PENU",
  "REJE",
  "APPR",
  "ISSU",
  "SURR",
  "SUBM",
  "VOID",
  "CONF",
  "REQS",
  "CMPL",
  "HOLD",
  "RELS",
] as const;
export const DOCUMENT_TYPE_CODES = [
  "CBR",
  "BKG",
  "SHI",
  "SRM",
  "TRD",
  "ARN",
  "VGM",
  "CAS",
  "CUS",
  "DGD",
  "OOG",
] as const;
export const EMPTY_INDICATORS = ["EMPTY", "LADEN"] as const;
export const MODES_OF_TRANSPORT = ["VESSEL", "RAIL", "TRUCK", "BARGE"] as const;
export const FACILITY_TYPE_CODES = [
  "BOCR",
  "CLOC",
  "COFS",
  "COYA",
  "OFFD",
  "DEPO",
  "INTE",
  "POTE",
  "RAMP",
] as const;
export const FACILITY_CODE_LIST_PROVIDERS = ["BIC", "SMDG"] as const;
export const REFERENCE_TYPES = ["FF", "SI", "PO", "CR", "AAO", "EQ"] as const;
/** The schema's enum says "BKG (Booking)"; the DCSA reference implementation sends "BKG". */
export const DOCUMENT_REFERENCE_TYPES = ["BKG", "TRD", "BKG (Booking)", "TRD (Transport Document)"] as const;

export type EventClassifier = (typeof CLASSIFIERS)[number];
export type TransportEventCode = (typeof TRANSPORT_EVENT_CODES)[number];
export type EquipmentEventCode = (typeof EQUIPMENT_EVENT_CODES)[number];
export type ShipmentEventCode = (typeof SHIPMENT_EVENT_CODES)[number];
export type DocumentTypeCode = (typeof DOCUMENT_TYPE_CODES)[number];

export interface DcsaAddress {
  name?: string;
  street?: string;
  streetNumber?: string;
  floor?: string;
  postCode?: string;
  city?: string;
  stateRegion?: string;
  country?: string;
}

export interface DcsaLocation {
  locationName?: string;
  /** Decimal degrees as strings, per the schema. */
  latitude?: string;
  longitude?: string;
  UNLocationCode?: string;
  facilityCode?: string;
  facilityCodeListProvider?: (typeof FACILITY_CODE_LIST_PROVIDERS)[number];
  address?: DcsaAddress;
}

export interface DcsaVessel {
  vesselIMONumber: string;
  vesselName?: string;
  vesselFlag?: string;
  vesselCallSignNumber?: string;
  vesselOperatorCarrierCode?: string;
  vesselOperatorCarrierCodeListProvider?: "SMDG" | "NMFTA";
}

export interface DcsaTransportCall {
  transportCallID: string;
  carrierServiceCode?: string;
  /** Deprecated in 2.2 in favour of exportVoyageNumber; carriers still send it. */
  carrierVoyageNumber?: string;
  exportVoyageNumber?: string;
  importVoyageNumber?: string;
  transportCallSequenceNumber?: number;
  UNLocationCode?: string;
  facilityCode?: string;
  facilityCodeListProvider?: (typeof FACILITY_CODE_LIST_PROVIDERS)[number];
  facilityTypeCode?: (typeof FACILITY_TYPE_CODES)[number];
  otherFacility?: string;
  modeOfTransport: (typeof MODES_OF_TRANSPORT)[number];
  location?: DcsaLocation;
  vessel?: DcsaVessel;
}

export interface DcsaDocumentReference {
  documentReferenceType: (typeof DOCUMENT_REFERENCE_TYPES)[number];
  documentReferenceValue: string;
}

export interface DcsaReference {
  referenceType: (typeof REFERENCE_TYPES)[number];
  referenceValue: string;
}

interface DcsaEventBase {
  eventID: string;
  /** When the carrier published this message (metadata): the feed's ordering key. */
  eventCreatedDateTime: string;
  eventClassifierCode: EventClassifier;
  /** When it happened or is expected to; ISO 8601 with the local offset. */
  eventDateTime: string;
  references?: DcsaReference[];
}

export interface DcsaTransportEvent extends DcsaEventBase {
  eventType: "TRANSPORT";
  transportEventTypeCode: TransportEventCode;
  delayReasonCode?: string;
  vesselScheduleChangeRemark?: string;
  changeRemark?: string;
  transportCall: DcsaTransportCall;
  documentReferences?: DcsaDocumentReference[];
}

export interface DcsaEquipmentEvent extends DcsaEventBase {
  eventType: "EQUIPMENT";
  equipmentEventTypeCode: EquipmentEventCode;
  equipmentReference?: string;
  ISOEquipmentCode?: string;
  emptyIndicatorCode: (typeof EMPTY_INDICATORS)[number];
  eventLocation?: DcsaLocation;
  transportCall?: DcsaTransportCall;
  documentReferences?: DcsaDocumentReference[];
  seals?: Array<{ sealNumber: string; sealSource?: string; sealType?: string }>;
}

export interface DcsaShipmentEvent extends DcsaEventBase {
  eventType: "SHIPMENT";
  shipmentEventTypeCode: ShipmentEventCode;
  documentID: string;
  documentTypeCode: DocumentTypeCode;
  shipmentInformationTypeCode?: string;
  reason?: string;
}

export type DcsaEvent = DcsaTransportEvent | DcsaEquipmentEvent | DcsaShipmentEvent;

/** DCSA error body (components/schemas/error). */
export interface DcsaErrorBody {
  httpMethod: string;
  requestUri: string;
  errors: Array<{ reason: string; message: string }>;
  statusCode: number;
  statusCodeText: string;
  errorDateTime: string;
}
