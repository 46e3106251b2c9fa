/**
 * The sea-route response cache (api/distance/route-cache.ts): over many random option combinations
 * the app with the cache answers exactly what the app without it answers, byte for byte but for
 * meta.took_ms, whichever queries came before; the envelope written around cached text is the one
 * JSON.stringify writes; and the cache's bounds (entries, text) hold.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import fc from "fast-check";
import { distanceApp } from "../../api/distance/app.ts";
import { RouteCache, type RouteQuery, routeKey } from "../../api/distance/route-cache.ts";
import { RenderedJson, successBody, successJson } from "../../api/shared/envelopes.ts";
import { PRODUCTS } from "../../api/shared/products.ts";
import { PASSAGE_IDS } from "../../engine/sea/policy.ts";
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

/** The body with meta.took_ms (the only per-request field) blanked. */
const withoutTook = (body: string) => body.replace(/"meta":\{"took_ms":[-0-9.e+]+\}\}$/, '"meta":{}}');

const ask = async (app: { handle(r: Request): Promise<Response> }, path: string) => {
  const res = await app.handle(new Request(`http://localhost${path}`, bearer(key)));
  return { status: res.status, text: withoutTook(await res.text()) };
};

/**
 * A query and its neighbours (each differs from it in one parameter), asked of the cached app in a
 * random order, each twice: a key missing any parameter would hand one neighbour another's answer.
 */
const neighbourhood = fc
  .tuple(place, place, options, fc.constantFrom(...OTHER_END), options)
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
    return around.map((q) => `/v1/distance/route?${new URLSearchParams(q)}`);
  })
  .chain((paths) => fc.shuffledSubarray([...paths, ...paths], { minLength: paths.length * 2 }));

test("cached answers equal uncached ones byte for byte (but took_ms) over random queries", async () => {
  let routes = 0;
  await fc.assert(
    fc.asyncProperty(neighbourhood, async (paths) => {
      for (const path of paths) {
        const cached = await ask(p.apps.distance, path);
        const plain = await ask(uncached, path);
        expect(cached).toEqual(plain);
        if (plain.status === 200) routes++;
      }
    }),
    { numRuns: 60 },
  );
  // The property saw routes, not only errors.
  expect(routes).toBeGreaterThan(200);
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

const query = (over: Partial<RouteQuery> = {}): RouteQuery => ({
  build: "b1",
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
  speedKnots: undefined,
  routingMode: undefined,
  avoid: [],
  cargoTonnes: 1,
  path: false,
  alternatives: false,
  ...over,
});

test("every field of the query moves the key; -0, NaN and Infinity are told apart", () => {
  const base = query();
  const variants: Array<[string, Partial<RouteQuery>]> = [
    ["another build", { build: "b2" }],
    ["another origin", { from: { ...base.from, lat: 51.91 } }],
    ["another source", { from: { ...base.from, source: "wpi" } }],
    ["-0 latitude", { to: { ...base.to, lat: -0 } }],
    ["speed", { speedKnots: 14 }],
    ["NaN speed", { speedKnots: Number.NaN }],
    ["Infinity speed", { speedKnots: Number.POSITIVE_INFINITY }],
    ["routing mode", { routingMode: "safe" }],
    ["avoid", { avoid: ["suez"] }],
    ["cargo", { cargoTonnes: 2 }],
    ["path", { path: true }],
    ["alternatives", { alternatives: true }],
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
