/**
 * The air-freight rate card (../shared/data/air/indicative-rate-card.json, or a deployment's own
 * file: PORTOLAN_AIR_RATE_CARD): read once, checked field by field, so a malformed card stops the
 * server at start with the field named instead of pricing lanes wrongly. docs/air-cargo.md, Quote.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { once } from "../artifacts.ts";

/** The regions region_pair keys may name (engine/air-quote/regions.ts assigns countries to them). */
export const REGIONS = ["ASIA", "EUR", "NAM", "LAT", "MEA", "AFR", "OCE"] as const;
export type Region = (typeof REGIONS)[number];

/** One weight break: "-45" (under 45 kg: the N rate), "+45" (45 kg and over), ... */
export interface WeightBreak {
  label: string;
  /** Lowest chargeable weight the break applies to (0 for the "-" break). */
  fromKg: number;
  /** Rate of this break as a multiple of the lane's N rate. */
  multiplier: number;
}

export interface RateCard {
  /** "sha256:" and the first 16 hex digits of the file: says which card priced an answer. */
  id: string;
  note: string | null;
  currency: string;
  /** Weight breaks after MIN, ascending: the "-" break first. */
  breaks: WeightBreak[];
  minCharge: { floor: number; nRateMultiple: number };
  volumetricDivisorCm3PerKg: number;
  /** Chargeable weight is rounded up to a multiple of this (0.5 kg). */
  roundingStepKg: number;
  /** "EUR>NAM" -> N rate per kg; "DEFAULT" for lanes the card does not list. */
  laneRates: ReadonlyMap<string, number>;
  fuelTiers: Array<{ maxKm: number; perKg: number }>;
  security: { perKg: number; minPerAwb: number };
  other: { awbFee: number; screeningPerKg: number };
}

export const DEFAULT_LANE = "DEFAULT";
/** Half the Earth's circumference, rounded up: the last fuel tier must reach every lane. */
const ANTIPODE_KM = 20_038;

type Json = Record<string, unknown>;

/** Thrown for a card that cannot be used; the message names the file and the field. */
export class RateCardError extends Error {
  override name = "RateCardError";
}

function fail(source: string, message: string): never {
  throw new RateCardError(`air rate card ${source}: ${message}`);
}

/** A JSON object with exactly these keys (keys starting with "_" are comments and allowed). */
function object(
  source: string,
  path: string,
  value: unknown,
  required: string[],
  optional: string[] = [],
): Json {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    fail(source, `${path} must be an object`);
  const o = value as Json;
  for (const k of required) if (!(k in o)) fail(source, `${path}.${k} is missing`);
  const known = new Set([...required, ...optional]);
  for (const k of Object.keys(o))
    if (!known.has(k) && !k.startsWith("_")) fail(source, `${path}.${k} is not a rate card field`);
  return o;
}

function number(source: string, path: string, value: unknown, opts: { positive?: boolean } = {}): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || (opts.positive && value === 0))
    fail(
      source,
      `${path} must be a ${opts.positive ? "positive" : "non-negative"} number, got ${JSON.stringify(value)}`,
    );
  return value;
}

function basis(source: string, path: string, value: unknown): void {
  if (value !== "chargeable weight")
    fail(source, `${path} must be "chargeable weight" (the only basis priced)`);
}

