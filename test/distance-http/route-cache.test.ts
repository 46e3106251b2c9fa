/**
 * The sea-route response cache (engine/distance/route-cache.ts): over many random option combinations
 * the app with the cache answers exactly what the app without it answers, byte for byte but for
 * meta.took_ms, whichever queries came before; the envelope written around cached text is the one
 * JSON.stringify writes; and the cache's bounds (entries, text) hold.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import fc from "fast-check";
import { distanceApp } from "../../api/distance/app.ts";
import { RenderedJson, successBody, successJson } from "../../api/shared/envelopes.ts";
import { PRODUCTS } from "../../api/shared/products.ts";
import {
  RouteCache,
  type RouteKeyParts,
  type RouteOption,
  routeKey,
} from "../../engine/distance/route-cache.ts";
import { roadConfig } from "../../engine/road/config.ts";
import { PASSAGE_IDS } from "../../engine/sea/policy.ts";
import { osrmOk } from "../distance-road/fixtures.ts";
import { bearer, makePlatform, type TestPlatform } from "../helpers/platform.ts";

let p: TestPlatform;
let key: string;
/** The same product without the cache, on the same platform (the same planner and graph). */
let uncached: ReturnType<typeof distanceApp>;
beforeAll(async () => {
  p = await makePlatform({ buildDir: join(import.meta.dir, "../../data/build"), routeCacheEntries: 50 });
  uncached = distanceApp({ ...p, config: { ...p.config, routeCacheEntries: 0 } });
  const org = await p.accounts.createOrg("route-cache", { paid: true, rateLimit: 1_000_000_000 });
  key = (await p.accounts.createKey(org.id, "distance")).key;
});
afterAll(() => p.close());

/** A few places, so that queries repeat (cache hits) and neighbours differ in one option only. */
const place = fc.constantFrom(
  "NLRTM",
  "SGSIN",
  "CNSHA",
  "USLAX",
  "DEHAM",
  "nlrtm",
  "Rotterdam",
  "51.9000,4.4800",
  "-0.0000,-80.0000",
  "0.0000,-80.0000",
  "1.2600,103.8400",
  "CHBSL",
);
/** Ends a neighbour swaps in. */
const OTHER_END = ["CNSHA", "51.9000,4.4800", "DEHAM"];
const options = fc.record(
  {
    speed_knots: fc.constantFrom("12", "12.0", "14", "20.5", "3", "41", "x"),
    avoid: fc.subarray([...PASSAGE_IDS, "atlantis"], { maxLength: 3 }).map((a) => a.join(",")),
    routing_mode: fc.constantFrom("short", "safe", "fast", "SHORT"),
    path: fc.constantFrom("true", "false", "1"),
    alternatives: fc.constantFrom("true", "false", "0"),
    cargo_tonnes: fc.constantFrom("1", "1.0", "2", "25000", "0"),
    mode: fc.constantFrom("sea", "SEA"),
  },
  { requiredKeys: [] },
);

/** The body with its per-request fields blanked: meta.took_ms, and an error's request_id. */
const withoutTook = (body: string) =>
  body
    .replace(/"meta":\{"took_ms":[-0-9.e+]+\}\}$/, '"meta":{}}')
    .replace(/,"request_id":"[^"]+"\}\}$/, "}}");

const ask = async (app: { handle(r: Request): Promise<Response> }, path: string) => {
  const res = await app.handle(new Request(`http://localhost${path}`, bearer(key)));
  return { status: res.status, text: withoutTook(await res.text()) };
};

/**
 * A query and its neighbours (each differs from it in one parameter), asked of the cached app in a
 * random order, each twice: a key missing any parameter would hand one neighbour another's answer.
 */
const neighbourhood = (
  place: fc.Arbitrary<string>,
  options: fc.Arbitrary<Record<string, string>>,
  otherEnds: readonly string[],
  endpoint = "/v1/distance/route",
) =>
  fc
    .tuple(place, place, options, fc.constantFrom(...otherEnds), options)
    .map(([from, to, opts, otherEnd, other]) => {
      const base: Record<string, string> = { from, to, ...opts };
      const around = [base, { ...base, from: otherEnd }, { ...base, to: otherEnd }];
      for (const [name, value] of Object.entries(other)) {
        if (base[name] !== value) around.push({ ...base, [name]: value });
        if (name in base) {
          const { [name]: _, ...without } = base;
          around.push(without);
        }
      }
      return around.map((q) => `${endpoint}?${new URLSearchParams(q)}`);
    })
    .chain((paths) => fc.shuffledSubarray([...paths, ...paths], { minLength: paths.length * 2 }));

