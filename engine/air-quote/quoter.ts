/**
 * The air-freight quote of POST {air_url}/rates/quote: resolves both airports, picks the lane's
 * region-pair rate, the quoting airline and the fuel tier, prices the shipment (price.ts) and renders
 * the spec's fields plus the documented extras. Every answer is INDICATIVE (the rate card is a
 * model, not a tariff) and says so. docs/air-cargo.md, Quote.
 */

import { haversineM } from "../../common/geo.ts";
import { round } from "../../common/round.ts";
import { EngineError } from "../errors.ts";
import type { LocationIndex } from "../locations/index.ts";
import { AIRLINE_HUBS, AirlineChooser, type CandidateAirline } from "./airline.ts";
import { AirportResolver, type QuoteAirport, type RankedAirport } from "./airports.ts";
import { chargeableWeight, laneRate, price } from "./price.ts";
import type { RateCard } from "./rate-card.ts";
import type { CountryRegions } from "./regions.ts";

export interface QuoteRequest {
  origin: string;
  destination: string;
  weight_kg: number;
  volume_cm3: number;
}

export interface QuoteParts {
  card: RateCard;
  regions: CountryRegions;
  locations: LocationIndex;
  /** Large cargo airports, busiest first. */
  cargoAirports: ReadonlyArray<RankedAirport>;
  /** The AWB prefix table's airlines. */
  airlines: ReadonlyArray<{ prefix: string; iata: string }>;
}

const airportView = (a: QuoteAirport) => ({ iata: a.iata, name: a.name, country_code: a.country_code });

export class AirQuoter {
  readonly card: RateCard;
  private readonly regions: CountryRegions;
  private readonly airports: AirportResolver;
  private readonly chooser: AirlineChooser;

  constructor(parts: QuoteParts) {
    this.card = parts.card;
    this.regions = parts.regions;
    this.airports = new AirportResolver(parts.locations, parts.cargoAirports);
    const candidates: CandidateAirline[] = [];
    for (const a of parts.airlines) {
      const hubCode = AIRLINE_HUBS[a.iata];
      if (!hubCode) continue;
      const hub = this.airports.byIata(hubCode);
      // A hub the index cannot place is a broken table: stop at start, not quote oddly later.
      if (!hub)
        throw new Error(`air quote: hub ${hubCode} of airline ${a.iata} is not an airport in the build`);
      candidates.push({ iata: a.iata, prefix: a.prefix, hub });
    }
    this.chooser = new AirlineChooser(candidates);
  }

  quote(req: QuoteRequest) {
    const origin = this.airports.resolve("origin", req.origin);
    const destination = this.airports.resolve("destination", req.destination);
    if (origin.airport.iata === destination.airport.iata)
      throw new EngineError(
        "invalid_request",
        `origin and destination are the same airport (${origin.airport.iata}): an air quote needs a flight.`,
      );
    const card = this.card;
    const fromRegion = this.regions.regionOf(origin.airport.country_code);
    const toRegion = this.regions.regionOf(destination.airport.country_code);
    const lane = laneRate(card, fromRegion, toRegion);
    const o = origin.airport;
    const d = destination.airport;
    const distanceKm = haversineM(o.lat, o.lng, d.lat, d.lng) / 1000;
    const chargeableKg = chargeableWeight(card, req.weight_kg, req.volume_cm3);
    const p = price(card, { nRate: lane.nRate, distanceKm, chargeableKg });
    const airline = this.chooser.choose(o, d);
    return {
      origin: origin.code,
      destination: destination.code,
      chargeable_weight_kg: p.chargeableKg,
      net_per_kg: p.netPerKg,
      surcharge_per_kg: p.surchargePerKg,
      total_charge: p.totalCharge,
      currency: card.currency,
      airline_iata: airline.iata,
      // Extras (docs/air-cargo.md): what priced it, and how.
      indicative: true,
      rate_card: { id: card.id, note: card.note },
      origin_airport: airportView(o),
      destination_airport: airportView(d),
      airline_rule: airline.rule,
      lane: {
        rate_key: lane.key,
        origin_region: fromRegion,
        destination_region: toRegion,
        n_rate_per_kg: lane.nRate,
        great_circle_km: round(distanceKm, 1),
      },
      breakdown: {
        weight_break: p.weightBreak,
        rate_per_kg: p.ratePerKg,
        rated_weight_kg: p.ratedWeightKg,
        minimum_charge: p.minimumCharge,
        weight_charge: p.weightCharge,
        fuel_per_kg: p.fuelPerKg,
        fuel_surcharge: p.fuelSurcharge,
        security_per_kg: p.securityPerKg,
        security_surcharge: p.securitySurcharge,
      },
      other_charges: {
        awb_fee: p.other.awbFee,
        screening: p.other.screening,
        total: p.other.total,
        in_total_charge: false,
      },
    };
  }
}

export type Quote = ReturnType<AirQuoter["quote"]>;
