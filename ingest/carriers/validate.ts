/**
 * Checks a DCSA TNT 2.2 /v2/events payload against the schema essentials: required fields, enums,
 * string lengths, RFC 3339 date-times, uuid eventIDs unique within the response. Not a full
 * JSON-Schema validator: it checks what the tracking engine relies on.
 */
import {
  CLASSIFIERS,
  type DcsaEvent,
  DOCUMENT_REFERENCE_TYPES,
  DOCUMENT_TYPE_CODES,
  EMPTY_INDICATORS,
  EQUIPMENT_EVENT_CODES,
  EVENT_TYPES,
  FACILITY_CODE_LIST_PROVIDERS,
  FACILITY_TYPE_CODES,
  MODES_OF_TRANSPORT,
  REFERENCE_TYPES,
  SHIPMENT_EVENT_CODES,
  TRANSPORT_EVENT_CODES,
} from "./dcsa.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** RFC 3339 date-time (the OpenAPI `date-time` format): offset or Z required. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;
const UN_LOCODE = /^[A-Z]{2}[A-Z2-9]{3}$/;
/** No carrier published T&T events before this; earlier creation stamps are corrupt. */
const EARLIEST_CREATED = Date.parse("2000-01-01T00:00:00Z");
/** Clock skew allowed on eventCreatedDateTime before it counts as "from the future". */
const FUTURE_SKEW_MS = 24 * 3600_000;

export type ValidationResult = { ok: true; events: DcsaEvent[] } | { ok: false; issues: string[] };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

class Checker {
  readonly issues: string[] = [];
  constructor(private readonly where: string) {}

  private add(path: string, msg: string) {
    this.issues.push(`${this.where}.${path}: ${msg}`);
  }

  str(o: Obj, key: string, path: string, opts: { required?: boolean; max?: number } = {}): string | null {
    const v = o[key];
    if (v === undefined || v === null) {
      if (opts.required) this.add(path, "required");
      return null;
    }
    if (typeof v !== "string") {
      this.add(path, `must be a string, got ${typeof v}`);
      return null;
    }
    if (opts.max !== undefined && v.length > opts.max) this.add(path, `longer than ${opts.max}`);
    return v;
  }

  oneOf(o: Obj, key: string, path: string, values: readonly string[], required = false) {
    const v = this.str(o, key, path, { required });
    if (v !== null && !values.includes(v)) this.add(path, `"${v}" is not one of ${values.join(", ")}`);
  }

  match(o: Obj, key: string, path: string, re: RegExp, what: string, required = false): string | null {
    const v = this.str(o, key, path, { required });
    if (v !== null && !re.test(v)) {
      this.add(path, `"${v}" is not ${what}`);
      return null;
    }
    return v;
  }

  object(o: Obj, key: string, path: string, required = false): Obj | null {
    const v = o[key];
    if (v === undefined || v === null) {
      if (required) this.add(path, "required");
      return null;
    }
    if (!isObj(v)) {
      this.add(path, "must be an object");
      return null;
    }
    return v;
  }

  array(o: Obj, key: string, path: string): Obj[] {
    const v = o[key];
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v) || !v.every(isObj)) {
      this.add(path, "must be an array of objects");
      return [];
    }
    return v;
  }

  location(l: Obj, path: string) {
    this.str(l, "locationName", `${path}.locationName`, { max: 100 });
    this.str(l, "latitude", `${path}.latitude`, { max: 10 });
    this.str(l, "longitude", `${path}.longitude`, { max: 11 });
    this.match(l, "UNLocationCode", `${path}.UNLocationCode`, UN_LOCODE, "a UN/LOCODE");
    this.str(l, "facilityCode", `${path}.facilityCode`, { max: 6 });
    this.oneOf(
      l,
      "facilityCodeListProvider",
      `${path}.facilityCodeListProvider`,
      FACILITY_CODE_LIST_PROVIDERS,
    );
  }

  transportCall(t: Obj, path: string) {
    this.str(t, "transportCallID", `${path}.transportCallID`, { required: true, max: 100 });
    this.oneOf(t, "modeOfTransport", `${path}.modeOfTransport`, MODES_OF_TRANSPORT, true);
    this.str(t, "carrierServiceCode", `${path}.carrierServiceCode`, { max: 5 });
    for (const k of ["carrierVoyageNumber", "exportVoyageNumber", "importVoyageNumber"])
      this.str(t, k, `${path}.${k}`, { max: 50 });
    this.match(t, "UNLocationCode", `${path}.UNLocationCode`, UN_LOCODE, "a UN/LOCODE");
    this.str(t, "facilityCode", `${path}.facilityCode`, { max: 6 });
    this.oneOf(t, "facilityTypeCode", `${path}.facilityTypeCode`, FACILITY_TYPE_CODES);
    const seq = t.transportCallSequenceNumber;
    if (seq !== undefined && seq !== null && !Number.isInteger(seq))
      this.add(`${path}.transportCallSequenceNumber`, "must be an integer");
    const loc = this.object(t, "location", `${path}.location`);
    if (loc) this.location(loc, `${path}.location`);
    const vessel = this.object(t, "vessel", `${path}.vessel`);
    if (vessel) {
      this.match(vessel, "vesselIMONumber", `${path}.vessel.vesselIMONumber`, /^\d{7}$/, "7 digits", true);
      this.str(vessel, "vesselName", `${path}.vessel.vesselName`, { max: 35 });
    }
  }

  documentReferences(o: Obj, path: string) {
    this.array(o, "documentReferences", path).forEach((d, i) => {
      this.oneOf(
        d,
        "documentReferenceType",
        `${path}[${i}].documentReferenceType`,
        DOCUMENT_REFERENCE_TYPES,
        true,
      );
      this.str(d, "documentReferenceValue", `${path}[${i}].documentReferenceValue`, { required: true });
    });
  }

  references(o: Obj) {
    this.array(o, "references", "references").forEach((r, i) => {
      this.oneOf(r, "referenceType", `references[${i}].referenceType`, REFERENCE_TYPES, true);
      this.str(r, "referenceValue", `references[${i}].referenceValue`, { required: true, max: 100 });
    });
  }

  dateTime(o: Obj, key: string, now: number | null): number | null {
    const v = this.match(o, key, key, DATE_TIME, "an RFC 3339 date-time", true);
    if (v === null) return null;
    const t = Date.parse(v);
    if (Number.isNaN(t)) {
      this.add(key, `"${v}" is not a real instant`);
      return null;
    }
    if (now !== null && key === "eventCreatedDateTime") {
      if (t < EARLIEST_CREATED) this.add(key, `${v} is implausibly early`);
      if (t > now + FUTURE_SKEW_MS) this.add(key, `${v} is in the future`);
    }
    return t;
  }
}