/** Asks each path of each neighbourhood of the cached app and of the uncached one; counts the routes. */
async function sameAnswers(paths: fc.Arbitrary<string[]>, numRuns: number): Promise<number> {
  let routes = 0;
  await fc.assert(
    fc.asyncProperty(paths, async (list) => {
      for (const path of list) {
        const cached = await ask(p.apps.distance, path);
        const plain = await ask(uncached, path);
        expect(cached).toEqual(plain);
        if (plain.status === 200) routes++;
      }
    }),
    { numRuns },
  );
  return routes;
}

test("cached answers equal uncached ones byte for byte (but took_ms) over random queries", async () => {
  const routes = await sameAnswers(neighbourhood(place, options, OTHER_END), 60);
  // The property saw routes, not only errors.
  expect(routes).toBeGreaterThan(200);
}, 300_000);

/** Places for the land, air and river modes: cities, airports, river ports, one across an ocean. */
const landPlace = fc.constantFrom(
  "DEHAM",
  "ITMIL",
  "FRPAR",
  "DEDUI",
  "NLRTM",
  "CHBSL",
  "FRA",
  "AMS",
  "48.8566,2.3522",
  "50.1109,8.6821",
  "CNSHA",
);
const landOptions = fc.record(
  {
    mode: fc.constantFrom("road", "ROAD", "rail", "air", "river"),
    path: fc.constantFrom("true", "false"),
    alternatives: fc.constantFrom("true", "false"),
    handling: fc.constantFrom("true", "false"),
    date: fc.constantFrom("2026-02-01", "2026-08-15", "2026-13-01"),
    seasonal: fc.constantFrom("true", "false"),
    cargo_tonnes: fc.constantFrom("1", "20", "0"),
  },
  { requiredKeys: ["mode"] },
);

test("road, rail, air and river answers: cached equal uncached byte for byte (but took_ms)", async () => {
  const routes = await sameAnswers(neighbourhood(landPlace, landOptions, ["DEHAM", "FRA", "NLRTM"]), 25);
  expect(routes).toBeGreaterThan(100);
}, 300_000);

test("the envelope around cached text is JSON.stringify's, for every product", () => {
  fc.assert(
    fc.property(fc.jsonValue(), fc.double({ min: 0, max: 1e6, noNaN: true }), (data, took) => {
      for (const def of PRODUCTS) {
        expect(successJson(def, new RenderedJson(JSON.stringify(data)), took)).toBe(
          JSON.stringify(successBody(def, data, took)),
        );
      }
    }),
  );
});

/** Door-to-door options: modes, objective, ports of loading and discharge, the sea and river inputs. */
const multimodalOptions = fc.record(
  {
    modes: fc.constantFrom(
      "SEA,ROAD",
      "ROAD,RAIL",
      "SEA,ROAD,RAIL,RIVER",
      "AIR,ROAD",
      "SEA,ROAD,AIR",
      "SHIP",
    ),
    optimize: fc.constantFrom("cost", "time", "emissions", "distance"),
    pol: fc.constantFrom("NLRTM", "DEHAM", "BEANR"),
    pod: fc.constantFrom("CNSHA", "SGSIN"),
    avoid: fc.constantFrom("suez", "panama", ""),
    alternatives: fc.constantFrom("true", "false"),
    path: fc.constantFrom("false", "true"),
    date: fc.constantFrom("2026-02-01", "2026-08-15"),
    cargo_tonnes: fc.constantFrom("1", "20"),
  },
  { requiredKeys: [] },
);

test("door-to-door answers: cached equal uncached byte for byte (but took_ms)", async () => {
  const places = fc.constantFrom("48.8566,2.3522", "50.1109,8.6821", "DEDUI", "31.2304,121.4737", "SGSIN");
  const paths = neighbourhood(
    places,
    multimodalOptions,
    ["DEHAM", "52.52,13.405"],
    "/v1/distance/multimodal",
  );
  const routes = await sameAnswers(paths, 8);
  expect(routes).toBeGreaterThan(30);
}, 300_000);

