/**
 * The slice of a DCSA Track & Trace 2.2 event the tracking engine reads. Connectors deliver full
 * DCSA events (ingest/carriers); this structural type keeps the engine independent of them.
 */
export interface DcsaLocation {
  locationName?: string;
  UNLocationCode?: string;
  facilityCode?: string;
}

export interface DcsaTransportCall {
  UNLocationCode?: string;
  carrierVoyageNumber?: string;
  exportVoyageNumber?: string;
  importVoyageNumber?: string;
  modeOfTransport?: string;
  facilityCode?: string;
  location?: DcsaLocation;
  vessel?: { vesselIMONumber?: string; vesselName?: string };
}

export interface DcsaEventLike {
  eventID: string;
  eventType: "EQUIPMENT" | "TRANSPORT" | "SHIPMENT";
  eventClassifierCode: "ACT" | "EST" | "PLN";
  eventDateTime: string;
  eventCreatedDateTime: string;
  equipmentEventTypeCode?: string;
  transportEventTypeCode?: string;
  shipmentEventTypeCode?: string;
  documentTypeCode?: string;
  documentID?: string;
  reason?: string;
  changeRemark?: string;
  equipmentReference?: string;
  /** DCSA references; EQ entries name the boxes a shipment event (a customs hold) is about. */
  references?: Array<{ referenceType: string; referenceValue: string }>;
  ISOEquipmentCode?: string;
  emptyIndicatorCode?: "EMPTY" | "LADEN";
  eventLocation?: DcsaLocation;
  transportCall?: DcsaTransportCall;
}
