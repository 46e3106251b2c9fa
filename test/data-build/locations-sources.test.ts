/** Defensive parsing of the location sources, on lines taken from the real files. */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseUnlocodeRow } from "../../data-build/locations/collect.ts";
import { loadManifest } from "../../data-build/manifest.ts";
import { defaultDirs } from "../../data-build/pipeline.ts";
import { parseCsv } from "../../formats/csv.ts";

describe("UN/LOCODE rows", () => {
  test("a name split at its comma by broken quoting is re-joined, columns re-anchored", () => {
    const [raw] = parseCsv(
      'US,AT2,"""Allentown"," Allegany""","""Allentown"," Allegany""",NY,--3-----,42.0836783,-78.0644508,true\n',
    );
    expect(parseUnlocodeRow(raw!, true)).toEqual({
      country: "US",
      location: "AT2",
      name: "Allentown, Allegany",
      subdivision: "NY",
      function: "--3-----",
      lat: 42.0836783,
      lng: -78.0644508,
      geocoded: true,
    });
  });
  test("a regular row, with and without the geocoded column", () => {
    const [withFlag] = parseCsv("NL,RTM,Rotterdam,Rotterdam,ZH,AF,12345---,,51.916666666666664,4.5,\n");
    expect(parseUnlocodeRow(withFlag!, true)).toMatchObject({
      name: "Rotterdam",
      function: "12345---",
      geocoded: false,
    });
    const [without] = parseCsv(
      "YT,DZA,Dzaoudzi-Pamandzi Apt,Dzaoudzi-Pamandzi Apt,,AI,1--4----,,-12.8,45.28\n",
    );
    expect(parseUnlocodeRow(without!, false)).toMatchObject({ location: "DZA", lat: -12.8, lng: 45.28 });
  });
  test("mojibake in the accented name falls back to the plain column", () => {
    const [raw] = parseCsv("DE,SHG,St\uFFFDhlingen,Stuhlingen,BW,RL,--3-----,,47.73,8.43,\n");
    expect(parseUnlocodeRow(raw!, true)?.name).toBe("Stuhlingen");
  });
  test("every row of the real files parses to a 5-character code", () => {
    const { sourcesDir } = defaultDirs();
    const keys = Object.keys(loadManifest().files).filter((k) => /^ports\/unlocode\/[A-Z]{2}\.csv$/.test(k));
    expect(keys.length).toBeGreaterThan(240);
    let rows = 0;
    for (const key of keys) {
      const [header, ...lines] = parseCsv(readFileSync(join(sourcesDir, key), "utf8"));
      for (const line of lines) {
        const row = parseUnlocodeRow(line, header!.includes("geocoded"));
        expect(row).not.toBeNull();
        expect(`${row!.country}${row!.location}`).toMatch(/^[A-Z]{2}[A-Z0-9]{3}$/);
        rows++;
      }
    }
    expect(rows).toBe(116_029);
  });
});

describe("CSV reader", () => {
  test("quotes, doubled quotes, CRLF and a BOM", () => {
    expect(parseCsv('\uFEFFa,"b,c","d ""e"""\r\n1,2,3')).toEqual([
      ["a", "b,c", 'd "e"'],
      ["1", "2", "3"],
    ]);
  });
});
