/**
 * A tracking client written against the vendor's documented v3 API (docs.searates.com, as compiled
 * in ../shared/reference/compat-vendor-v3.md), the way an integration would: its own base URL and
 * key, every field the vendor's real responses carry read with its documented type, ids resolved
 * against locations, facilities and vessels, and messages classified as the vendor lists them.
 * Nothing here knows about Portolan; migrating is changing `baseUrl` and `apiKey`.
 */

export interface VendorClientConfig {
  /** The vendor's host is https://tracking.searates.com. */
  baseUrl: string;
  apiKey: string;
}

export type TrackingErrorKind = "auth" | "rate_limit" | "not_found" | "no_data" | "other";

export class TrackingError extends Error {
  constructor(
    readonly kind: TrackingErrorKind,
    readonly code: string,
    readonly httpStatus: number,
  ) {
    super(`${kind}: ${code} (HTTP ${httpStatus})`);
  }
}

/** A response that does not have the documented shape. */
export class ShapeError extends Error {}

/** Message classes as the vendor's clients sort them (response-statuses page). */
const CLASSES: Record<string, TrackingErrorKind> = {
  API_KEY_WRONG: "auth",
  API_KEY_ACCESS_DENIED: "auth",
  API_KEY_EXPIRED: "auth",
  API_KEY_LIMIT_REACHED: "rate_limit",
  API_KEY_RATE_LIMIT: "rate_limit",
  WRONG_NUMBER: "not_found",
  WRONG_SEALINE: "not_found",
  NO_TRACKING_INFO: "no_data",
};

type J = Record<string, unknown>;

// ---- typed readers: each throws ShapeError naming the path -------------------------------------

function obj(v: unknown, path: string): J {
  if (v === null || typeof v !== "object" || Array.isArray(v)) throw new ShapeError(`${path}: not an object`);
  return v as J;
}
function arr(v: unknown, path: string): unknown[] {
  if (!Array.isArray(v)) throw new ShapeError(`${path}: not an array`);
  return v;
}
function str(o: J, k: string, path: string): string {
  if (typeof o[k] !== "string") throw new ShapeError(`${path}.${k}: not a string`);
  return o[k] as string;
}
function num(o: J, k: string, path: string): number {
  if (typeof o[k] !== "number") throw new ShapeError(`${path}.${k}: not a number`);
  return o[k] as number;
}
function bool(o: J, k: string, path: string): boolean {
  if (typeof o[k] !== "boolean") throw new ShapeError(`${path}.${k}: not a boolean`);
  return o[k] as boolean;
}
function opt<T>(o: J, k: string, path: string, read: (o: J, k: string, path: string) => T): T | null {
  if (!(k in o)) throw new ShapeError(`${path}.${k}: missing`);
  return o[k] === null ? null : read(o, k, path);
}
const DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
function date(o: J, k: string, path: string): string {
  const s = str(o, k, path);
  if (!DATE.test(s)) throw new ShapeError(`${path}.${k}: not YYYY-MM-DD HH:MM:SS`);
  return s;
}

// ---- the documented model ----------------------------------------------------------------------

export interface Quota {
  total: number | null;
  used: number;
  remaining: number | null;
}
export interface Place {
  name: string;
  state: string | null;
  country: string;
  countryCode: string;
  locode: string | null;
  lat: number;
  lng: number;
  timezone: string;
}
export interface Vessel {
  name: string;
  imo: number | null;
  callSign: string | null;
  mmsi: number | null;
  flag: string | null;
}
export interface TrackingEvent {
  order: number;
  place: Place | null;
  facility: string | null;
  description: string;
  eventType: string;
  eventCode: string;
  status: string;
  date: string;
  actual: boolean;
  fromSealine: boolean;
  additional: boolean;
  mode: string;
  transportType: string | null;
  vessel: Vessel | null;
  voyage: string | null;
}
export interface RoutePoint {
  place: Place | null;
  date: string | null;
  actual: boolean | null;
}
export interface Shipment {
  type: string;
  number: string;
  sealine: string;
  sealineName: string;
  status: string;
  statusFromSealine: boolean;
  fromCache: boolean;
  updatedAt: string | null;
  cacheExpires: string | null;
  apiCalls: Quota;
  uniqueShipments: Quota;
  message: string;
  places: Place[];
  facilities: Array<{
    name: string;
    countryCode: string | null;
    locode: string | null;
    bic: string | null;
    smdg: string | null;
    lat: number | null;
    lng: number | null;
  }>;
  route: {
    prepol: RoutePoint;
    pol: RoutePoint;
    pod: RoutePoint & { predictiveEta: string | null };
    postpod: RoutePoint;
  };
  vessels: Vessel[];
  containers: Array<{
    number: string;
    isoCode: string;
    sizeType: string;
    status: string;
    statusFromSealine: boolean;
    eventsMirrored: boolean;
    events: TrackingEvent[];
  }>;
  map: {
    legs: Array<{
      path: Array<[number, number]>;
      type: string;
      transportType: string;
      from: Place;
      to: Place;
      vessel: Vessel | null;
    }>;
    pin: [number, number] | null;
    /** route_data.ais.status (OK, NOT_ON_BOARD); null when the answer has no ais block. */
    aisStatus: string | null;
    ais: {
      status: string;
      vessel: Vessel;
      position: { lat: number; lng: number; updatedAt: string };
      lastEvent: { description: string; date: string; voyage: string };
      dischargePort: { name: string; countryCode: string; code: string; date: string; label: string } | null;
      departurePort: { countryCode: string; code: string; date: string; label: string } | null;
      arrivalPort: { countryCode: string; code: string; date: string; label: string } | null;
      updatedAt: string;
    } | null;
  } | null;
}

