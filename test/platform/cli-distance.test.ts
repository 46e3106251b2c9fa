/**
 * `portolan route`, `multimodal` and `locations` as a shell user meets them, through real
 * `bin/portolan` processes on the real build: the short answer says what --json holds (each
 * figure, leg and alternative), the true-or-false parameters are switches, --help lists every
 * query parameter of the HTTP schema, and a refused command exits 2 naming the flag. (That --json
 * equals the HTTP answer's data: test/distance-http/engine-parity.test.ts.)
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { LOCATIONS_QUERY, MULTIMODAL_QUERY, ROUTE_QUERY } from "../../api/distance/schemas.ts";

const ROOT = join(import.meta.dir, "../..");

function cli(...args: string[]) {
  const r = Bun.spawnSync([join(ROOT, "bin/portolan"), ...args], { cwd: ROOT });
  return { code: r.exitCode, out: r.stdout.toString().trim().split("\n"), err: r.stderr.toString().trim() };
}

const json = (...args: string[]) => {
  const r = cli(...args, "--json");
  expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: "" });
  return JSON.parse(r.out.join("\n"));
};

test("a sea route's summary is its --json data: distance, time, CO2e and passages", () => {
  const ask = ["route", "--from", "NLRTM", "--to", "SGSIN", "--speed-knots", "12"];
  const { route } = json(...ask);
  const { distance: d, transit: t } = route;
  expect(cli(...ask).out).toEqual([
    "Rotterdam (NLRTM) to Singapore (SGSIN)",
    `Direct: ${d.nm} nm (${d.km} km), ${t.hours} h (${t.days} days) at 12 kn, ${route.emissions.co2e_kg} kg CO2e for 1 t`,
    `  via ${route.passages.map((p: { name: string }) => p.name).join(", ")}`,
  ]);
});

test("a door-to-door summary has a line per section and one per alternative", () => {
  const ask = ["multimodal", "--from", "Munich", "--to", "Shanghai", "--date", "2026-06-15"];
  const data = json(...ask);
  const out = cli(...ask).out;
  const sections = data.route.sections as { transport_mode: string; distance: { km: number } }[];
  expect(out[0]).toBe("Munich to Shanghai (CNSHA)");
  expect(out[1]).toStartWith(`${data.route.label}: ${data.route.summary.distance.km} km`);
  expect(out.slice(2, 2 + sections.length).map((l) => [l.trim().split(" ")[0], l.endsWith(" h")])).toEqual(
    sections.map((s) => [s.transport_mode, true]),
  );
  expect(out.slice(2 + sections.length)).toHaveLength(data.alternatives.length);
  expect(data.alternatives.length).toBeGreaterThan(0);
});

test("locations prints one line per place, best first", () => {
  const places = json("locations", "--q", "rotter", "--limit", "3");
  const out = cli("locations", "--q", "rotter", "--limit", "3").out;
  expect(places).toHaveLength(3);
  expect(out.map((l) => l.split(/\s+/)[0])).toEqual(places.map((p: { kind: string }) => p.kind));
  expect(out[0]).toContain(`${places[0].name} (${places[0].locode})`);
});

test("true-or-false parameters are switches: bare is true, a value is read as HTTP reads it", () => {
  const route = (...flags: string[]) => json("route", "--from", "NLRTM", "--to", "DEHAM", ...flags).route;
  expect(route("--path").path).toBeArray();
  expect(route("--path", "false").path).toBeUndefined();
  const bad = cli("route", "--from", "NLRTM", "--to", "DEHAM", "--path", "maybe");
  expect({ code: bad.code, err: bad.err }).toEqual({
    code: 2,
    err: 'portolan: --path: path must be true or false; got "maybe".',
  });
});

test("--help lists every query parameter of the HTTP schema as a flag", () => {
  for (const [command, schema] of [
    ["route", ROUTE_QUERY],
    ["multimodal", MULTIMODAL_QUERY],
    ["locations", LOCATIONS_QUERY],
  ] as const) {
    const help = cli(command, "--help").out.join("\n");
    const flags = Object.keys(schema.properties).map((p) => `--${p.replaceAll("_", "-")}`);
    expect({ command, missing: flags.filter((f) => !help.includes(`  ${f} `)) }).toEqual({
      command,
      missing: [],
    });
  }
});

test("a missing end, an excess word and an invalid value exit 2 naming what is wrong", () => {
  const missing = cli("route", "--from", "NLRTM");
  expect({ code: missing.code, err: missing.err }).toEqual({ code: 2, err: "portolan: --to is required" });
  const excess = cli("route", "NLRTM", "SGSIN");
  expect(excess.code).toBe(2);
  expect(excess.err).toMatch(/usage: portolan route \[flags\]\|batch/);
  const limit = cli("locations", "--q", "rotter", "--limit", "500");
  expect({ code: limit.code, err: limit.err }).toEqual({
    code: 2,
    err: "portolan: --limit: limit must be an integer from 1 to 50",
  });
});