/** The weight breaks: MIN, one "-w" (the N rate, under w kg), then "+w" with w rising from that same w. */
function breaksOf(source: string, card: Json): WeightBreak[] {
  const labels = card.weight_breaks_kg;
  if (!Array.isArray(labels) || labels.some((l) => typeof l !== "string"))
    fail(source, "weight_breaks_kg must be an array of break labels");
  if (labels[0] !== "MIN") fail(source, 'weight_breaks_kg must start with "MIN"');
  const multipliers = object(
    source,
    "break_multipliers_vs_N",
    card.break_multipliers_vs_N,
    labels.slice(1) as string[],
  );
  const breaks: WeightBreak[] = [];
  for (const [i, label] of (labels as string[]).slice(1).entries()) {
    const m = /^([-+])(\d+(?:\.\d+)?)$/.exec(label);
    const sign = i === 0 ? "-" : "+";
    if (!m || m[1] !== sign)
      fail(
        source,
        `weight_breaks_kg[${i + 1}] "${label}" must be ${i === 0 ? '"-<kg>" (the N rate)' : '"+<kg>"'}`,
      );
    const kg = Number(m[2]);
    const prev = breaks[i - 1];
    if (i === 1 && kg !== Number(labels[1].slice(1)))
      fail(source, `weight_breaks_kg: "${label}" must start where "${labels[1]}" ends`);
    if (i > 1 && prev && kg <= prev.fromKg)
      fail(source, `weight_breaks_kg: "${label}" must be heavier than "${prev.label}"`);
    const multiplier = number(source, `break_multipliers_vs_N["${label}"]`, multipliers[label], {
      positive: true,
    });
    // A heavier break dearer than a lighter one would make the break-point rule the only price.
    if (prev && multiplier > prev.multiplier)
      fail(
        source,
        `break_multipliers_vs_N["${label}"] is above "${prev.label}": heavier breaks must not cost more`,
      );
    breaks.push({ label, fromKg: i === 0 ? 0 : kg, multiplier });
  }
  if (breaks.length < 1) fail(source, 'weight_breaks_kg needs at least "MIN" and the "-<kg>" N-rate break');
  return breaks;
}

/** The chargeable-weight rounding step from "up to next <step> kg". */
function roundingStep(source: string, value: unknown): number {
  const rounding = /^up to next (\d+(?:\.\d+)?) kg$/.exec(String(value));
  const step = rounding ? Number(rounding[1]) : Number.NaN;
  // Whole steps per kg keep the rounding exact in binary floating point (0.5, 0.25, 1).
  if (!(step > 0) || !Number.isInteger(1 / step))
    fail(
      source,
      `chargeable_weight.rounding must read "up to next <step> kg" with 1/step whole, got ${JSON.stringify(value)}`,
    );
  return step;
}

/** N rates by "FROM>TO" region pair, with the DEFAULT rate for lanes the card does not list. */
function laneRatesOf(source: string, lanes: unknown): Map<string, number> {
  if (typeof lanes !== "object" || lanes === null || Array.isArray(lanes))
    fail(source, "region_pair_N_rate_usd_per_kg must be an object");
  const laneRates = new Map<string, number>();
  for (const [key, rate] of Object.entries(lanes as Json)) {
    if (key.startsWith("_")) continue;
    const pair = /^([A-Z]+)>([A-Z]+)$/.exec(key);
    const unknown = pair?.slice(1).find((r) => !(REGIONS as readonly string[]).includes(r));
    if (key !== DEFAULT_LANE && (!pair || unknown))
      fail(
        source,
        `region_pair_N_rate_usd_per_kg key "${key}" must be "FROM>TO" over ${REGIONS.join(", ")}, or ${DEFAULT_LANE}`,
      );
    laneRates.set(key, number(source, `region_pair_N_rate_usd_per_kg["${key}"]`, rate, { positive: true }));
  }
  if (!laneRates.has(DEFAULT_LANE))
    fail(source, `region_pair_N_rate_usd_per_kg needs a ${DEFAULT_LANE} rate for lanes it does not list`);
  return laneRates;
}

/** Fuel surcharge tiers by great-circle km, rising and reaching the antipode. */
function fuelTiersOf(source: string, tiersRaw: unknown): RateCard["fuelTiers"] {
  if (!Array.isArray(tiersRaw) || tiersRaw.length === 0)
    fail(source, "surcharges_usd_per_kg.fuel_MYC.by_great_circle_km must be a non-empty array");
  const fuelTiers = tiersRaw.map((t: unknown, i) => {
    const path = `surcharges_usd_per_kg.fuel_MYC.by_great_circle_km[${i}]`;
    const tier = object(source, path, t, ["max_km", "rate"]);
    return {
      maxKm: number(source, `${path}.max_km`, tier.max_km, { positive: true }),
      perKg: number(source, `${path}.rate`, tier.rate),
    };
  });
  fuelTiers.forEach((t, i) => {
    if (i > 0 && t.maxKm <= fuelTiers[i - 1]!.maxKm)
      fail(source, `surcharges_usd_per_kg.fuel_MYC.by_great_circle_km[${i}].max_km must rise`);
  });
  if (fuelTiers.at(-1)!.maxKm < ANTIPODE_KM)
    fail(source, `the last fuel_MYC tier must reach ${ANTIPODE_KM} km so every lane has a fuel rate`);
  return fuelTiers;
}

