import { expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parsePairs } from "../../engine/batch.ts";
import { BUILD_DIR, ROOT, seaRouter } from "./fixture.ts";

test("parsePairs reads CSV (names or coordinate columns) and NDJSON", () => {
  expect(parsePairs('id,from,to\na,"51.9,4.46",SGSIN\n')).toEqual([
    { row: 0, id: "a", from: "51.9,4.46", to: "SGSIN" },
  ]);
  expect(parsePairs("from_lat,from_lng,to_lat,to_lng\n1,2,3,4\n")).toEqual([
    { row: 0, from: "1,2", to: "3,4" },
  ]);
  expect(parsePairs('{"from":"NLRTM","to":"1.3,103.8","id":7}\n')).toEqual([
    { row: 0, from: "NLRTM", to: "1.3,103.8", id: "7" },
  ]);
  expect(() => parsePairs("a,b\n1,2\n")).toThrow("CSV header");
});

test("batch CLI writes one NDJSON line per pair, in input order, errors inline", async () => {
  await seaRouter(); // builds the artifacts when missing
  const dir = await mkdtemp(join(tmpdir(), "batch-"));
  try {
    const input = join(dir, "pairs.csv");
    const out = join(dir, "out.ndjson");
    const rows = [
      "id,from,to",
      '1,"51.9,4.4667","1.2667,103.8333"',
      '2,"0,0","45,-30"',
      '3,"40.42,-3.70","51.9,4.4667"',
    ];
    for (let i = 4; i <= 150; i++) rows.push(`${i},"31.23,121.49","${(i % 40) + 1},${-150 + i / 10}"`);
    await writeFile(input, `${rows.join("\n")}\n`);
    const p = Bun.spawnSync(
      [
        process.execPath,
        join(ROOT, "api/cli/main.ts"),
        "route",
        "batch",
        input,
        "--out",
        out,
        "--workers",
        "2",
        "--build-dir",
        BUILD_DIR,
      ],
      { stderr: "pipe" },
    );
    expect(p.exitCode).toBe(0);
    expect(p.stderr.toString()).toContain("150/150 pairs");
    const lines = (await readFile(out, "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.row)).toEqual(lines.map((_, i) => i));
    expect(lines[0].ok).toBe(true);
    expect(lines[0].data.route.distance.nm).toBeGreaterThan(8000);
    expect(lines[0].data.from.lat).toBe(51.9);
    expect(lines[2]).toMatchObject({ id: "3", ok: false, error: { code: "no_route" } });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
