/**
 * The rate file formats: CSV and JSON of the same rates read to the same sheet and digest, whatever
 * the row order; every kind of bad record is refused with its CSV line or JSON path.
 */
import { expect, test } from "bun:test";
import { readRateCsv, readRateFile, readRateJson } from "../../engine/rates/file.ts";
import { RateFileError, sheetDigest } from "../../engine/rates/sheet.ts";
import { AIR_CSV, FCL_CSV, FCL_JSON, LCL_CSV, ROAD_CSV } from "./sheets.ts";

const fail = (read: () => unknown): string => {
  try {
    read();
  } catch (err) {
    if (err instanceof RateFileError) return err.message;
    throw err;
  }
  throw new Error("read without an error");
};

test("CSV and JSON of the same rates give the same sheet content and digest", () => {
  const csv = readRateCsv(FCL_CSV);
  const json = readRateJson(JSON.stringify(FCL_JSON));
  const sorted = (s: typeof csv) => ({
    ...s,
    lines: [...s.lines].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    surcharges: [...s.surcharges].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
  });
  expect(sorted(json)).toEqual(sorted(csv));
  expect(sheetDigest(json)).toBe(sheetDigest(csv));
  expect(sheetDigest({ ...csv, validTo: "2026-03-30" })).not.toBe(sheetDigest(csv));
  expect(readRateFile("x.json", JSON.stringify(FCL_JSON))).toEqual(json);
  expect(readRateFile("rates.CSV", FCL_CSV)).toEqual(csv);
});

test("every mode's sample reads, air breaks from columns or a JSON breaks object", () => {
  const air = readRateCsv(AIR_CSV);
  expect(air.lines[0]!.breaks).toEqual({
    "-45": 4,
    "+45": 3.2,
    "+100": 2.8,
    "+300": 2.5,
    "+500": 2.3,
    "+1000": 2.1,
  });
  const json = readRateJson(
    JSON.stringify({
      name: "LH transatlantic",
      carrier: "LH",
      mode: "AIR",
      currency: "EUR",
      valid_from: "2026-01-01",
      valid_to: "2026-06-30",
      lines: [
        {
          origin: "FRA",
          destination: "JFK",
          min: 75,
          transit_days: 2,
          breaks: { "-45": 4, "+45": 3.2, "+100": 2.8, "+300": 2.5, "+500": 2.3, "+1000": 2.1 },
        },
      ],
      surcharges: air.surcharges.map((s) => ({ code: s.code, basis: s.basis, amount: s.amount })),
    }),
  );
  expect(sheetDigest(json)).toBe(sheetDigest(air));
  expect(readRateCsv(LCL_CSV).lines[0]).toMatchObject({ basis: "per_wm", rate: 40, minimum: 60 });
  expect(readRateCsv(ROAD_CSV).lines.map((l) => l.basis)).toEqual(["per_km", "per_lane"]);
});

/** FCL_CSV with one line replaced ([line number, new text]). */
const withLine = (n: number, text: string) => {
  const lines = FCL_CSV.split("\n");
  lines[n - 1] = text;
  return lines.join("\n");
};

