/**
 * Prices one rate line for a shipment: which lines of a sheet answer a lane (most specific wins),
 * the base freight by the line's basis (containers, w/m with a minimum, air weight breaks with the
 * break-point rule, km or lane), and the sheet's surcharges that apply on the date. Pure; amounts
 * are rounded half up to the cent each, and the total is their sum. docs/rates.md, "Search".
 */
import { round } from "../../common/round.ts";
import { chargeableWeight } from "../air-quote/price.ts";
import { AIR_BREAKS, type RateLine, type RateMode, type RateSurcharge } from "./sheet.ts";

/** A place of the query: its own code and its country (lines may price either). */
export interface PlaceRef {
  code: string;
  /** Other codes of the same place (an airport's city UN/LOCODE, a port's IATA code). */
  also: readonly string[];
  country: string | null;
}

export interface Shipment {
  mode: RateMode;
  origin: PlaceRef;
  destination: PlaceRef;
  /** YYYY-MM-DD. */
  date: string;
  /** Container type (FCL) or equipment text (road, rail); null = every one priced. */
  equipment: string | null;
  /** Containers (FCL), trucks or wagons (road, rail); 1 otherwise. */
  quantity: number;
  /** Gross kilograms and cubic metres (LCL, air); 0 when not given. */
  weightKg: number;
  volumeM3: number;
}

export interface Charge {
  code: string;
  basis: string;
  /** The rate or amount applied (percent for percent surcharges). */
  rate: number;
  /** What the rate was multiplied by (containers, w/m, kg, km, or 1). */
  quantity: number;
  amount: number;
  /** Air: the weight break charged ("+100", or "min"). */
  weight_break?: string;
}

export interface PricedLine {
  charges: Charge[];
  base: number;
  surcharges: number;
  total: number;
  /** Revenue tons (LCL) or chargeable kilograms (air) the line was charged on. */
  chargeable: { wm?: number; weight_kg?: number; distance_km?: number };
}

/** Air chargeable weight: volume at 6000 cm3 per kg, rounded up to 0.5 kg (as the air quote). */
export const AIR_VOLUMETRIC = { volumetricDivisorCm3PerKg: 6000, roundingStepKg: 0.5 } as const;

/** Half up to the cent; toPrecision drops binary noise (4.35 x 100 = 434.99999...). */
export const money = (x: number): number => Math.round(Number((x * 100).toPrecision(12))) / 100;

/** How well a line's code matches a place: 2 its own code, 1 its country, 0 not at all. */
export function placeRank(code: string | null, place: PlaceRef): number {
  if (code === null) return 1;
  if (code === place.code || place.also.includes(code)) return 2;
  return code === place.country ? 1 : 0;
}

/** Revenue tons: the greater of tonnes and cubic metres. */
export const revenueTons = (s: Pick<Shipment, "weightKg" | "volumeM3">): number =>
  Math.max(s.weightKg / 1000, s.volumeM3);

const sameEquipment = (a: string, b: string) => a.toUpperCase() === b.toUpperCase();

/**
 * The lines of one sheet that answer the shipment: per equipment, the line whose origin and then
 * destination match most specifically (port or airport over country).
 */
export function bestLines<L extends RateLine>(lines: readonly L[], s: Shipment): L[] {
  const best = new Map<string, { line: L; rank: [number, number] }>();
  for (const line of lines) {
    const rank: [number, number] = [
      placeRank(line.origin, s.origin),
      placeRank(line.destination, s.destination),
    ];
    if (rank[0] === 0 || rank[1] === 0) continue;
    if (s.equipment !== null && line.equipment !== null && !sameEquipment(line.equipment, s.equipment))
      continue;
    const key = (line.equipment ?? "").toUpperCase();
    const held = best.get(key);
    if (!held || rank[0] > held.rank[0] || (rank[0] === held.rank[0] && rank[1] > held.rank[1])) {
      best.set(key, { line, rank });
    }
  }
  return [...best.values()].map((b) => b.line);
}

/** A surcharge applies when its equipment, places and dates (all inclusive) fit the shipment. */
export function applies(c: RateSurcharge, line: RateLine, s: Shipment): boolean {
  if (c.equipment !== null && (line.equipment === null || !sameEquipment(c.equipment, line.equipment)))
    return false;
  if (placeRank(c.origin, s.origin) === 0 || placeRank(c.destination, s.destination) === 0) return false;
  if (c.validFrom !== null && s.date < c.validFrom) return false;
  return c.validTo === null || s.date <= c.validTo;
}

