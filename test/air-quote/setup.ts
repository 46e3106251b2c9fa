/**
 * What the air-quote tests share: a small rate card written out here (the shared card's shape and
 * numbers, plus two lanes of our own) so every expected figure can be worked by hand from it, and
 * the real quoter over the build's location index, cargo airports and the real source tables.
 */
import { join } from "node:path";
import { buildDirFrom } from "../../common/build-dir.ts";
import { sourcesDirFrom } from "../../common/sources-dir.ts";
import { AirPlanner } from "../../engine/air/planner.ts";
import { AirQuoter } from "../../engine/air-quote/quoter.ts";
import { parseRateCard, type RateCard } from "../../engine/air-quote/rate-card.ts";
import { CountryRegions } from "../../engine/air-quote/regions.ts";
import { readArtifact } from "../../engine/artifacts.ts";
import { LocationIndex } from "../../engine/locations/index.ts";
import { AwbPrefixes } from "../../ingest/airlines/awb.ts";

export const SOURCES = sourcesDirFrom();
export const SHARED_CARD = join(SOURCES, "air/indicative-rate-card.json");

/**
 * The test card. N rates: EUR>NAM 3.00 (as the shared card); AFR>LAT 20.00 (ours: its minimum is
 * 5 x N = 100, above the 75 floor); DEFAULT 3.50. Breaks as the shared card: -45 x1.00, +45 x0.80,
 * +100 x0.72, +300 x0.66, +500 x0.62, +1000 x0.58. Fuel 0.70 to 3000 km, 1.05 to 8000, 1.45 beyond;
 * security 0.15 per kg, at least 15; AWB fee 25; screening 0.10 per kg.
 */
export function testCardJson(): Record<string, unknown> {
  return {
    _note: "TEST card: figures worked by hand in test/air-quote.",
    currency: "USD",
    weight_breaks_kg: ["MIN", "-45", "+45", "+100", "+300", "+500", "+1000"],
    break_multipliers_vs_N: {
      "-45": 1.0,
      "+45": 0.8,
      "+100": 0.72,
      "+300": 0.66,
      "+500": 0.62,
      "+1000": 0.58,
    },
    min_charge: { floor_usd: 75, n_rate_multiple: 5 },
    chargeable_weight: { volumetric_divisor_cm3_per_kg: 6000, rounding: "up to next 0.5 kg" },
    region_pair_N_rate_usd_per_kg: { "EUR>NAM": 3.0, "AFR>LAT": 20.0, DEFAULT: 3.5 },
    surcharges_usd_per_kg: {
      fuel_MYC: {
        basis: "chargeable weight",
        by_great_circle_km: [
          { max_km: 3000, rate: 0.7 },
          { max_km: 8000, rate: 1.05 },
          { max_km: 1e9, rate: 1.45 },
        ],
      },
      security_SSC: { basis: "chargeable weight", rate: 0.15, min_per_awb: 15 },
    },
    other_charges_per_awb_usd: { AWB_fee: 25, screening_X_ray_per_kg: 0.1 },
  };
}

export const testCard = (): RateCard => parseRateCard(JSON.stringify(testCardJson()), "test-card.json");

let loaded: Promise<Omit<ConstructorParameters<typeof AirQuoter>[0], "card">> | null = null;

/** The quoter over `card` and the real build and source tables (loaded once per test file). */
export async function realQuoter(card: RateCard = testCard()): Promise<AirQuoter> {
  loaded ??= (async () => {
    const buildDir = buildDirFrom();
    const { path, bytes } = await readArtifact(buildDir, "locations.idx");
    const [regions, prefixes, air] = await Promise.all([
      CountryRegions.load(SOURCES),
      AwbPrefixes.load(SOURCES),
      AirPlanner.load(buildDir),
    ]);
    return {
      regions,
      locations: LocationIndex.fromBytes(bytes, path),
      cargoAirports: air.planner.airports,
      airlines: prefixes.airlines(),
    };
  })();
  return new AirQuoter({ card, ...(await loaded) });
}