test.each([
  [
    withLine(4, "line,,,,,,,CNSHA,NLRTM,40HC,18x0,30,,,"),
    'line 4, column rate: rate must be a number (like 1250 or 4.75), got "18x0"',
  ],
  [
    withLine(4, "line,,,,,,,CNSHA,NLRTM,40HC,-5,30,,,"),
    'line 4, column rate: rate must be a number (like 1250 or 4.75), got "-5"',
  ],
  [withLine(4, "line,,,,,,,CNSHA,NLRTM,40HC,0,30,,,"), "line 4, column rate: rate must be more than 0"],
  [
    withLine(5, "line,,,,,,,CNSHA,NLRTM,53HC,2500,33,,,"),
    'line 5, column equipment: equipment must be one of 20GP, 40GP, 40HC, 45HC, 20RF, 40RH, got "53HC"',
  ],
  [withLine(5, "line,,,,,,,CNSHA,NLRTM,,2500,33,,,"), "line 5, column equipment: equipment is required"],
  [
    withLine(6, "line,,,,,,,SHANGHAI,DEHAM,40HC,1900,,,,"),
    'line 6, column origin: origin must be a UN/LOCODE or an ISO country code, got "SHANGHAI"',
  ],
  [
    withLine(6, "line,,,,,,,CNSHA,HAM,40HC,1900,,,,"),
    'line 6, column destination: destination must be a UN/LOCODE or an ISO country code, got "HAM"',
  ],
  [
    withLine(6, "line,,,,,,,CNSHA,NLRTM,40HC,1900,,,,"),
    "line 6: lane CNSHA>NLRTM 40HC is already priced at line 4",
  ],
  [
    withLine(6, "line,,,,,,,CNSHA,DEHAM,40HC,1900,,BAF,,"),
    "line 6, column code: code does not belong to OCEAN_FCL lines",
  ],
  [
    withLine(7, "surcharge,,,,,,,,,40HC,,,BAF,per_kg,300"),
    "line 7, column basis: a per_kg surcharge does not apply to OCEAN_FCL sheets",
  ],
  [
    withLine(7, "surcharge,,,,,,,,,40HC,,,BAF,per_box,300"),
    'line 7, column basis: basis must be one of per_container, per_shipment, per_kg, per_wm, percent, got "per_box"',
  ],
  [withLine(7, "surcharge,,,,,,,,,40HC,,,BAF,per_container,"), "line 7, column amount: amount is required"],
  [
    withLine(10, "surcharge,,,,,2026-02-30,,,,,,,LSS,percent,10"),
    'line 10, column valid_from: valid_from must be a date YYYY-MM-DD, got "2026-02-30"',
  ],
  [
    withLine(10, "surcharge,,,,,2026-02-01,2026-01-01,,,,,,LSS,percent,10"),
    "line 10, column valid_to: valid_to 2026-01-01 is before valid_from 2026-02-01",
  ],
  [
    withLine(10, "rebate,,,,,,,,,,,,LSS,percent,10"),
    'line 10, column kind: kind must be sheet, line or surcharge, got "rebate"',
  ],
  [
    withLine(2, "sheet,Asia-Europe Q1,MAEU,OCEAN,USD,2026-01-01,2026-03-31,,,,,,,,"),
    'line 2, column mode: mode must be one of OCEAN_FCL, OCEAN_LCL, AIR, ROAD, RAIL, got "OCEAN"',
  ],
  [
    withLine(2, "sheet,Asia-Europe Q1,MAEU,OCEAN_FCL,USD,2026-04-01,2026-03-31,,,,,,,,"),
    "line 2, column valid_to: valid_to 2026-03-31 is before valid_from 2026-04-01",
  ],
  [
    withLine(2, "line,,,,,,,CNSHA,NLRTM,20GP,1000,30,,,"),
    'file: no row of kind "sheet" (name, carrier, mode, ...)',
  ],
  [
    withLine(
      1,
      "kind,name,carrier,mode,currency,valid_from,valid_to,origin,destination,equipment,price,transit_days,code,basis,amount",
    ),
    'line 1: unknown column "price" (columns: kind, name, carrier, mode, currency, valid_from, valid_to, origin, destination, equipment, basis, rate, min, -45, +45, +100, +300, +500, +1000, distance_km, transit_days, code, amount)',
  ],
  [withLine(3, 'line,,,,,,,CNSHA,NLRTM,20GP,1000,30,,,,"extra"'), "line 3: 16 fields, the header names 15"],
  // A quoted field spanning two lines: the next record's line number still counts them.
  [
    withLine(3, 'line,,,,,,,CNSHA,NLRTM,20GP,1000,30,,,\nline,,,,,,,CNSHA,"NL\nRTM",40GP,-1,,,,'),
    'line 4, column rate: rate must be a number (like 1250 or 4.75), got "-1"',
  ],
])("CSV refused: %#", (text, message) => {
  expect(fail(() => readRateCsv(text))).toBe(message);
});

const jsonWith = (patch: (doc: typeof FCL_JSON & Record<string, unknown>) => unknown) => {
  const doc = structuredClone(FCL_JSON) as typeof FCL_JSON & Record<string, unknown>;
  patch(doc);
  return JSON.stringify(doc);
};

test.each([
  ["{", "$: not valid JSON"],
  ["[]", "$: the file must hold one sheet object"],
  [jsonWith((d) => (d.lines[2]!.rate = "2500" as never)), "$.lines[2].rate: rate must be a number"],
  [
    jsonWith((d) => (d.surcharges[1]!.equipment = "40ft")),
    '$.surcharges[1].equipment: equipment must be one of 20GP, 40GP, 40HC, 45HC, 20RF, 40RH, got "40ft"',
  ],
  [jsonWith((d) => (d.lines[0] = 7 as never)), "$.lines[0]: must be an object"],
  [jsonWith((d) => (d.lines = [])), "sheet: the file has no rate lines"],
  [
    jsonWith((d) => (d.lines[1]!.transit_days = 400)),
    "$.lines[1].transit_days: transit_days must be from 0 to 365, got 400",
  ],
  [
    jsonWith((d) => (d.lines[1] = { ...d.lines[1]!, breaks: { "-45": 3 } } as never)),
    '$.lines[1].breaks["-45"]: -45 does not belong to OCEAN_FCL lines',
  ],
  [jsonWith((d) => (d.validity = "Q1")), "$.validity: validity does not belong to the sheet"],
  [jsonWith((d) => delete (d as Record<string, unknown>).currency), "$.currency: currency is required"],
])("JSON refused: %#", (text, message) => {
  expect(fail(() => readRateJson(text))).toStartWith(message);
});
