/**
 * The vendor's v3 tracking shapes (../shared/reference/compat-vendor-v3.md), as this surface emits
 * them. Field order follows the vendor's real payloads so a byte-level diff reads naturally.
 */
import type { PathPoint } from "../../common/geo.ts";

export type Kind = "CT" | "BL" | "BK";

/** "YYYY-MM-DD HH:MM:SS": the vendor's date format (UTC in metadata, port-local on events). */
export type VendorDate = string;

export interface Counter {
  total: number | null;
  used: number;
  remaining: number | null;
}

export interface Metadata {
  type: Kind;
  number: string;
  sealine: string;
  sealine_name: string;
  status: ShipmentStatus;
  is_status_from_sealine: false;
  from_cache: false;
  updated_at: VendorDate | null;
  cache_expires: VendorDate | null;
  api_calls: Counter;
  unique_shipments: Counter;
}

/** A place as the vendor shows it in locations[] (with id) and on route legs (without). */
export interface Place {
  name: string;
  state: string | null;
  country: string | null;
  country_code: string | null;
  locode: string | null;
  lat: number | null;
  lng: number | null;
  timezone: string | null;
}

export interface Location extends Place {
  id: number;
}

export interface Facility {
  id: number;
  name: string;
  country_code: string | null;
  locode: string | null;
  bic_code: string | null;
  smdg_code: string | null;
  lat: number | null;
  lng: number | null;
}

export interface RoutePoint {
  location: number | null;
  date: VendorDate | null;
  actual: boolean | null;
}

export interface Route {
  prepol: RoutePoint;
  pol: RoutePoint;
  pod: RoutePoint & { predictive_eta: VendorDate | null };
  postpod: RoutePoint;
}

export interface VesselFields {
  name: string;
  imo: number | null;
  call_sign: string | null;
  mmsi: number | null;
  flag: string | null;
}

export interface Vessel extends VesselFields {
  id: number;
}

/** The 19-entry milestone dictionary shared by the vendor and its white-labels. */
export type EventStatus =
  | "UNK"
  | "LTS"
  | "BTS"
  | "CEP"
  | "CPS"
  | "CGI"
  | "CLL"
  | "VDL"
  | "VAT"
  | "CDT"
  | "TSD"
  | "CLT"
  | "VDT"
  | "VAD"
  | "CDD"
  | "CGO"
  | "CDC"
  | "CER";

export type ShipmentStatus = "PLANNED" | "IN_TRANSIT" | "DELIVERED" | "UNKNOWN";

export type TransportType = "VESSEL" | "BARGE" | "RAIL" | "TRUCK";

export interface Event {
  order_id: number;
  location: number | null;
  facility: number | null;
  description: string;
  event_type: "EQUIPMENT" | "TRANSPORT" | "SHIPMENT";
  event_code: string;
  status: EventStatus;
  date: VendorDate;
  actual: boolean;
  is_date_from_sealine: boolean;
  is_additional_event: boolean;
  type: "land" | "sea";
  transport_type: TransportType | null;
  vessel: number | null;
  voyage: string | null;
}

export interface Container {
  number: string;
  iso_code: string | null;
  size_type: string | null;
  status: ShipmentStatus;
  is_status_from_sealine: false;
  events_mirrored: false;
  events: Event[];
}

export interface Leg {
  path: PathPoint[];
  type: "SEA" | "LAND";
  transport_type: TransportType | null;
  from: Place;
  to: Place;
  vessel: VesselFields | null;
}

export interface PortCall {
  country_code: string | null;
  code: string | null;
  date: VendorDate | null;
  date_label: "ETA" | "ATA" | "ETD" | "ATD";
}

export interface Ais {
  status: "OK" | "NOT_ON_BOARD";
  data: {
    last_event: { description: string; date: VendorDate; voyage: string | null };
    discharge_port: (PortCall & { name: string }) | null;
    vessel: VesselFields;
    last_vessel_position: { lat: number; lng: number; updated_at: VendorDate };
    departure_port: PortCall | null;
    arrival_port: PortCall | null;
    updated_at: VendorDate;
  } | null;
}

export interface RouteData {
  route: Leg[];
  pin: PathPoint | null;
  ais?: Ais;
}

/** data: exactly these seven keys (spec, Versioning 3). */
export interface Data {
  metadata: Metadata;
  locations: Location[];
  facilities: Facility[];
  route: Route;
  vessels: Vessel[];
  containers: Container[];
  route_data: RouteData | null;
}