/** Parses and checks a card's text; `source` (its path) goes into every message. */
export function parseRateCard(text: string, source: string): RateCard {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    fail(source, `not valid JSON (${(err as Error).message})`);
  }
  const card = object(source, "card", raw, [
    "currency",
    "weight_breaks_kg",
    "break_multipliers_vs_N",
    "min_charge",
    "chargeable_weight",
    "region_pair_N_rate_usd_per_kg",
    "surcharges_usd_per_kg",
    "other_charges_per_awb_usd",
  ]);
  const note = card._note;
  if (note !== undefined && typeof note !== "string") fail(source, "_note must be a string");
  if (typeof card.currency !== "string" || !/^[A-Z]{3}$/.test(card.currency))
    fail(source, `currency must be an ISO 4217 code such as USD, got ${JSON.stringify(card.currency)}`);

  const breaks = breaksOf(source, card);

  const min = object(source, "min_charge", card.min_charge, ["floor_usd", "n_rate_multiple"]);
  const cw = object(source, "chargeable_weight", card.chargeable_weight, [
    "volumetric_divisor_cm3_per_kg",
    "rounding",
  ]);
  const step = roundingStep(source, cw.rounding);

  const laneRates = laneRatesOf(source, card.region_pair_N_rate_usd_per_kg);

  const sur = object(source, "surcharges_usd_per_kg", card.surcharges_usd_per_kg, [
    "fuel_MYC",
    "security_SSC",
  ]);
  const fuel = object(source, "surcharges_usd_per_kg.fuel_MYC", sur.fuel_MYC, [
    "basis",
    "by_great_circle_km",
  ]);
  basis(source, "surcharges_usd_per_kg.fuel_MYC.basis", fuel.basis);
  const fuelTiers = fuelTiersOf(source, fuel.by_great_circle_km);
  const ssc = object(source, "surcharges_usd_per_kg.security_SSC", sur.security_SSC, [
    "basis",
    "rate",
    "min_per_awb",
  ]);
  basis(source, "surcharges_usd_per_kg.security_SSC.basis", ssc.basis);
  const other = object(source, "other_charges_per_awb_usd", card.other_charges_per_awb_usd, [
    "AWB_fee",
    "screening_X_ray_per_kg",
  ]);

  return {
    id: `sha256:${createHash("sha256").update(text).digest("hex").slice(0, 16)}`,
    note: note ?? null,
    currency: card.currency,
    breaks,
    minCharge: {
      floor: number(source, "min_charge.floor_usd", min.floor_usd),
      nRateMultiple: number(source, "min_charge.n_rate_multiple", min.n_rate_multiple),
    },
    volumetricDivisorCm3PerKg: number(
      source,
      "chargeable_weight.volumetric_divisor_cm3_per_kg",
      cw.volumetric_divisor_cm3_per_kg,
      { positive: true },
    ),
    roundingStepKg: step,
    laneRates,
    fuelTiers,
    security: {
      perKg: number(source, "surcharges_usd_per_kg.security_SSC.rate", ssc.rate),
      minPerAwb: number(source, "surcharges_usd_per_kg.security_SSC.min_per_awb", ssc.min_per_awb),
    },
    other: {
      awbFee: number(source, "other_charges_per_awb_usd.AWB_fee", other.AWB_fee),
      screeningPerKg: number(
        source,
        "other_charges_per_awb_usd.screening_X_ray_per_kg",
        other.screening_X_ray_per_kg,
      ),
    },
  };
}

const cards = new Map<string, Promise<RateCard>>();

/** The card at `path`, read and checked once per process (a failed read is tried again next time). */
export function loadRateCard(path: string): Promise<RateCard> {
  return once(cards, path, async () => {
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (err) {
      throw new RateCardError(
        `air rate card ${path}: cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); set PORTOLAN_AIR_RATE_CARD`,
      );
    }
    return parseRateCard(text, path);
  });
}
