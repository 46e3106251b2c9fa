/**
 * The built-in INDICATIVE rate set: not a tariff, a documented cost model that prices any lane the
 * distance engine can route, so a fresh install answers something. Ocean, road and rail are built
 * as a one-line sheet per query (distance x a per-unit cost, plus handling) and priced by the same
 * code as imported sheets; air is the air-cargo product's indicative quote (its rate card, mapped
 * to charges here). docs/rates.md, "Indicative cost model".
 */
import type { Quote } from "../air-quote/quoter.ts";
import { type Charge, money, type PricedLine } from "./price.ts";
import type { ContainerType, RateLine, RateMode, RateSurcharge } from "./sheet.ts";

export const INDICATIVE_CURRENCY = "USD";

/**
 * The model's figures (USD). Ocean: a 40' costs 1.7 to 1.75 TEU-equivalents to carry and a reefer
 * more (power, slot); THC each end per container. LCL: per revenue ton and nautical mile, at least
 * one w/m, container freight station charges each end. Road: per full truck and km, plus loading
 * and unloading. Rail: per container or wagon and km, plus a terminal lift each end.
 */
export const INDICATIVE_MODEL = {
  ocean: {
    /** Sailing speed for the sea planner's transit time (knots). */
    speedKnots: 14,
    freightPerTeuNm: 0.08,
    bafPerTeuNm: 0.03,
    teu: { "20GP": 1, "40GP": 1.7, "40HC": 1.75, "45HC": 2, "20RF": 1.8, "40RH": 2.9 } satisfies Record<
      ContainerType,
      number
    >,
    /** Terminal handling per container, charged at origin (THC_O) and at destination (THC_D). */
    thc: { "20GP": 180, "40GP": 260, "40HC": 260, "45HC": 290, "20RF": 250, "40RH": 360 } satisfies Record<
      ContainerType,
      number
    >,
  },
  lcl: { freightPerWmNm: 0.0045, minimumWm: 1, cfsOriginPerWm: 20, cfsDestinationPerWm: 25 },
  road: { perTruckKm: 1.65, handlingPerTruck: 120 },
  rail: { perUnitKm: 0.75, terminalPerUnit: 90 },
} as const;

/** What the distance engine found for the lane (nautical miles for ocean, km otherwise). */
export interface EngineLeg {
  km: number;
  nm: number;
  days: number;
}

/** The one-line sheets of the model for a lane: a line per container type (FCL), else one line. */
export function indicativeSheet(
  mode: Exclude<RateMode, "AIR">,
  origin: string,
  destination: string,
  leg: EngineLeg,
): { lines: RateLine[]; surcharges: RateSurcharge[] } {
  const line = (
    equipment: string | null,
    basis: RateLine["basis"],
    rate: number,
    extra: Partial<RateLine> = {},
  ) => ({
    origin,
    destination,
    equipment,
    basis,
    rate: money(rate),
    minimum: null,
    breaks: null,
    transitDays: null,
    distanceKm: null,
    ...extra,
  });
  const charge = (
    code: string,
    basis: RateSurcharge["basis"],
    amount: number,
    equipment: string | null = null,
  ): RateSurcharge => ({
    code,
    basis,
    amount: money(amount),
    equipment,
    origin: null,
    destination: null,
    validFrom: null,
    validTo: null,
  });
  switch (mode) {
    case "OCEAN_FCL": {
      const m = INDICATIVE_MODEL.ocean;
      const types = Object.keys(m.teu) as ContainerType[];
      return {
        lines: types.map((t) => line(t, "per_container", m.freightPerTeuNm * m.teu[t] * leg.nm)),
        surcharges: types.flatMap((t) => [
          charge("BAF", "per_container", m.bafPerTeuNm * m.teu[t] * leg.nm, t),
          charge("THC_O", "per_container", m.thc[t], t),
          charge("THC_D", "per_container", m.thc[t], t),
        ]),
      };
    }
    case "OCEAN_LCL": {
      const m = INDICATIVE_MODEL.lcl;
      const rate = m.freightPerWmNm * leg.nm;
      return {
        lines: [line(null, "per_wm", rate, { minimum: money(rate * m.minimumWm) })],
        surcharges: [
          charge("CFS_O", "per_wm", m.cfsOriginPerWm),
          charge("CFS_D", "per_wm", m.cfsDestinationPerWm),
        ],
      };
    }
    case "ROAD": {
      const m = INDICATIVE_MODEL.road;
      return {
        lines: [line(null, "per_km", m.perTruckKm, { distanceKm: leg.km })],
        surcharges: [charge("HANDLING", "per_container", m.handlingPerTruck)],
      };
    }
    case "RAIL": {
      const m = INDICATIVE_MODEL.rail;
      return {
        lines: [line(null, "per_km", m.perUnitKm, { distanceKm: leg.km })],
        surcharges: [
          charge("THC_O", "per_container", m.terminalPerUnit),
          charge("THC_D", "per_container", m.terminalPerUnit),
        ],
      };
    }
  }
}

/**
 * The air-cargo indicative quote as charges: weight charge, fuel, security (at least the card's
 * minimum per AWB), and the AWB fee and screening the quote lists apart (here in the total).
 */
export function airQuoteCharges(q: Quote, screeningPerKg: number): PricedLine {
  const b = q.breakdown;
  const kg = q.chargeable_weight_kg;
  const base: Charge =
    b.weight_break === "MIN"
      ? {
          code: "BASE",
          basis: "minimum",
          weight_break: "min",
          rate: b.minimum_charge,
          quantity: 1,
          amount: b.weight_charge,
        }
      : {
          code: "BASE",
          basis: "weight_break",
          weight_break: b.weight_break,
          rate: b.rate_per_kg!,
          quantity: b.rated_weight_kg!,
          amount: b.weight_charge,
        };
  const others: Charge[] = [
    { code: "FUEL", basis: "per_kg", rate: b.fuel_per_kg, quantity: kg, amount: b.fuel_surcharge },
    {
      code: "SECURITY",
      basis: "per_kg",
      rate: b.security_per_kg,
      quantity: kg,
      amount: b.security_surcharge,
    },
    {
      code: "AWB",
      basis: "per_shipment",
      rate: q.other_charges.awb_fee,
      quantity: 1,
      amount: q.other_charges.awb_fee,
    },
    {
      code: "SCREENING",
      basis: "per_kg",
      rate: screeningPerKg,
      quantity: kg,
      amount: q.other_charges.screening,
    },
  ];
  const extra = money(others.reduce((s, c) => s + c.amount, 0));
  return {
    charges: [base, ...others],
    base: base.amount,
    surcharges: extra,
    total: money(base.amount + extra),
    chargeable: { weight_kg: kg },
  };
}
