/**
 * One distance engine behind the API and the CLI (engine/distance/engine.ts): the same requests,
 * asked over HTTP, as rows of `portolan route batch` and one at a time as `portolan route`,
 * `multimodal` and `locations` (the query's parameters as flags, --json), get the same data or the
 * same error. The tables cover the mode aliases (TRUCK, barge), the sea-port rule for a sea route's
 * ends and for pol / pod (Basel is a UN/LOCODE river port, not a sea port), options per row and
 * errors: the one-off commands exit 2 naming the flag of an invalid parameter, 1 with the code of
 * any other error.
 */
// Runs once, on SQLite: the subject is the distance engine behind HTTP and the CLI; the database only holds the key.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BOOLEAN_PARAMETERS } from "../../engine/distance/requests.ts";
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
  // A locations search has neither end.
  const query = new URLSearchParams({ ...(from && { from }), ...(to && { to }), ...options });
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

/**
 * [command, query, the flag an invalid_request names]: the HTTP path is the command's; a "true"
 * switch is given bare (--path).
 */
type Question = [string, Record<string, string>, string?];

const QUESTIONS: Question[] = [
  ["route", { from: "NLRTM", to: "SGSIN" }],
  ["route", { from: "NLRTM", to: "SGSIN", alternatives: "true", speed_knots: "12", avoid: "suez" }],
  ["route", { from: "Basel", to: "Rotterdam" }],
  ["route", { from: "Madrid", to: "Lisbon", mode: "TRUCK", path: "true" }],
  ["route", { from: "DEDUI", to: "CHBSL", mode: "barge", date: DATE, cargo_tonnes: "10" }],
  ["route", { from: "ZZZZZ", to: "NLRTM" }],
  ["route", { from: "NLRTM", to: "SGSIN", speed_knots: "50" }, "--speed-knots"],
  ["route", { from: "NLRTM", to: "SGSIN", routing_mode: "scenic" }, "--routing-mode"],
  ["route", { from: "Madrid", to: "Lisbon", mode: "BOAT" }, "--mode"],
  ["multimodal", { from: "Madrid", to: "Lisbon", modes: "ROAD", date: DATE }],
  ["multimodal", { from: "Munich", to: "Shanghai", pol: "DEHAM", pod: "CNSHA", date: DATE }],
  ["multimodal", { from: "Munich", to: "Shanghai", pol: "CHBSL", date: DATE }, "--pol"],
  ["multimodal", { from: "Madrid", to: "Lisbon", modes: "BOAT", date: DATE }, "--modes"],
  ["locations", { q: "rotter", limit: "5" }],
  ["locations", { q: "Hamburg", types: "port,airport", geocode: "false" }],
  ["locations", { q: "r" }, "--q"],
];

async function oneOff(command: string, query: Record<string, string>) {
  const flags = Object.entries(query).flatMap(([name, value]) => {
    const flag = `--${name.replaceAll("_", "-")}`;
    const isSwitch = (BOOLEAN_PARAMETERS as readonly string[]).includes(name) && value === "true";
    return isSwitch ? [flag] : [flag, value];
  });
  const cli = [join(ROOT, "bin/portolan"), command, ...flags, "--json", "--build-dir", BUILD_DIR];
  const run = Bun.spawn(cli, { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([
    new Response(run.stdout).text(),
    new Response(run.stderr).text(),
    run.exited,
  ]);
  return code === 0 ? { code, data: JSON.parse(out) } : { code, err: err.trim() };
}

test("one question is the same answer over HTTP and from portolan route, multimodal or locations", async () => {
  for (const [command, query, flag] of QUESTIONS) {
    const { from = "", to = "", ...rest } = query;
    const http = await overHttp(`/v1/distance/${command}`, [from, to, rest]);
    const expected =
      "data" in http
        ? { code: 0, data: http.data }
        : http.error.code === "invalid_request"
          ? { code: 2, err: `portolan: ${flag}: ${http.error.message}` }
          : { code: 1, err: `portolan: ${http.error.code}: ${http.error.message}` };
    expect({ command, query, ...(await oneOff(command, query)) }).toEqual({ command, query, ...expected });
  }
}, 240_000);
