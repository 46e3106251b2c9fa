/**
 * The built sea graph keeps sea routes off inland river lanes: places up the Rhine,
 * the Maas, the German canals and the Volga are reached only through the "inland" gate, which no
 * query opens; sea ports on seagoing estuaries, ship channels and the Great Lakes route as if the
 * gate did not exist.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_MASK, GATE_IDS, PASSAGE_IDS, passageBit } from "../../engine/sea/policy.ts";
import { STATUS } from "../../router-wasm/binding/router.ts";
import { errorCode, errorProblems } from "../helpers/envelopes.ts";
import { bearer, makePlatform, type TestPlatform } from "../helpers/platform.ts";
import { BUILD_DIR, seaRouter } from "./fixture.ts";

const r = await seaRouter();
const INLAND = GATE_IDS.indexOf("inland") + 1;
const OPEN_INLAND = DEFAULT_MASK & ~passageBit("inland");

const rotterdam = { lat: 51.9, lng: 4.4667, name: "Rotterdam" };
const newYork = { lat: 40.7, lng: -74.0167, name: "New York" };

describe("inland places: only the inland gate leads there", () => {
  const places: Array<[string, number, number]> = [
    ["Duisburg", 51.4347, 6.7625],
    ["Cologne", 50.9375, 6.9603],
    ["Liege", 50.6326, 5.5797],
    ["Magdeburg", 52.1205, 11.6276],
    ["Berlin", 52.52, 13.405],
    ["Nizhny Novgorod", 56.3269, 44.0059],
  ];
  test.each(places)("Rotterdam -> %s", (name, lat, lng) => {
    const to = { lat, lng, name };
    expect(r.routeRaw(rotterdam, to, DEFAULT_MASK, false).status).toBe(STATUS.noRoute);
    const upRiver = r.routeRaw(rotterdam, to, OPEN_INLAND, false);
    expect(upRiver.status).toBe(STATUS.found);
    expect(upRiver.gates).toContain(INLAND);
    expect(() => r.plan({ from: rotterdam, to })).toThrow(
      `no sea route between Rotterdam and ${name}: the sea lanes stop where inland waterways begin`,
    );
  });
});

describe("sea ports on seagoing water route as before", () => {
  const from = { Rotterdam: rotterdam, "New York": newYork };
  const ports: Array<[keyof typeof from, string, number, number]> = [
    ["Rotterdam", "Hamburg", 53.5459, 9.9666],
    ["Rotterdam", "Antwerp", 51.2408, 4.4078],
    ["Rotterdam", "Brussels", 50.8667, 4.35],
    ["Rotterdam", "Rouen", 49.45, 1.0667],
    ["Rotterdam", "Amsterdam", 52.3667, 4.9],
    ["Rotterdam", "Sankt-Peterburg", 59.9343, 30.3351],
    ["Rotterdam", "Bangkok", 13.75, 100.5],
    ["Rotterdam", "Montreal", 45.5077, -73.5509],
    ["New York", "Chicago", 41.8833, -87.6],
    ["New York", "Houston", 29.73, -95.2724],
    ["New York", "New Orleans", 29.95, -90.05],
  ];
  test.each(ports)("%s -> %s", (origin, name, lat, lng) => {
    const to = { lat, lng, name };
    const sea = r.routeRaw(from[origin], to, DEFAULT_MASK, false);
    expect(sea.status).toBe(STATUS.found);
    expect(sea.gates).not.toContain(INLAND);
    expect(sea.metres).toBe(r.routeRaw(from[origin], to, OPEN_INLAND, false).metres);
  });
});

test("the build's summary lists what the gate marked: rivers and canals, no seagoing water", () => {
  const gate = JSON.parse(readFileSync(join(BUILD_DIR, "sea.summary.json"), "utf8")).inland_gate as {
    km: number;
    by_waterway: Array<{ id: string; cemt_class: string; edges: number; km: number }>;
  };
  const ids = gate.by_waterway.map((w) => w.id);
  for (const id of ["EU_DE_RHINE_CK", "EU_NL_WAAL", "EU_NL_MAAS", "EU_DE_MLK", "EU_DE_ESK", "RU_VOLGA_MID"])
    expect(ids).toContain(id);
  expect(gate.by_waterway.filter((w) => /seagoing|^seaway/i.test(w.cemt_class))).toEqual([]);
  // Per-waterway km are rounded one by one.
  const sum = gate.by_waterway.reduce((n, w) => n + w.km, 0);
  expect(Math.abs(sum - gate.km)).toBeLessThanOrEqual(gate.by_waterway.length / 2);
});

describe("over HTTP", () => {
  let p: TestPlatform;
  let key: string;
  beforeAll(async () => {
    p = await makePlatform({ buildDir: BUILD_DIR });
    const org = await p.accounts.createOrg("inland", { paid: true, rateLimit: 100_000 });
    key = (await p.accounts.createKey(org.id, "distance")).key;
  });
  afterAll(() => p.close());
  const get = async (path: string) => {
    const res = await p.call("distance", path, bearer(key));
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  test("NLRTM -> DEDUI does not sail up the Rhine: no_route, saying where the sea lanes stop", async () => {
    const { status, body } = await get("/v1/distance/route?from=NLRTM&to=DEDUI");
    expect(status).toBe(422);
    expect(errorProblems("distance", body)).toEqual([]);
    expect(errorCode(body)).toBe("no_route");
    expect(JSON.stringify(body)).toContain("the sea lanes stop where inland waterways begin");
  });

  test("inland is not a passage a caller may name", async () => {
    const { status, body } = await get("/v1/distance/route?from=NLRTM&to=DEHAM&avoid=inland");
    expect(status).toBe(400);
    expect(errorCode(body)).toBe("invalid_request");
    expect(JSON.stringify(body)).toContain(`known passages: ${PASSAGE_IDS.join(", ")}`);
    expect(PASSAGE_IDS as readonly string[]).not.toContain("inland");
  });
});