function checkEvent(e: Obj, c: Checker, now: number | null) {
  c.match(e, "eventID", "eventID", UUID, "a uuid", true);
  c.dateTime(e, "eventCreatedDateTime", now);
  c.dateTime(e, "eventDateTime", null);
  c.oneOf(e, "eventClassifierCode", "eventClassifierCode", CLASSIFIERS, true);
  c.references(e);
  const type = c.str(e, "eventType", "eventType", { required: true });
  switch (type) {
    case "TRANSPORT": {
      c.oneOf(e, "transportEventTypeCode", "transportEventTypeCode", TRANSPORT_EVENT_CODES, true);
      c.str(e, "delayReasonCode", "delayReasonCode", { max: 3 });
      c.str(e, "changeRemark", "changeRemark", { max: 250 });
      c.str(e, "vesselScheduleChangeRemark", "vesselScheduleChangeRemark", { max: 250 });
      const tc = c.object(e, "transportCall", "transportCall", true);
      if (tc) c.transportCall(tc, "transportCall");
      c.documentReferences(e, "documentReferences");
      break;
    }
    case "EQUIPMENT": {
      c.oneOf(e, "equipmentEventTypeCode", "equipmentEventTypeCode", EQUIPMENT_EVENT_CODES, true);
      c.oneOf(e, "emptyIndicatorCode", "emptyIndicatorCode", EMPTY_INDICATORS, true);
      c.str(e, "equipmentReference", "equipmentReference", { max: 15 });
      c.str(e, "ISOEquipmentCode", "ISOEquipmentCode", { max: 4 });
      const loc = c.object(e, "eventLocation", "eventLocation");
      if (loc) c.location(loc, "eventLocation");
      const tc = c.object(e, "transportCall", "transportCall");
      if (tc) c.transportCall(tc, "transportCall");
      c.documentReferences(e, "documentReferences");
      break;
    }
    case "SHIPMENT":
      c.oneOf(e, "shipmentEventTypeCode", "shipmentEventTypeCode", SHIPMENT_EVENT_CODES, true);
      c.str(e, "documentID", "documentID", { required: true });
      c.oneOf(e, "documentTypeCode", "documentTypeCode", DOCUMENT_TYPE_CODES, true);
      break;
    case null:
      break;
    default:
      c.oneOf(e, "eventType", "eventType", EVENT_TYPES);
  }
}

/**
 * Validates a whole response body. `now` bounds eventCreatedDateTime (not from the future, not
 * before 2000); pass null to skip that plausibility check. `seen` carries eventIDs across pages.
 */
export function validateEvents(
  body: unknown,
  opts: { now?: number | null; seen?: Set<string> } = {},
): ValidationResult {
  if (!Array.isArray(body)) return { ok: false, issues: ["body: must be a JSON array of events"] };
  const now = opts.now === undefined ? Date.now() : opts.now;
  const seen = opts.seen ?? new Set<string>();
  const issues: string[] = [];
  body.forEach((e, i) => {
    if (!isObj(e)) {
      issues.push(`event[${i}]: must be an object`);
      return;
    }
    const c = new Checker(`event[${i}]`);
    checkEvent(e, c, now);
    const id = e.eventID;
    if (typeof id === "string" && UUID.test(id)) {
      const key = id.toLowerCase();
      if (seen.has(key)) c.issues.push(`event[${i}].eventID: duplicate ${id}`);
      seen.add(key);
    }
    issues.push(...c.issues);
  });
  return issues.length ? { ok: false, issues } : { ok: true, events: body as DcsaEvent[] };
}
