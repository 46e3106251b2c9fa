/**
 * Shape checks for the road accuracy reference table: published driving distances
 * between city pairs, each with its citation. The accuracy comparison itself (median absolute
 * error <= 6 %, no pair worse than 15 %) is added when the road planner lands; these checks keep
 * the table honest until then. The table never tunes the model: road factors come from
 * ../shared/data/road/circuity.csv (see README.md beside this file).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { haversineM } from "../../common/geo.ts";
import { csvRecords } from "../../formats/csv.ts";

const COLUMNS = [
  "from_name",
  "from_lat",
  "from_lng",
  "from_country",
  "to_name",
  "to_lat",
  "to_lng",
  "to_country",
  "road_km",
  "source",
  "source_url_or_reference",
  "notes",
] as const;

/** Continent of every country the table uses; a new country must be added here on purpose. */
const CONTINENT: Record<string, string> = {
  IT: "Europe",
  FR: "Europe",
  PT: "Europe",
  ES: "Europe",
  DE: "Europe",
  CZ: "Europe",
  GB: "Europe",
  US: "North America",
  CA: "North America",
  MX: "North America",
  BR: "South America",
  AR: "South America",
  CL: "South America",
  PE: "South America",
  KR: "Asia",
  JP: "Asia",
  PK: "Asia",
  IN: "Asia",
  CN: "Asia",
  TH: "Asia",
  KE: "Africa",
  UG: "Africa",
  RW: "Africa",
  GH: "Africa",
  EG: "Africa",
  NG: "Africa",
  TZ: "Africa",
  ZA: "Africa",
  AU: "Oceania",
  NZ: "Oceania",
};

const text = readFileSync(join(import.meta.dir, "reference-pairs.csv"), "utf8");
const header = text.slice(0, text.indexOf("\n")).trim().split(",");
const rows = csvRecords(text);

const num = (s: string | undefined) => (s === undefined || s.trim() === "" ? Number.NaN : Number(s));

interface Pair {
  label: string;
  from: { lat: number; lng: number; country: string };
  to: { lat: number; lng: number; country: string };
  roadKm: number;
  gcKm: number;
  source: string;
  ref: string;
}

const pairs: Pair[] = rows.map((r) => {
  const from = { lat: num(r.from_lat), lng: num(r.from_lng), country: r.from_country ?? "" };
  const to = { lat: num(r.to_lat), lng: num(r.to_lng), country: r.to_country ?? "" };
  return {
    label: `${r.from_name} -> ${r.to_name}`,
    from,
    to,
    roadKm: num(r.road_km),
    gcKm: haversineM(from.lat, from.lng, to.lat, to.lng) / 1000,
    source: (r.source ?? "").trim(),
    ref: (r.source_url_or_reference ?? "").trim(),
  };
});

describe("road reference pairs", () => {
  test("header has exactly the documented columns", () => {
    expect(header).toEqual([...COLUMNS]);
  });

  test("at least 30 pairs, no duplicates", () => {
    expect(pairs.length).toBeGreaterThanOrEqual(30);
    const keys = pairs.map((p) => p.label.split(" -> ").sort().join("|"));
    expect(new Set(keys).size).toBe(keys.length);
  });

  test("every row cites a source", () => {
    for (const p of pairs) {
      expect(p.source.length, p.label).toBeGreaterThan(10);
      expect(p.ref.length, p.label).toBeGreaterThan(5);
    }
  });

  test("coordinates in range and countries known", () => {
    for (const p of pairs) {
      for (const end of [p.from, p.to]) {
        expect(Math.abs(end.lat) <= 90, p.label).toBe(true);
        expect(Math.abs(end.lng) <= 180, p.label).toBe(true);
        expect(CONTINENT[end.country], `${p.label}: country ${end.country}`).toBeDefined();
      }
    }
  });

  test("inter-city distances: road km between 100 and 2000", () => {
    for (const p of pairs) {
      expect(Number.isFinite(p.roadKm), p.label).toBe(true);
      expect(p.roadKm >= 100 && p.roadKm <= 2000, `${p.label}: ${p.roadKm} km`).toBe(true);
    }
  });

  test("great circle <= road km <= 2.5 x great circle", () => {
    for (const p of pairs) {
      expect(p.roadKm >= p.gcKm, `${p.label}: road ${p.roadKm} < great circle ${p.gcKm.toFixed(1)}`).toBe(
        true,
      );
      expect(p.roadKm <= 2.5 * p.gcKm, `${p.label}: road ${p.roadKm} > 2.5 x ${p.gcKm.toFixed(1)}`).toBe(
        true,
      );
    }
  });

  test("five continents or more, with enough pairs each", () => {
    const perContinent = new Map<string, number>();
    for (const p of pairs) {
      const c = CONTINENT[p.from.country] ?? "?";
      // Both ends on the same landmass: a pair never spans two continents.
      expect(CONTINENT[p.to.country], p.label).toBe(c);
      perContinent.set(c, (perContinent.get(c) ?? 0) + 1);
    }
    expect(perContinent.size).toBeGreaterThanOrEqual(5);
    for (const c of ["Europe", "North America", "South America", "Asia", "Africa"]) {
      expect(perContinent.get(c) ?? 0, c).toBeGreaterThanOrEqual(5);
    }
    expect(perContinent.get("Oceania") ?? 0).toBeGreaterThanOrEqual(3);
  });
});
