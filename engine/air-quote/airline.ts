/**
 * Which airline quotes a lane. The candidates are the airlines of the AWB prefix table
 * (air/awb-prefixes.csv: the airlines whose waybills the product tracks); each has a home hub below,
 * and the hub airport's country (from the location index) is the airline's home country. The rule,
 * first match wins, ties to the lowest AWB prefix:
 *   1. an airline whose hub is the origin airport;
 *   2. an airline of the origin's country;
 *   3. an airline whose hub is the destination airport;
 *   4. an airline of the destination's country;
 *   5. the airline whose hub is nearest the origin (great circle).
 * Deterministic, and the exporting side first, as air freight is mostly sold at origin.
 */
import { haversineM } from "../../common/geo.ts";
import type { QuoteAirport } from "./airports.ts";

/**
 * Main (cargo) hub of each airline of the prefix table, by airline IATA code: compiled facts, one
 * airport per airline. An airline missing here is never chosen (test/air-quote checks the table).
 */
export const AIRLINE_HUBS: Readonly<Record<string, string>> = {
  AA: "DFW",
  DL: "ATL",
  AC: "YYZ",
  UA: "ORD",
  LH: "FRA",
  FX: "MEM",
  LA: "SCL",
  TP: "LIS",
  EI: "DUB",
  AZ: "FCO",
  AF: "CDG",
  SV: "JED",
  ET: "ADD",
  GF: "BAH",
  KL: "AMS",
  IB: "MAD",
  MS: "CAI",
  PR: "MNL",
  QF: "SYD",
  SA: "JNB",
  NZ: "AKL",
  AI: "DEL",
  AY: "HEL",
  FI: "KEF",
  CK: "PVG",
  LY: "TLV",
  SK: "CPH",
  DT: "LAD",
  BA: "LHR",
  GA: "CGK",
  MP: "AMS",
  JL: "NRT",
  AM: "MEX",
  AT: "CMN",
  QR: "DOH",
  CX: "HKG",
  CV: "LUX",
  EK: "DXB",
  KE: "ICN",
  NH: "NRT",
  TG: "BKK",
  CM: "PTY",
  MH: "KUL",
  TK: "IST",
  OS: "VIE",
  CI: "TPE",
  "5Y": "CVG",
  PO: "CVG",
  "5X": "SDF",
  RJ: "AMM",
  SU: "SVO",
  RU: "SVO",
  UL: "CMB",
  EY: "AUH",
  QY: "LEJ",
  SQ: "SIN",
  BR: "TPE",
  KQ: "NBO",
  LX: "ZRH",
  VN: "HAN",
  MU: "PVG",
  CZ: "CAN",
  HU: "HAK",
  WY: "MCT",
  VS: "LHR",
  KZ: "NRT",
  OZ: "ICN",
  UX: "MAD",
  CA: "PEK",
};

export interface CandidateAirline {
  iata: string;
  /** AWB prefix: the tie-break. */
  prefix: string;
  hub: QuoteAirport;
}

export type AirlineRule =
  | "origin_hub"
  | "origin_country"
  | "destination_hub"
  | "destination_country"
  | "nearest_hub";

export class AirlineChooser {
  private readonly airlines: CandidateAirline[];

  constructor(airlines: CandidateAirline[]) {
    if (airlines.length === 0) throw new Error("no airline of the AWB prefix table has a known hub");
    this.airlines = [...airlines].sort((a, b) => a.prefix.localeCompare(b.prefix));
  }

  choose(origin: QuoteAirport, destination: QuoteAirport): { iata: string; rule: AirlineRule } {
    const first = (test: (a: CandidateAirline) => boolean) => this.airlines.find(test)?.iata;
    const country = (p: QuoteAirport) => (a: CandidateAirline) =>
      p.country_code !== null && a.hub.country_code === p.country_code;
    const rules: Array<[AirlineRule, string | undefined]> = [
      ["origin_hub", first((a) => a.hub.iata === origin.iata)],
      ["origin_country", first(country(origin))],
      ["destination_hub", first((a) => a.hub.iata === destination.iata)],
      ["destination_country", first(country(destination))],
    ];
    for (const [rule, iata] of rules) if (iata) return { iata, rule };
    const dist = (a: CandidateAirline) => haversineM(origin.lat, origin.lng, a.hub.lat, a.hub.lng);
    // Sorted by prefix and a strict "<": equal distances keep the lower prefix.
    const nearest = this.airlines.reduce((best, a) => (dist(a) < dist(best) ? a : best));
    return { iata: nearest.iata, rule: "nearest_hub" };
  }
}