test("with an external road engine, road answers are asked of it every time (not cached)", async () => {
  let asked = 0;
  const osrm = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () => {
      asked++;
      return Response.json(osrmOk());
    },
  });
  try {
    const road = roadConfig({
      PORTOLAN_ROAD_ENGINE: "osrm",
      PORTOLAN_ROAD_URL: `http://127.0.0.1:${osrm.port}`,
    });
    const app = distanceApp({ ...p, config: { ...p.config, road } });
    const path = "/v1/distance/route?from=DEHAM&to=ITMIL&mode=ROAD&alternatives=false";
    const first = await ask(app, path);
    const second = await ask(app, path);
    expect(first.status).toBe(200);
    expect(second).toEqual(first);
    expect(asked).toBe(2);
    // The sea routes of the same app are still cached: the external engine is not theirs.
    await ask(app, "/v1/distance/route?from=NLRTM&to=SGSIN");
    expect(asked).toBe(2);
  } finally {
    osrm.stop(true);
  }
});

const query = (over: Partial<RouteKeyParts> = {}): RouteKeyParts => ({
  build: "b1",
  mode: "SEA",
  from: {
    kind: "port",
    name: "Rotterdam",
    locode: "NLRTM",
    iata: null,
    country: "Netherlands",
    country_code: "NL",
    lat: 51.9,
    lng: 4.48,
    source: "main_ports",
    timezone: "Europe/Amsterdam",
  },
  to: {
    kind: "coordinates",
    name: "0,-80",
    locode: null,
    iata: null,
    country: null,
    country_code: null,
    lat: 0,
    lng: -80,
    source: "coordinates",
    timezone: null,
  },
  // The sea handler's order: speed, routing mode, avoid, cargo, path, alternatives.
  options: [undefined, undefined, [], 1, false, false],
  ...over,
});

/** The base query's options with the one at `i` replaced. */
const withOption = (i: number, value: RouteOption): Partial<RouteKeyParts> => {
  const options = [...query().options];
  options[i] = value;
  return { options };
};

test("every field of the query moves the key; -0, NaN and Infinity are told apart", () => {
  const base = query();
  const variants: Array<[string, Partial<RouteKeyParts>]> = [
    ["another build", { build: "b2" }],
    ["another mode", { mode: "ROAD" }],
    ["another origin", { from: { ...base.from, lat: 51.91 } }],
    ["another source", { from: { ...base.from, source: "wpi" } }],
    ["-0 latitude", { to: { ...base.to, lat: -0 } }],
    ["speed", withOption(0, 14)],
    ["NaN speed", withOption(0, Number.NaN)],
    ["Infinity speed", withOption(0, Number.POSITIVE_INFINITY)],
    ["speed as text", withOption(0, "14")],
    ["routing mode", withOption(1, "safe")],
    ["routing mode null", withOption(1, null)],
    ["avoid", withOption(2, ["suez"])],
    ["avoid as text", withOption(2, '["suez"]')],
    ["cargo", withOption(3, 2)],
    ["path", withOption(4, true)],
    ["alternatives", withOption(5, true)],
    ["one option more", { options: [...base.options, false] }],
  ];
  const keys = new Set([routeKey(base), ...variants.map(([, over]) => routeKey(query(over)))]);
  expect(keys.size).toBe(variants.length + 1);
  expect(routeKey(query())).toBe(routeKey(base));
});

test("bounds: the least recently used entry goes first; text beyond the budget is not kept", () => {
  const cache = new RouteCache(2, 10);
  cache.set("a", "1");
  cache.set("b", "2");
  expect(cache.get("a")).toBe("1");
  cache.set("c", "3");
  expect([cache.get("a"), cache.get("b"), cache.get("c")]).toEqual(["1", undefined, "3"]);
  cache.set("d", "12345678901");
  expect(cache.get("d")).toBeUndefined();
  cache.set("e", "123456789");
  // 9 + 1 characters fit the budget of 10; "a" (the least recent) made room.
  expect([cache.get("a"), cache.get("c"), cache.get("e")]).toEqual([undefined, "3", "123456789"]);
  const off = new RouteCache(0);
  off.set("a", "1");
  expect([off.enabled, off.get("a"), off.size]).toEqual([false, undefined, 0]);
});