/** The air weight charge: own break or a heavier break at its threshold, whichever is less; then the minimum. */
function airBase(line: RateLine, kg: number): Charge {
  const rated = AIR_BREAKS.filter((b) => line.breaks?.[b.label] !== undefined).map((b) => ({
    ...b,
    rate: line.breaks![b.label]!,
  }));
  const own = rated.filter((b) => b.fromKg <= kg).at(-1);
  let best: Charge | null = null;
  for (const b of rated) {
    if (b !== own && b.fromKg <= kg) continue;
    const weight = Math.max(kg, b.fromKg);
    const amount = money(b.rate * weight);
    if (!best || amount < best.amount) {
      best = {
        code: "BASE",
        basis: "weight_break",
        weight_break: b.label,
        rate: b.rate,
        quantity: weight,
        amount,
      };
    }
  }
  if (line.minimum !== null && (best === null || best.amount < line.minimum)) {
    return {
      code: "BASE",
      basis: "minimum",
      weight_break: "min",
      rate: line.minimum,
      quantity: 1,
      amount: money(line.minimum),
    };
  }
  return best!;
}

/** What a base freight was charged on: the air chargeable weight (kg) for weight-break lines. */
interface Base {
  charge: Charge;
  airKg: number;
}

/** The base freight of `line` for the shipment, recording what it was charged on in `chargeable`. */
function baseCharge(
  line: RateLine,
  s: Shipment,
  distanceKm: number | null,
  chargeable: PricedLine["chargeable"],
): Base | { unpriced: string } {
  switch (line.basis) {
    // A rate per unit shipped: a container, or a truck on a flat-rate lane.
    case "per_container":
    case "per_lane":
      return {
        charge: {
          code: "BASE",
          basis: line.basis,
          rate: line.rate!,
          quantity: s.quantity,
          amount: money(line.rate! * s.quantity),
        },
        airKg: 0,
      };
    case "per_wm": {
      const wm = revenueTons(s);
      chargeable.wm = wm;
      const amount = money(line.rate! * wm);
      const charge: Charge =
        line.minimum !== null && amount < line.minimum
          ? { code: "BASE", basis: "minimum", rate: line.minimum, quantity: 1, amount: money(line.minimum) }
          : { code: "BASE", basis: "per_wm", rate: line.rate!, quantity: wm, amount };
      return { charge, airKg: 0 };
    }
    case "weight_break": {
      const airKg = chargeableWeight(AIR_VOLUMETRIC, s.weightKg, s.volumeM3 * 1e6);
      chargeable.weight_kg = airKg;
      return { charge: airBase(line, airKg), airKg };
    }
    case "per_km":
      return perKmBase(line, s, line.distanceKm ?? distanceKm, chargeable);
  }
}

function perKmBase(
  line: RateLine,
  s: Shipment,
  raw: number | null,
  chargeable: PricedLine["chargeable"],
): Base | { unpriced: string } {
  if (raw === null)
    return { unpriced: "a per_km line without distance_km, and the distance engine found no route" };
  // Charged on the distance as shown (0.1 km), so the breakdown multiplies out.
  const km = round(raw, 1);
  chargeable.distance_km = km;
  const perUnit = Math.max(line.rate! * km, line.minimum ?? 0);
  const charge: Charge =
    line.minimum !== null && line.rate! * km < line.minimum
      ? {
          code: "BASE",
          basis: "minimum",
          rate: line.minimum,
          quantity: s.quantity,
          amount: money(perUnit * s.quantity),
        }
      : {
          code: "BASE",
          basis: "per_km",
          rate: line.rate!,
          quantity: money(km * s.quantity),
          amount: money(perUnit * s.quantity),
        };
  return { charge, airKg: 0 };
}

/** Surcharge `c` on a line whose base freight is `base`. */
function surchargeOf(c: RateSurcharge, line: RateLine, s: Shipment, base: Base): Charge {
  if (c.basis === "percent") {
    // rate in percent, quantity the base freight it is a percentage of.
    return {
      code: c.code,
      basis: c.basis,
      rate: c.amount,
      quantity: base.charge.amount,
      amount: money((c.amount * base.charge.amount) / 100),
    };
  }
  const quantity =
    c.basis === "per_container"
      ? s.quantity
      : c.basis === "per_kg"
        ? line.basis === "weight_break"
          ? base.airKg
          : s.weightKg
        : c.basis === "per_wm"
          ? revenueTons(s)
          : 1;
  return { code: c.code, basis: c.basis, rate: c.amount, quantity, amount: money(c.amount * quantity) };
}

/**
 * Prices `line` for the shipment with the surcharges that apply. `distanceKm` is the distance
 * engine's figure for per_km lines without their own; null when there is none (the line cannot be
 * priced: the reason is returned instead).
 */
export function priceLine(
  line: RateLine,
  surcharges: readonly RateSurcharge[],
  s: Shipment,
  distanceKm: number | null,
): PricedLine | { unpriced: string } {
  const chargeable: PricedLine["chargeable"] = {};
  const base = baseCharge(line, s, distanceKm, chargeable);
  if ("unpriced" in base) return base;
  const charges: Charge[] = [
    base.charge,
    ...surcharges.filter((c) => applies(c, line, s)).map((c) => surchargeOf(c, line, s, base)),
  ];
  const extra = charges.slice(1).reduce((sum, c) => sum + c.amount, 0);
  return {
    charges,
    base: base.charge.amount,
    surcharges: money(extra),
    total: money(base.charge.amount + extra),
    chargeable,
  };
}
