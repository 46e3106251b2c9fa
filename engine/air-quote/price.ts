/**
 * The quote arithmetic over a checked rate card: chargeable weight, the weight break with the
 * break-point rule, the minimum charge, fuel and security surcharges. Pure; money is summed in
 * whole cents (BigInt products of the decimal inputs), so a figure worked by hand from the card
 * is the figure answered. docs/air-cargo.md, Quote.
 */
import { round } from "../../common/round.ts";
import { DEFAULT_LANE, type RateCard, type Region } from "./rate-card.ts";

/** Inputs are taken to six decimals (milligrams, cubic millimetres, micro-dollars). */
const MICRO = 1_000_000n;
const micro = (x: number): bigint => BigInt(Math.round(x * 1e6));

/** a x b in whole cents, half up (both non-negative decimals). */
function cents(a: number, b = 1): number {
  const p = micro(a) * micro(b); // scale 1e12; cents are scale 1e2
  return Number((p + 5_000_000_000n) / 10_000_000_000n);
}

const money = (c: number) => c / 100;

/**
 * Chargeable weight: the greater of gross kilograms and volume / divisor (6000 cm3 per kg), rounded
 * up to the card's step (0.5 kg).
 */
export function chargeableWeight(
  card: Pick<RateCard, "roundingStepKg" | "volumetricDivisorCm3PerKg">,
  grossKg: number,
  volumeCm3: number,
): number {
  const perKg = BigInt(Math.round(1 / card.roundingStepKg)); // steps per kg (checked whole)
  const up = (num: bigint, den: bigint) => (num + den - 1n) / den;
  // A positive amount under half a millionth still counts as one: read as 0 it left nothing to charge.
  const atLeastOne = (x: number) => (x > 0 && micro(x) === 0n ? 1n : micro(x));
  const byGross = up(atLeastOne(grossKg) * perKg, MICRO);
  const byVolume = up(atLeastOne(volumeCm3) * perKg, micro(card.volumetricDivisorCm3PerKg));
  return Math.max(Number(byGross), Number(byVolume)) / Number(perKg);
}

/** The lane's N rate: the card's region pair, else its DEFAULT (either region unknown, or unlisted). */
export function laneRate(
  card: RateCard,
  from: Region | null,
  to: Region | null,
): { key: string; nRate: number } {
  const key = from && to ? `${from}>${to}` : DEFAULT_LANE;
  const nRate = card.laneRates.get(key);
  return nRate === undefined
    ? { key: DEFAULT_LANE, nRate: card.laneRates.get(DEFAULT_LANE)! }
    : { key, nRate };
}

/** Fuel surcharge per kg for a great-circle distance: the first tier reaching it. */
export function fuelRate(card: RateCard, km: number): number {
  return (card.fuelTiers.find((t) => km <= t.maxKm) ?? card.fuelTiers.at(-1)!).perKg;
}

export interface PriceRequest {
  nRate: number;
  distanceKm: number;
  chargeableKg: number;
}

export interface Price {
  chargeableKg: number;
  /** "MIN" when the minimum charge governs, else the break whose rate was charged. */
  weightBreak: string;
  /** That break's rate (N x multiplier, to the cent); null under MIN. */
  ratePerKg: number | null;
  /** Weight the rate was charged on: the chargeable weight, or a heavier break's threshold. */
  ratedWeightKg: number | null;
  minimumCharge: number;
  weightCharge: number;
  fuelPerKg: number;
  fuelSurcharge: number;
  securityPerKg: number;
  securitySurcharge: number;
  /** Weight charge + fuel + security. */
  totalCharge: number;
  /** Per kg of chargeable weight, to 4 decimals: total = chargeable x (net + surcharge). */
  netPerKg: number;
  surchargePerKg: number;
  /** Per-AWB charges of the card, outside total_charge. */
  other: { awbFee: number; screening: number; total: number };
}

/**
 * Prices one shipment. Break-point rule: the chargeable weight's own break, or a heavier break
 * charged at its threshold weight when that costs less (surcharges go by chargeable weight, so the
 * cheapest weight charge is the cheapest total). Ties keep the lighter break.
 */
export function price(card: RateCard, req: PriceRequest): Price {
  const cw = req.chargeableKg;
  if (!(cw > 0)) throw new RangeError(`chargeable weight must be positive, got ${cw}`);
  let own = 0;
  card.breaks.forEach((b, i) => {
    if (cw >= b.fromKg) own = i;
  });
  let best: { index: number; ratedKg: number; rateCents: number; charge: number } | null = null;
  for (let i = own; i < card.breaks.length; i++) {
    const b = card.breaks[i]!;
    const rateCents = cents(req.nRate, b.multiplier);
    const ratedKg = Math.max(cw, b.fromKg);
    const charge = cents(ratedKg, money(rateCents));
    if (!best || charge < best.charge) best = { index: i, ratedKg, rateCents, charge };
  }
  const minimum = Math.max(cents(card.minCharge.floor), cents(req.nRate, card.minCharge.nRateMultiple));
  const underMinimum = best!.charge < minimum;
  const weightCharge = underMinimum ? minimum : best!.charge;
  const fuelPerKg = fuelRate(card, req.distanceKm);
  const fuel = cents(cw, fuelPerKg);
  const security = Math.max(cents(cw, card.security.perKg), cents(card.security.minPerAwb));
  const total = weightCharge + fuel + security;
  const screening = cents(cw, card.other.screeningPerKg);
  const awbFee = cents(card.other.awbFee);
  return {
    chargeableKg: cw,
    weightBreak: underMinimum ? "MIN" : card.breaks[best!.index]!.label,
    ratePerKg: underMinimum ? null : money(best!.rateCents),
    ratedWeightKg: underMinimum ? null : best!.ratedKg,
    minimumCharge: money(minimum),
    weightCharge: money(weightCharge),
    fuelPerKg,
    fuelSurcharge: money(fuel),
    securityPerKg: card.security.perKg,
    securitySurcharge: money(security),
    totalCharge: money(total),
    netPerKg: round(money(weightCharge) / cw, 4),
    surchargePerKg: round(money(fuel + security) / cw, 4),
    other: { awbFee: money(awbFee), screening: money(screening), total: money(awbFee + screening) },
  };
}