function quota(v: unknown, path: string): Quota {
  const o = obj(v, path);
  return {
    total: opt(o, "total", path, num),
    used: num(o, "used", path),
    remaining: opt(o, "remaining", path, num),
  };
}

function place(v: unknown, path: string): Place {
  const o = obj(v, path);
  return {
    name: str(o, "name", path),
    state: opt(o, "state", path, str),
    country: str(o, "country", path),
    countryCode: str(o, "country_code", path),
    locode: opt(o, "locode", path, str),
    lat: num(o, "lat", path),
    lng: num(o, "lng", path),
    timezone: str(o, "timezone", path),
  };
}

function vessel(v: unknown, path: string): Vessel {
  const o = obj(v, path);
  return {
    name: str(o, "name", path),
    imo: opt(o, "imo", path, num),
    callSign: opt(o, "call_sign", path, str),
    mmsi: opt(o, "mmsi", path, num),
    flag: opt(o, "flag", path, str),
  };
}

function latLng(v: unknown, path: string): [number, number] {
  const a = arr(v, path);
  if (a.length !== 2 || typeof a[0] !== "number" || typeof a[1] !== "number") {
    throw new ShapeError(`${path}: not [lat, lng]`);
  }
  return [a[0], a[1]];
}

/** Reads a success envelope's data into the model; throws ShapeError on any documented field gone wrong. */
export function readShipment(data: J, message: string): Shipment {
  const m = obj(data.metadata, "metadata");
  const byId = <T>(list: unknown, path: string, read: (o: J, p: string) => T) => {
    const map = new Map<number, T>();
    arr(list, path).forEach((item, i) => {
      const o = obj(item, `${path}[${i}]`);
      map.set(num(o, "id", `${path}[${i}]`), read(o, `${path}[${i}]`));
    });
    return map;
  };
  const places = byId(data.locations, "locations", place);
  const facilities = byId(data.facilities, "facilities", (o, p) => ({
    name: str(o, "name", p),
    countryCode: opt(o, "country_code", p, str),
    locode: opt(o, "locode", p, str),
    bic: opt(o, "bic_code", p, str),
    smdg: opt(o, "smdg_code", p, str),
    lat: opt(o, "lat", p, num),
    lng: opt(o, "lng", p, num),
  }));
  const vessels = byId(data.vessels, "vessels", vessel);
  const ref = <T>(map: Map<number, T>, o: J, k: string, path: string): T | null => {
    const id = opt(o, k, path, num);
    if (id === null) return null;
    const found = map.get(id);
    if (!found) throw new ShapeError(`${path}.${k}: id ${id} is not in the list`);
    return found;
  };
  const routeObj = obj(data.route, "route");
  const point = (k: string): RoutePoint => {
    const o = obj(routeObj[k], `route.${k}`);
    return {
      place: ref(places, o, "location", `route.${k}`),
      date: opt(o, "date", `route.${k}`, date),
      actual: opt(o, "actual", `route.${k}`, bool),
    };
  };
  const pod = obj(routeObj.pod, "route.pod");
  const rd = data.route_data === null ? null : obj(data.route_data, "route_data");
  let map: Shipment["map"] = null;
  if (rd) {
    const aisObj = "ais" in rd ? obj(rd.ais, "route_data.ais") : null;
    const aisData = aisObj && aisObj.data !== null ? obj(aisObj.data, "ais.data") : null;
    const port = (v: unknown, p: string) => {
      if (v === null) return null;
      const o = obj(v, p);
      return {
        countryCode: str(o, "country_code", p),
        code: str(o, "code", p),
        date: date(o, "date", p),
        label: str(o, "date_label", p),
      };
    };
    map = {
      legs: arr(rd.route, "route_data.route").map((leg, i) => {
        const p = `route_data.route[${i}]`;
        const o = obj(leg, p);
        return {
          path: arr(o.path, `${p}.path`).map((x, j) => latLng(x, `${p}.path[${j}]`)),
          type: str(o, "type", p),
          transportType: str(o, "transport_type", p),
          from: place(o.from, `${p}.from`),
          to: place(o.to, `${p}.to`),
          vessel: o.vessel === null ? null : vessel(o.vessel, `${p}.vessel`),
        };
      }),
      pin: rd.pin === null ? null : latLng(rd.pin, "route_data.pin"),
      aisStatus: aisObj ? str(aisObj, "status", "route_data.ais") : null,
      ais:
        aisObj && aisData
          ? {
              status: str(aisObj, "status", "ais"),
              vessel: vessel(aisData.vessel, "ais.data.vessel"),
              position: (() => {
                const o = obj(aisData.last_vessel_position, "ais.data.last_vessel_position");
                const p = "ais.data.last_vessel_position";
                return { lat: num(o, "lat", p), lng: num(o, "lng", p), updatedAt: date(o, "updated_at", p) };
              })(),
              lastEvent: (() => {
                const o = obj(aisData.last_event, "ais.data.last_event");
                const p = "ais.data.last_event";
                return {
                  description: str(o, "description", p),
                  date: date(o, "date", p),
                  voyage: str(o, "voyage", p),
                };
              })(),
              dischargePort:
                aisData.discharge_port === null
                  ? null
                  : {
                      ...port(aisData.discharge_port, "ais.data.discharge_port")!,
                      name: str(
                        obj(aisData.discharge_port, "ais.data.discharge_port"),
                        "name",
                        "ais.data.discharge_port",
                      ),
                    },
              departurePort: port(aisData.departure_port, "ais.data.departure_port"),
              arrivalPort: port(aisData.arrival_port, "ais.data.arrival_port"),
              updatedAt: date(aisData, "updated_at", "ais.data"),
            }
          : null,
    };
  }
  return {
    type: str(m, "type", "metadata"),
    number: str(m, "number", "metadata"),
    sealine: str(m, "sealine", "metadata"),
    sealineName: str(m, "sealine_name", "metadata"),
    status: str(m, "status", "metadata"),
    statusFromSealine: bool(m, "is_status_from_sealine", "metadata"),
    fromCache: bool(m, "from_cache", "metadata"),
    updatedAt: opt(m, "updated_at", "metadata", date),
    cacheExpires: opt(m, "cache_expires", "metadata", date),
    apiCalls: quota(m.api_calls, "metadata.api_calls"),
    uniqueShipments: quota(m.unique_shipments, "metadata.unique_shipments"),
    message,
    places: [...places.values()],
    facilities: [...facilities.values()],
    route: {
      prepol: point("prepol"),
      pol: point("pol"),
      pod: { ...point("pod"), predictiveEta: opt(pod, "predictive_eta", "route.pod", date) },
      postpod: point("postpod"),
    },
    vessels: [...vessels.values()],
    containers: arr(data.containers, "containers").map((c, i) => {
      const p = `containers[${i}]`;
      const o = obj(c, p);
      return {
        number: str(o, "number", p),
        isoCode: str(o, "iso_code", p),
        sizeType: str(o, "size_type", p),
        status: str(o, "status", p),
        statusFromSealine: bool(o, "is_status_from_sealine", p),
        eventsMirrored: bool(o, "events_mirrored", p),
        events: arr(o.events, `${p}.events`).map((e, j) => {
          const q = `${p}.events[${j}]`;
          const ev = obj(e, q);
          return {
            order: num(ev, "order_id", q),
            place: ref(places, ev, "location", q),
            facility: ref(facilities, ev, "facility", q)?.name ?? null,
            description: str(ev, "description", q),
            eventType: str(ev, "event_type", q),
            eventCode: str(ev, "event_code", q),
            status: str(ev, "status", q),
            date: date(ev, "date", q),
            actual: bool(ev, "actual", q),
            fromSealine: bool(ev, "is_date_from_sealine", q),
            additional: bool(ev, "is_additional_event", q),
            mode: str(ev, "type", q),
            transportType: opt(ev, "transport_type", q, str),
            vessel: ref(vessels, ev, "vessel", q),
            voyage: opt(ev, "voyage", q, str),
          };
        }),
      };
    }),
    map,
  };
}

