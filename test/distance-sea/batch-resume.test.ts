/**
 * `portolan route batch` as a user runs it (a real bin/portolan process on the real build): CSV
 * output carries each row's figures or error, GeoJSON output is a FeatureCollection that
 * @placemarkio/check-geojson accepts (a route across the Pacific cut at the antimeridian, a row
 * without a route a null geometry with its error), and --resume after a run killed part-way (its
 * output cut mid-line) plans only the missing rows: the resumed file equals an uninterrupted
 * run's, no row lost or written twice.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { check } from "@placemarkio/check-geojson";
import { BUILD_DIR } from "./fixture.ts";

const ROOT = join(import.meta.dir, "../..");
const dir = mkdtempSync(join(tmpdir(), "portolan-batch-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const input = join(dir, "pairs.csv");
writeFileSync(
  input,
  [
    "id,from,to",
    "a,NLRTM,SGSIN",
    "b,CNSHA,USLAX",
    'c,"40.42,-3.70","51.9,4.4667"',
    "d,DEHAM,CNSHA",
    "e,QQQQQ,NLRTM",
  ].join("\n"),
);

function batch(...args: string[]) {
  const r = Bun.spawnSync([
    join(ROOT, "bin/portolan"),
    "route",
    "batch",
    input,
    "--build-dir",
    BUILD_DIR,
    ...args,
  ]);
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
}

test("--format csv: a header, then each row's figures or its error", () => {
  const r = batch("--format", "csv");
  expect(r.code).toBe(0);
  const [header, ...rows] = r.out.trim().split("\n");
  expect(header).toBe("row,id,ok,label,km,nm,hours,co2e_kg,error_code,error_message");
  expect(rows.map((l) => l.split(",").slice(0, 4))).toEqual([
    ["0", "a", "true", "Direct"],
    ["1", "b", "true", "Direct"],
    ["2", "c", "false", ""],
    ["3", "d", "true", "Direct"],
    ["4", "e", "false", ""],
  ]);
  expect(Number(rows[0]!.split(",")[4])).toBeGreaterThan(15_000);
  expect(rows[2]).toContain(",no_route,");
  expect(r.err).toContain("5/5 pairs");
});

test("--format geojson: a FeatureCollection, a Feature a row, the route's line or the row's error", () => {
  const r = batch("--format", "geojson");
  expect(r.code).toBe(0);
  const collection = check(r.out);
  if (collection.type !== "FeatureCollection") throw new Error(`a ${collection.type}`);
  const { features } = collection;
  expect(features.map((f) => [f.properties?.id, f.geometry?.type ?? null])).toEqual([
    ["a", "LineString"],
    // Shanghai to Los Angeles crosses the Pacific: two lines meeting at the antimeridian.
    ["b", "MultiLineString"],
    ["c", null],
    ["d", "LineString"],
    ["e", null],
  ]);
  const [a, b, c] = features;
  expect(a!.properties).toMatchObject({ row: 0, ok: true, label: "Direct", error_code: null });
  expect(a!.properties?.km).toBeGreaterThan(15_000);
  const start = a!.geometry?.type === "LineString" ? a!.geometry.coordinates[0]! : [];
  // [lng, lat], starting at Rotterdam (51.9 N, 4.5 E).
  expect(Math.abs(start[0]! - 4.5) + Math.abs(start[1]! - 51.9)).toBeLessThan(1);
  const lngs =
    b!.geometry?.type === "MultiLineString" ? b!.geometry.coordinates.flat().map((p) => p[0]!) : [];
  expect(Math.max(...lngs.map(Math.abs))).toBe(180);
  expect(c!.properties).toMatchObject({ row: 2, ok: false, km: null, error_code: "no_route" });
  expect(c!.properties?.error_message).toBeString();
});

test("--resume of a finished GeoJSON output changes nothing", () => {
  const out = join(dir, "finished.geojson");
  expect(batch("--format", "geojson", "--out", out).code).toBe(0);
  const text = readFileSync(out, "utf8");
  expect(batch("--format", "geojson", "--out", out, "--resume").code).toBe(0);
  expect(readFileSync(out, "utf8")).toBe(text);
});

test.each(["ndjson", "csv", "geojson"])(
  "--resume (%s) after a run cut mid-line equals an uninterrupted run",
  (format) => {
    const full = join(dir, `full.${format}`);
    const part = join(dir, `part.${format}`);
    expect(batch("--format", format, "--out", full).code).toBe(0);
    const text = readFileSync(full, "utf8");
    // Two whole lines and half of the third, as a run killed while writing it leaves them.
    const lines = text.split("\n");
    writeFileSync(part, `${lines.slice(0, 2).join("\n")}\n${lines[2]!.slice(0, 20)}`);
    const resumed = batch("--format", format, "--out", part, "--resume");
    expect(resumed.code).toBe(0);
    expect(readFileSync(part, "utf8")).toBe(text);
  },
);

test("--resume without --out is refused", () => {
  const r = batch("--resume");
  expect(r.code).toBe(2);
  expect(r.err).toContain("--resume needs --out");
});
