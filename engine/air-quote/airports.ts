/**
 * Quote ends: an airport IATA code, or the UN/LOCODE of the airport's city, resolved over the
 * location index the distance product already loads (engine/services.ts) and the ranked large
 * cargo airports (cargo-airports.bin, the air planner's list). docs/air-cargo.md, Quote.
 */
import { haversineM } from "../../common/geo.ts";
import { EngineError } from "../errors.ts";
import type { LocationIndex } from "../locations/index.ts";

/** A city's airport lies within this distance of the UN/LOCODE position. */
export const CITY_AIRPORT_MAX_KM = 100;

export interface QuoteAirport {
  iata: string;
  name: string;
  country_code: string | null;
  lat: number;
  lng: number;
}

export interface RankedAirport {
  iata: string;
  country_code: string;
  lat: number;
  lng: number;
}

const IATA_RE = /^[A-Z]{3}$/;
const LOCODE_RE = /^([A-Z]{2}) ?([A-Z2-9]{3})$/;

const km = (a: { lat: number; lng: number }, b: { lat: number; lng: number }) =>
  haversineM(a.lat, a.lng, b.lat, b.lng) / 1000;

export class AirportResolver {
  constructor(
    private readonly locations: LocationIndex,
    /** Large cargo airports, busiest first (large-cargo-airports.csv order). */
    private readonly cargo: ReadonlyArray<RankedAirport>,
  ) {}

  /** The airport with this IATA code, or null. */
  byIata(iata: string): QuoteAirport | null {
    let p: ReturnType<LocationIndex["resolve"]>;
    try {
      p = this.locations.resolve(iata);
    } catch (err) {
      if (err instanceof EngineError) return null;
      throw err;
    }
    // A 3-letter code that is no airport falls through to place names ("LON" is Long Beach): refuse.
    if (p.kind !== "airport" || p.iata !== iata) return null;
    return { iata, name: p.name, country_code: p.country_code, lat: p.lat, lng: p.lng };
  }

  /**
   * Resolves a body field: IATA (any case) or a city UN/LOCODE ("DEFRA", "GB LON"). The answer's
   * code is the input normalised (upper case, no space). A malformed code is invalid_request; a
   * well-formed one naming nothing is not_found.
   */
  resolve(field: string, raw: string): { code: string; airport: QuoteAirport } {
    const text = raw.trim().toUpperCase();
    if (IATA_RE.test(text)) {
      const airport = this.byIata(text);
      if (!airport) throw new EngineError("not_found", `${field}: no airport has the IATA code ${text}.`);
      return { code: text, airport };
    }
    const m = LOCODE_RE.exec(text);
    if (!m)
      throw new EngineError(
        "invalid_request",
        `${field} must be an airport IATA code (3 letters, e.g. FRA) or the UN/LOCODE of the airport's city (5 characters, e.g. DEFRA); got ${JSON.stringify(raw.slice(0, 40))}.`,
      );
    const code = `${m[1]}${m[2]}`;
    return { code, airport: this.cityAirport(field, code) };
  }

  /**
   * A city's airport: the airport whose IATA code is the UN/LOCODE's last three letters (UN/LOCODE
   * reuses the IATA code where one exists: DEFRA, DEHAM), if it is in that country within 100 km;
   * else the busiest large cargo airport of that country within 100 km (GBLON -> LHR, JPTYO -> NRT:
   * LON and TYO are city codes, not airports).
   */
  private cityAirport(field: string, locode: string): QuoteAirport {
    const city = this.locations.port(locode);
    if (!city) throw new EngineError("not_found", `${field}: no place has the UN/LOCODE ${locode}.`);
    const near = (a: { country_code: string | null; lat: number; lng: number }) =>
      a.country_code === city.country_code && km(a, city) <= CITY_AIRPORT_MAX_KM;
    const named = this.byIata(locode.slice(2));
    if (named && near(named)) return named;
    const cargo = this.cargo.find(near);
    const airport = cargo ? this.byIata(cargo.iata) : null;
    if (!airport)
      throw new EngineError(
        "not_found",
        `${field}: ${locode} (${city.name}) has no airport ${locode.slice(2)} of its own and no large cargo airport within ${CITY_AIRPORT_MAX_KM} km; send the airport's IATA code.`,
      );
    return airport;
  }
}