export interface TrackOptions {
  type?: "CT" | "BL" | "BK";
  sealine?: string;
  route?: boolean;
  ais?: boolean;
  forceUpdate?: boolean;
}

export class TrackingClient {
  constructor(private readonly config: VendorClientConfig) {}

  async track(number: string, opts: TrackOptions = {}): Promise<Shipment> {
    const url = new URL(`${this.config.baseUrl.replace(/\/+$/, "")}/tracking`);
    url.searchParams.set("api_key", this.config.apiKey);
    url.searchParams.set("number", number);
    url.searchParams.set("sealine", opts.sealine ?? "auto");
    if (opts.type) url.searchParams.set("type", opts.type);
    if (opts.route) url.searchParams.set("route", "true");
    if (opts.ais) url.searchParams.set("ais", "true");
    if (opts.forceUpdate) url.searchParams.set("force_update", "true");
    const res = await fetch(url);
    const body = obj(await res.json(), "body");
    const status = str(body, "status", "body");
    const message = str(body, "message", "body");
    if (status !== "success") throw new TrackingError(CLASSES[message] ?? "other", message, res.status);
    const shipment = readShipment(obj(body.data, "data"), message);
    // The ITBukitMega integration reads this unguarded.
    if (typeof shipment.number !== "string") throw new ShapeError("metadata.number");
    // The Celery integration reads data.route_data.ais.status unguarded whenever it sent ais=true.
    if (opts.ais && typeof shipment.map?.aisStatus !== "string")
      throw new ShapeError("route_data.ais.status");
    return shipment;
  }
}
