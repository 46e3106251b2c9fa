/**
 * The batch CLI planning door-to-door chains (--multimodal) on the real build: rows with their own
 * options, one NDJSON line each in input order, the multimodal response data or the error inline.
 */
import { expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { check } from "@placemarkio/check-geojson";
import { parsePairs } from "../../engine/batch.ts";
import { BUILD_DIR, ROOT } from "../distance-sea/fixture.ts";

test("parsePairs keeps a row's multimodal options (CSV columns, NDJSON fields)", () => {
  expect(parsePairs('from,to,modes,optimize\nDEDUI,CHBSL,"RIVER,ROAD",time\nA,B,,\n')).toEqual([
    { row: 0, from: "DEDUI", to: "CHBSL", options: { modes: "RIVER,ROAD", optimize: "time" } },
    { row: 1, from: "A", to: "B" },
  ]);
  expect(parsePairs('{"from":"A","to":"B","pol":"NLRTM","cargo_tonnes":20}\n')).toEqual([
    { row: 0, from: "A", to: "B", options: { pol: "NLRTM", cargo_tonnes: "20" } },
  ]);
});

test("batch --multimodal writes each row's chains in input order, errors inline", async () => {
  const dir = await mkdtemp(join(tmpdir(), "batch-mm-"));
  try {
    const input = join(dir, "pairs.csv");
    const out = join(dir, "out.ndjson");
    await writeFile(
      input,
      [
        "id,from,to,modes,optimize,cargo_tonnes",
        "a,Madrid,Lisbon,ROAD,,",
        'b,Budapest,Istanbul,"SEA,ROAD,RIVER",time,',
        'c,"0,0",Paris,,,',
        "d,DEDUI,CHBSL,RIVER,,10",
        "e,Madrid,Lisbon,BOAT,,",
      ].join("\n"),
    );
    const p = Bun.spawnSync(
      [
        process.execPath,
        join(ROOT, "api/cli/main.ts"),
        "route",
        "batch",
        input,
        "--multimodal",
        "--date",
        "2026-06-15",
      ].concat(["--out", out, "--workers", "1", "--build-dir", BUILD_DIR]),
      { stderr: "pipe" },
    );
    expect(p.exitCode, p.stderr.toString()).toBe(0);
    const lines = (await readFile(out, "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.id, l.ok])).toEqual([
      ["a", true],
      ["b", true],
      ["c", false],
      ["d", true],
      ["e", false],
    ]);
    // The response data of GET /v1/distance/multimodal, the engine's diagnostics left out.
    expect(Object.keys(lines[0].data)).toEqual([
      "from",
      "to",
      "transport_modes",
      "optimize",
      "routing_mode",
      "avoided",
      "route",
      "alternatives",
      "seasonal_notes",
    ]);
    expect(lines[0].data.route.label).toBe("Road");
    expect(lines[1].data.optimize).toBe("time");
    expect(lines[1].data.transport_modes).toEqual(["SEA", "ROAD", "RIVER"]);
    expect(lines[2].error.code).toBe("no_route");
    expect(lines[3].data.route.label).toBe("River");
    expect(lines[3].data.date).toBe("2026-06-15");
    expect(lines[3].data.route.summary.emissions.cargo_tonnes).toBe(10);
    expect(lines[4].error.code).toBe("invalid_request");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);

test("batch --multimodal --format geojson: a chain's sections drawn as one line, an error as null geometry", async () => {
  const dir = await mkdtemp(join(tmpdir(), "batch-mm-geojson-"));
  try {
    const input = join(dir, "pairs.csv");
    await writeFile(input, ["id,from,to,modes", "a,DEDUI,CHBSL,RIVER", "e,Madrid,Lisbon,BOAT"].join("\n"));
    const cli = [process.execPath, join(ROOT, "api/cli/main.ts"), "route", "batch", input, "--multimodal"];
    const p = Bun.spawnSync(cli.concat(["--format", "geojson", "--workers", "1", "--build-dir", BUILD_DIR]), {
      stderr: "pipe",
    });
    expect(p.exitCode, p.stderr.toString()).toBe(0);
    const collection = check(p.stdout.toString());
    if (collection.type !== "FeatureCollection") throw new Error(`a ${collection.type}`);
    const [a, e] = collection.features;
    expect(a!.properties).toMatchObject({ id: "a", ok: true, label: "River", error_code: null });
    if (a!.geometry?.type !== "LineString") throw new Error(`a ${a!.geometry?.type}`);
    // Duisburg (51.4 N, 6.8 E) up the Rhine to Basel (47.6 N, 7.6 E), access legs included.
    const [first, last] = [a!.geometry.coordinates[0]!, a!.geometry.coordinates.at(-1)!];
    expect(Math.abs(first[0]! - 6.8) + Math.abs(first[1]! - 51.4)).toBeLessThan(1);
    expect(Math.abs(last[0]! - 7.6) + Math.abs(last[1]! - 47.6)).toBeLessThan(1);
    expect(e!.geometry).toBeNull();
    expect(e!.properties).toMatchObject({ id: "e", ok: false, error_code: "invalid_request" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
