/**
 * The quoter over the real build (location index, large cargo airports) and the real source tables
 * (countries, AWB prefixes): airport codes and city UN/LOCODEs, regions from airport countries, the
 * quoting airline's rule, and a whole quote worked by hand.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { fromEngine } from "../../api/shared/errors.ts";
import { AIRLINE_HUBS } from "../../engine/air-quote/airline.ts";
import type { AirQuoter } from "../../engine/air-quote/quoter.ts";
import { CountryRegions } from "../../engine/air-quote/regions.ts";
import { EngineError } from "../../engine/errors.ts";
import { AwbPrefixes } from "../../ingest/airlines/awb.ts";
import { realQuoter, SOURCES } from "./setup.ts";

let quoter: AirQuoter;
beforeAll(async () => {
  quoter = await realQuoter();
});

const body = (origin: string, destination: string, weight_kg = 100, volume_cm3 = 1000) => ({
  origin,
  destination,
  weight_kg,
  volume_cm3,
});

/** The error a quote throws: [problem key, message], as the API answers it. */
function refusal(origin: string, destination: string): [string, string] {
  try {
    quoter.quote(body(origin, destination));
  } catch (err) {
    if (err instanceof EngineError) return [fromEngine(err).key, err.message];
    throw err;
  }
  throw new Error(`${origin} -> ${destination} was quoted`);
}

describe("airports: IATA, or the UN/LOCODE of the airport's city", () => {
  test.each([
    ["FRA", "FRA", "FRA"],
    ["fra", "FRA", "FRA"], // any case
    [" ord ", "ORD", "ORD"],
    ["DEFRA", "DEFRA", "FRA"], // the LOCODE's last three letters are the airport's IATA code
    ["de fra", "DEFRA", "FRA"],
    ["DEHAM", "DEHAM", "HAM"], // Hamburg's own airport (not in the large cargo list)
    ["CNSHA", "CNSHA", "SHA"], // Hongqiao: SHA is an airport, so it is the one
    ["GBLON", "GBLON", "LHR"], // LON is a city code: the busiest large cargo airport within 100 km
    ["JPTYO", "JPTYO", "NRT"], // NRT ranks above HND in the cargo list
    ["USNYC", "USNYC", "JFK"], // JFK ranks above EWR
    ["ITMIL", "ITMIL", "MXP"],
  ])("%p -> answered as %p, priced at %p", (input, code, iata) => {
    const q = quoter.quote(body(input, "SIN"));
    expect(q.origin).toBe(code);
    expect(q.origin_airport.iata).toBe(iata);
  });

  test.each([
    ["XXX", "not_found", "origin: no airport has the IATA code XXX."],
    ["LON", "not_found", "origin: no airport has the IATA code LON."], // free text would find Long Beach
    ["AQXXX", "not_found", "origin: no place has the UN/LOCODE AQXXX."],
    [
      "FIKTK",
      "not_found",
      "origin: FIKTK (Kotka) has no airport KTK of its own and no large cargo airport within 100 km",
    ],
    ["DEBRV", "not_found", "origin: DEBRV (Bremerhaven) has no airport BRV of its own"],
    ["FRAX", "validation", "origin must be an airport IATA code (3 letters, e.g. FRA) or the UN/LOCODE"],
    ["", "validation", "origin must be an airport IATA code"],
    ["12345", "validation", "origin must be"],
    ["EDDF", "validation", "origin must be"], // ICAO is not taken: the spec says IATA
  ])("%p is refused (%s)", (input, key, message) => {
    const [k, m] = refusal(input, "SIN");
    expect(k).toBe(key === "not_found" ? "notFound" : key);
    expect(m).toContain(message);
  });

  test("the destination is named as such, and one airport at both ends is refused", () => {
    expect(refusal("FRA", "ZZZ")).toEqual(["notFound", "destination: no airport has the IATA code ZZZ."]);
    expect(refusal("DEFRA", "fra")[1]).toBe(
      "origin and destination are the same airport (FRA): an air quote needs a flight.",
    );
  });
});

