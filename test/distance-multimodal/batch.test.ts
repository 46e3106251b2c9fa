/**
 * The batch CLI planning door-to-door chains (--multimodal) on the real build: rows with their own
 * options, one NDJSON line each in input order, the multimodal response data or the error inline.
 */
import { expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
