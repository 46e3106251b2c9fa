/**
 * The rate card: the shared indicative card read field by field; a deployment's own card through
 * PORTOLAN_AIR_RATE_CARD; every kind of malformed card refused with the file and the field named
 * (main.ts then refuses to start: the last test starts the server on one).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { loadConfig } from "../../api/config.ts";
import { loadRateCard, parseRateCard, RateCardError } from "../../engine/air-quote/rate-card.ts";
import { SHARED_CARD, testCardJson } from "./setup.ts";

const dir = mkdtempSync(join(tmpdir(), "portolan-rate-card-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the shared indicative card", () => {
  test("every field is read", async () => {
    const card = await loadRateCard(SHARED_CARD);
    expect(card.note).toStartWith("SYNTHETIC, indicative model");
    expect(card.currency).toBe("USD");
    expect(card.breaks).toEqual([
      { label: "-45", fromKg: 0, multiplier: 1 },
      { label: "+45", fromKg: 45, multiplier: 0.8 },
      { label: "+100", fromKg: 100, multiplier: 0.72 },
      { label: "+300", fromKg: 300, multiplier: 0.66 },
      { label: "+500", fromKg: 500, multiplier: 0.62 },
      { label: "+1000", fromKg: 1000, multiplier: 0.58 },
    ]);
    expect(card.minCharge).toEqual({ floor: 75, nRateMultiple: 5 });
    expect([card.volumetricDivisorCm3PerKg, card.roundingStepKg]).toEqual([6000, 0.5]);
    expect(card.laneRates.size).toBe(31);
    expect([card.laneRates.get("ASIA>EUR"), card.laneRates.get("DEFAULT")]).toEqual([4.6, 3.5]);
    expect(card.fuelTiers).toEqual([
      { maxKm: 3000, perKg: 0.7 },
      { maxKm: 8000, perKg: 1.05 },
      { maxKm: 1e9, perKg: 1.45 },
    ]);
    expect(card.security).toEqual({ perKg: 0.15, minPerAwb: 15 });
    expect(card.other).toEqual({ awbFee: 25, screeningPerKg: 0.1 });
    expect(card.id).toMatch(/^sha256:[0-9a-f]{16}$/);
  });

  test("the default path is the card in the sources directory; PORTOLAN_AIR_RATE_CARD replaces it", () => {
    expect(loadConfig({}).airRateCard).toBe(
      resolve(import.meta.dir, "../../../shared/data/air/indicative-rate-card.json"),
    );
    expect(loadConfig({ PORTOLAN_SOURCES: "/srv/src" }).airRateCard).toBe(
      "/srv/src/air/indicative-rate-card.json",
    );
    expect(loadConfig({ PORTOLAN_AIR_RATE_CARD: "/etc/portolan/card.json" }).airRateCard).toBe(
      "/etc/portolan/card.json",
    );
  });

  test("a deployment's own card is read from its path, with its own id", async () => {
    const json = testCardJson();
    json.currency = "EUR";
    const path = join(dir, "own.json");
    writeFileSync(path, JSON.stringify(json));
    const card = await loadRateCard(path);
    expect(card.currency).toBe("EUR");
    expect(card.id).not.toBe((await loadRateCard(SHARED_CARD)).id);
  });
});

describe("a malformed card is refused, naming the field", () => {
  // biome-ignore lint/suspicious/noExplicitAny: the mutations reach into the card's nested JSON
  type Json = Record<string, any>;
  const rows: Array<[string, (c: Json) => unknown, string]> = [
    [
      "a misspelt field",
      (c) => {
        c.currency_code = c.currency;
        delete c.currency;
      },
      "card.currency is missing",
    ],
    ["an unknown field", (c) => (c.fuel = 1), "card.fuel is not a rate card field"],
    ["a lower-case currency", (c) => (c.currency = "usd"), "currency must be an ISO 4217 code"],
    ["_note not text", (c) => (c._note = 5), "_note must be a string"],
    ["breaks without MIN", (c) => c.weight_breaks_kg.shift(), 'weight_breaks_kg must start with "MIN"'],
    [
      "breaks out of order",
      (c) => (c.weight_breaks_kg = ["MIN", "-45", "+45", "+300", "+100", "+500", "+1000"]),
      '"+100" must be heavier than "+300"',
    ],
    [
      "the first + break not where - ends",
      (c) => {
        c.weight_breaks_kg[2] = "+50";
        c.break_multipliers_vs_N["+50"] = 0.8;
        delete c.break_multipliers_vs_N["+45"];
      },
      '"+50" must start where "-45" ends',
    ],
    [
      "a break without a multiplier",
      (c) => delete c.break_multipliers_vs_N["+300"],
      "break_multipliers_vs_N.+300 is missing",
    ],
    [
      "a heavier break dearer",
      (c) => (c.break_multipliers_vs_N["+100"] = 0.9),
      'break_multipliers_vs_N["+100"] is above "+45"',
    ],
    [
      "a zero multiplier",
      (c) => (c.break_multipliers_vs_N["+45"] = 0),
      'break_multipliers_vs_N["+45"] must be a positive number',
    ],
    [
      "a text floor",
      (c) => (c.min_charge.floor_usd = "75"),
      'min_charge.floor_usd must be a non-negative number, got "75"',
    ],
    [
      "a zero divisor",
      (c) => (c.chargeable_weight.volumetric_divisor_cm3_per_kg = 0),
      "volumetric_divisor_cm3_per_kg must be a positive number",
    ],
    [
      "another rounding",
      (c) => (c.chargeable_weight.rounding = "to the nearest kg"),
      "chargeable_weight.rounding must read",
    ],
    [
      "a 0.3 kg step",
      (c) => (c.chargeable_weight.rounding = "up to next 0.3 kg"),
      "chargeable_weight.rounding must read",
    ],
    [
      "a negative lane rate",
      (c) => (c.region_pair_N_rate_usd_per_kg["EUR>NAM"] = -3),
      'region_pair_N_rate_usd_per_kg["EUR>NAM"] must be a positive number',
    ],
    [
      "an unknown region",
      (c) => (c.region_pair_N_rate_usd_per_kg["EU>NAM"] = 3),
      'key "EU>NAM" must be "FROM>TO"',
    ],
    ["no DEFAULT lane", (c) => delete c.region_pair_N_rate_usd_per_kg.DEFAULT, "needs a DEFAULT rate"],
    [
      "fuel tiers not rising",
      (c) => (c.surcharges_usd_per_kg.fuel_MYC.by_great_circle_km[1].max_km = 2000),
      "by_great_circle_km[1].max_km must rise",
    ],
    [
      "fuel tiers stopping short",
      (c) => (c.surcharges_usd_per_kg.fuel_MYC.by_great_circle_km[2].max_km = 15000),
      "the last fuel_MYC tier must reach 20038 km",
    ],
    [
      "no fuel tiers",
      (c) => (c.surcharges_usd_per_kg.fuel_MYC.by_great_circle_km = []),
      "must be a non-empty array",
    ],
    [
      "security on gross weight",
      (c) => (c.surcharges_usd_per_kg.security_SSC.basis = "gross weight"),
      'security_SSC.basis must be "chargeable weight"',
    ],
    [
      "no security minimum",
      (c) => delete c.surcharges_usd_per_kg.security_SSC.min_per_awb,
      "security_SSC.min_per_awb is missing",
    ],
    [
      "a text AWB fee",
      (c) => (c.other_charges_per_awb_usd.AWB_fee = "25"),
      "other_charges_per_awb_usd.AWB_fee must be a non-negative number",
    ],
  ];
  test.each(rows)("%s", (_, mutate, message) => {
    const json = testCardJson() as Json;
    mutate(json);
    const parse = () => parseRateCard(JSON.stringify(json), "cards/bad.json");
    expect(parse).toThrow(RateCardError);
    expect(parse).toThrow(`air rate card cards/bad.json: `);
    expect(parse).toThrow(message);
  });

  test("text that is not JSON, and a file that is not there", async () => {
    expect(() => parseRateCard("{", "x.json")).toThrow("air rate card x.json: not valid JSON");
    expect(() => parseRateCard("[]", "x.json")).toThrow("air rate card x.json: card must be an object");
    const missing = join(dir, "missing.json");
    await expect(loadRateCard(missing)).rejects.toThrow(`air rate card ${missing}: cannot be read (ENOENT)`);
  });

  test("the server refuses to start on a malformed card, with the field in its message", async () => {
    const json = testCardJson() as Json;
    json.min_charge.floor_usd = -1;
    const path = join(dir, "start.json");
    writeFileSync(path, JSON.stringify(json));
    const proc = Bun.spawn([process.execPath, join(import.meta.dir, "../../api/main.ts")], {
      cwd: join(import.meta.dir, "../.."),
      env: {
        ...process.env,
        PORTOLAN_DB: join(dir, "start.sqlite"),
        PORTOLAN_AIR_RATE_CARD: path,
        PORTOLAN_SANDBOX: "0",
        PORTOLAN_ROUTE_WORKERS: "0",
      },
      stdout: "ignore",
      stderr: "pipe",
    });
    const code = await proc.exited;
    const stderr = await new Response(proc.stderr).text();
    expect(code).toBe(1);
    expect(stderr).toContain(
      `portolan: air rate card ${path}: min_charge.floor_usd must be a non-negative number, got -1`,
    );
  }, 60_000);
});