describe("regions from the airport's country (countries.json region and subregion)", () => {
  test.each([
    ["DE", "EUR"],
    ["RU", "EUR"],
    ["US", "NAM"],
    ["MX", "NAM"], // IATA's North America sub-area
    ["PR", "LAT"], // the Caribbean
    ["BR", "LAT"],
    ["CN", "ASIA"],
    ["KZ", "ASIA"],
    ["AE", "MEA"],
    ["TR", "MEA"], // Western Asia
    ["EG", "AFR"],
    ["AU", "OCE"],
    ["AQ", null],
  ])("%s -> %p", async (country, region) => {
    const regions = await CountryRegions.load(SOURCES);
    expect(regions.regionOf(country)).toBe(region as never);
  });

  test.each([
    ["FRA", "ORD", "EUR>NAM", 3],
    ["ADD", "BOG", "AFR>LAT", 20], // Ethiopia (Africa) to Colombia (South America)
    ["ORD", "FRA", "DEFAULT", 3.5], // the test card lists no NAM>EUR
  ])("%s -> %s is priced on %s", (origin, destination, key, n) => {
    const q = quoter.quote(body(origin, destination));
    expect([q.lane.rate_key, q.lane.n_rate_per_kg]).toEqual([key, n]);
  });
});

describe("the quoting airline", () => {
  test("every airline of the AWB prefix table has a hub, and every hub is such an airline", async () => {
    const airlines = (await AwbPrefixes.load(SOURCES)).airlines().map((a) => a.iata);
    expect(new Set(airlines)).toEqual(new Set(Object.keys(AIRLINE_HUBS)));
  });

  test.each([
    ["FRA", "ORD", "LH", "origin_hub"],
    ["ORD", "FRA", "UA", "origin_hub"],
    ["MEM", "CDG", "FX", "origin_hub"], // FedEx's hub beats American (lower prefix) by rule 1
    ["AMS", "JFK", "KL", "origin_hub"], // KLM 074 and Martinair 129 share AMS: the lower prefix
    ["JFK", "LHR", "AA", "origin_country"], // US airlines, lowest prefix 001
    ["MUC", "PVG", "LH", "origin_country"],
    ["DAC", "FRA", "LH", "destination_hub"], // no airline of Bangladesh in the table
    ["DAC", "BOM", "AI", "destination_country"],
    ["DAC", "LOS", "AI", "nearest_hub"], // neither end has an airline: Delhi is the nearest hub
  ])("%s -> %s: %s (%s)", (from, to, iata, rule) => {
    const q = quoter.quote(body(from, to));
    expect([q.airline_iata, q.airline_rule]).toEqual([iata, rule]);
  });
});

test("a whole quote, worked by hand: FRA -> ORD, 90 kg gross, 0.6 m3", () => {
  // Chargeable max(90, 600000 / 6000 = 100) = 100 kg (volume-heavy). EUR>NAM N 3.00, +100 at 2.16:
  // 216.00. FRA-ORD is about 6970 km great circle: fuel 1.05 x 100 = 105.00; security 0.15 x 100 =
  // 15.00. Total 336.00; net 2.16, surcharge 1.20 per kg.
  const q = quoter.quote(body("FRA", "ORD", 90, 600_000));
  expect(q).toMatchObject({
    origin: "FRA",
    destination: "ORD",
    chargeable_weight_kg: 100,
    net_per_kg: 2.16,
    surcharge_per_kg: 1.2,
    total_charge: 336,
    currency: "USD",
    airline_iata: "LH",
    indicative: true,
    lane: { rate_key: "EUR>NAM", origin_region: "EUR", destination_region: "NAM", n_rate_per_kg: 3 },
    breakdown: {
      weight_break: "+100",
      rate_per_kg: 2.16,
      rated_weight_kg: 100,
      minimum_charge: 75,
      weight_charge: 216,
      fuel_per_kg: 1.05,
      fuel_surcharge: 105,
      security_per_kg: 0.15,
      security_surcharge: 15,
    },
    other_charges: { awb_fee: 25, screening: 10, total: 35, in_total_charge: false },
  });
  expect(q.lane.great_circle_km).toBeGreaterThan(6900);
  expect(q.lane.great_circle_km).toBeLessThan(7050);
});
