/**
 * One distance engine behind the API and the batch CLI (engine/distance/engine.ts): the same
 * requests, asked over HTTP and as rows of `portolan route batch`, get the same data or the same
 * error. The table covers the mode aliases (TRUCK, barge), the sea-port rule for a sea route's
 * ends and for pol / pod (Basel is a UN/LOCODE river port, not a sea port), options per row and
 * errors.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeRoutePlanners } from "../../engine/services.ts";
import { BUILD_DIR, ROOT } from "../distance-sea/fixture.ts";
import type { TestPlatform } from "../helpers/platform.ts";
import { chainClient } from "./chain-client.ts";

const DATE = "2026-06-15";

/** [from, to, the row's other parameters]: each a sea route (no options) or a door-to-door request. */
type Row = [string, string, Record<string, string>];

const SEA: Row[] = [
  ["NLRTM", "SGSIN", {}],
  ["51.9,4.4667", "1.2667,103.8333", {}],
  ["CHBSL", "NLRTM", {}],
  ["Basel", "Rotterdam", {}],
  ["ZZZZZ", "NLRTM", {}],
];

const MULTIMODAL: Row[] = [
  ["Madrid", "Lisbon", { modes: "ROAD" }],
  ["Madrid", "Lisbon", { modes: "TRUCK" }],
  ["Budapest", "Istanbul", { modes: "sea,truck,barge", optimize: "time" }],
  ["Munich", "Shanghai", { pol: "DEHAM", pod: "CNSHA", cargo_tonnes: "5" }],
  ["Munich", "Shanghai", { pol: "CHBSL" }],
  ["Munich", "Shanghai", { pod: "XXZZZ" }],
  ["DEDUI", "CHBSL", { modes: "RIVER", cargo_tonnes: "10" }],
  ["Madrid", "Lisbon", { modes: "BOAT" }],
];

let p: TestPlatform;
let get: Awaited<ReturnType<typeof chainClient>>["get"];
let dir: string;
beforeAll(async () => {
  ({ p, get } = await chainClient("engine-parity"));
  dir = await mkdtemp(join(tmpdir(), "engine-parity-"));
});
afterAll(async () => {
  await closeRoutePlanners();
  await p.close();
  rmSync(dir, { recursive: true, force: true });
});

/** An answer as both paths carry it: the data, or the error's code and message. */
type Answer = { data: unknown } | { error: { code: string; message: string } };

async function overHttp(path: string, [from, to, options]: Row): Promise<Answer> {
  const query = new URLSearchParams({ from, to, ...options });
  const body = (await get(`${path}?${query}`)).body as {
    data?: unknown;
    error?: { code: string; message: string };
  };
  return body.error ? { error: { code: body.error.code, message: body.error.message } } : { data: body.data };
}

async function inBatch(rows: Row[], flags: string[]): Promise<Answer[]> {
  const input = join(dir, `rows-${flags.length}.ndjson`);
  const out = join(dir, `out-${flags.length}.ndjson`);
  await writeFile(input, rows.map(([from, to, o]) => JSON.stringify({ from, to, ...o })).join("\n"));
  const cli = [process.execPath, join(ROOT, "api/cli/main.ts"), "route", "batch", input, ...flags];
  const run = Bun.spawnSync(cli.concat(["--out", out, "--workers", "1", "--build-dir", BUILD_DIR]), {
    stderr: "pipe",
  });
  expect(run.exitCode, run.stderr.toString()).toBe(0);
  const lines = (await readFile(out, "utf8")).trim().split("\n");
  return lines.map((l) => JSON.parse(l)).map((l) => (l.ok ? { data: l.data } : { error: l.error }));
}

test("a sea route is the same answer over HTTP and in a batch", async () => {
  const batch = await inBatch(SEA, []);
  for (const [i, row] of SEA.entries()) {
    expect({ row, ...batch[i]! }).toEqual({ row, ...(await overHttp("/v1/distance/route", row)) });
  }
}, 120_000);

test("a door-to-door route is the same answer over HTTP and in a batch", async () => {
  const batch = await inBatch(MULTIMODAL, ["--multimodal", "--date", DATE]);
  for (const [i, row] of MULTIMODAL.entries()) {
    const http = await overHttp("/v1/distance/multimodal", [row[0], row[1], { ...row[2], date: DATE }]);
    expect({ row, ...batch[i]! }).toEqual({ row, ...http });
  }
}, 180_000);
