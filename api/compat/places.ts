/**
 * locations[] and facilities[]: every place the answer mentions, deduplicated and numbered from 1
 * so events and route points refer to them by id. Ports come from our location index; terminals,
 * depots and yards go to facilities by name.
 */
import type { ResolvedPoint } from "../../engine/locations/index.ts";
import type { Facility, Location, Place } from "./shapes.ts";

/** The slice of the location index used here (LocationIndex has it). */
export interface PortDirectory {
  port(locode: string): ResolvedPoint | null;
  canonicalLocode(locode: string): string;
}

/**
 * Names that read as a terminal, depot, yard or their operator (the spec's test for a facility).
 * A consignee's warehouse is a delivery address, not a facility.
 */
const FACILITY_WORDS =
  /\b(terminals?|depot|yard|cfs|icd|quay|wharf|pier|berth|dock|container (?:freight )?station|apm|dp ?world|dpw|psa|hutchison|hph|eurogate|hhla|ictsi|ssa marine|trapac|cosco shipping ports|modern terminals|evergreen|total terminals)\b/i;

export const readsAsFacility = (name: string) => FACILITY_WORDS.test(name);

export interface FacilityInput {
  name: string;
  locode: string | null;
  code: string | null;
  /** DCSA facilityCodeListProvider: SMDG or BIC. */
  codeList: string | null;
  lat: number | null;
  lng: number | null;
}

export class PlaceBook {
  readonly locations: Location[] = [];
  readonly facilities: Facility[] = [];
  private readonly byLocode = new Map<string, Location>();
  private readonly byName = new Map<string, Facility>();

  constructor(private readonly ports: PortDirectory) {}

  /** A port as the vendor shows it (no id); null for a code we cannot place. */
  place(locode: string): Place | null {
    const p = this.ports.port(locode);
    if (!p) return null;
    return {
      name: p.name,
      state: null,
      country: p.country,
      country_code: p.country_code,
      locode: p.locode ?? this.ports.canonicalLocode(locode),
      lat: p.lat,
      lng: p.lng,
      timezone: p.timezone,
    };
  }

  /** The locations[] id of a UN/LOCODE (legacy carrier codes fold into the current one). */
  locationId(locode: string | null): number | null {
    if (!locode) return null;
    const code = this.ports.canonicalLocode(locode);
    const known = this.byLocode.get(code);
    if (known) return known.id;
    const place = this.place(code);
    if (!place) return null;
    const location = { id: this.locations.length + 1, ...place };
    this.locations.push(location);
    this.byLocode.set(code, location);
    return location.id;
  }

  /** The facilities[] id of a terminal, depot or yard; null for any other kind of place. */
  facilityId(f: FacilityInput): number | null {
    if (!readsAsFacility(f.name)) return null;
    const key = f.name.trim().toUpperCase();
    const known = this.byName.get(key);
    if (known) return known.id;
    const port = f.locode ? this.place(f.locode) : null;
    const facility: Facility = {
      id: this.facilities.length + 1,
      name: f.name.trim(),
      country_code: port?.country_code ?? f.locode?.slice(0, 2) ?? null,
      locode: port?.locode ?? f.locode,
      bic_code: f.codeList === "BIC" ? f.code : null,
      smdg_code: f.codeList === "BIC" ? null : f.code,
      lat: f.lat,
      lng: f.lng,
    };
    this.facilities.push(facility);
    this.byName.set(key, facility);
    return facility.id;
  }
}
