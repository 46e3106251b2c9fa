/**
 * GET /v1/distance/multimodal over HTTP on the real build (real WASM router, route worker pool):
 * door-to-door chains between real cities, each answer checked for being reasonable and the
 * reason written beside it; the RIVER-only winter closure; pol/pod; bad input.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import fc from "fast-check";
import { distanceApp } from "../../api/distance/app.ts";
import { closeRoutePlanners } from "../../engine/services.ts";
import { errorCode, successProblems } from "../helpers/envelopes.ts";
import { bearer, type TestPlatform } from "../helpers/platform.ts";
import {
  type ChainPoint,
  type ChainShape,
  type ChainTransfer,
  chainClient,
  checkChain,
  type Distance,
  type Duration,
} from "./chain-client.ts";

let p: TestPlatform;
let get: Awaited<ReturnType<typeof chainClient>>["get"];
beforeAll(async () => {
  ({ p, get } = await chainClient("multimodal"));
});
afterAll(() => p.close());

type Point = ChainPoint;
type Section = ChainShape["sections"][number] & {
  from: Point;
  to: Point;
  distance: Distance;
  duration: Duration;
  speed_knots?: number;
  passages?: Array<{ id: string; name: string }>;
  ferry_paths?: unknown[];
};
type Chain = Omit<ChainShape, "sections" | "transfers"> & {
  label: string;
  sections: Section[];
  transfers: ChainTransfer[];
  estimated: boolean;
};
type Data = {
  from: Point;
  to: Point;
  transport_modes: string[];
  optimize: string;
  routing_mode: string;
  avoided: string[];
  route: Chain;
  alternatives: Chain[];
  date?: string;
  seasonal_notes: Array<{ id: string; kind: string; effect: string }>;
};

const SUMMER = "date=2026-06-15";
const multimodal = async (q: string) => {
  const { status, body } = await get(`/v1/distance/multimodal?${q}`);
  expect(status, JSON.stringify(body).slice(0, 400)).toBe(200);
  expect(successProblems("distance", body)).toEqual([]);
  expect(typeof (body.meta as { took_ms: unknown }).took_ms).toBe("number");
  const data = body.data as Data;
  for (const c of [data.route, ...data.alternatives]) checkChain(c);
  return data;
};
const all = (d: Data) => [d.route, ...d.alternatives];
const sea = (c: Chain) => c.sections.find((s) => s.transport_mode === "SEA")!;
const modesBefore = (c: Chain, mode: string) =>
  c.sections
    .slice(
      0,
      c.sections.findIndex((s) => s.transport_mode === mode),
    )
    .map((s) => s.transport_mode);
const RHINE_DELTA = ["NLRTM", "BEANR"];

describe("real city pairs", () => {
  test("Duisburg -> Shanghai: by sea from Rotterdam or Antwerp; by barge to the Rhine delta when river and sea only", async () => {
    const d = await multimodal(`from=Duisburg&to=Shanghai&${SUMMER}`);
    expect(d.transport_modes).toEqual(["SEA", "ROAD", "RAIL", "AIR", "RIVER"]);
    expect(d.optimize).toBe("cost");
    expect(d.date).toBe("2026-06-15");
    // The cheapest chain by the spec's weights sails: ~19,500 km of sea at 1 per km beats 10,800 km
    // of rail through Central Asia at 3 per km. Antwerp and Rotterdam are 165 km away: under the
    // 250 km rail threshold, so the pre-carriage is a truck.
    expect(d.route.label).toBe("Sea");
    expect(RHINE_DELTA).toContain(sea(d.route).from.locode ?? "");
    expect(modesBefore(d.route, "SEA")).toEqual(["ROAD"]);
    expect(sea(d.route).distance.km).toBeGreaterThan(18_000);
    expect(sea(d.route).distance.km).toBeLessThan(21_000);
    expect(sea(d.route).passages!.map((x) => x.id)).toContain("suez");
    expect(d.route.summary.handling_hours).toBe(48);
    // The land bridge and the flight are there too, dearer per km.
    expect(all(d).map((c) => c.label)).toEqual(expect.arrayContaining(["Rail", "Air"]));
    // The barge to the delta and the ship (Sea + River) is 1.8 x longer than that rail chain, so the
    // spec's 1.6 x rule drops it; with sea and river only it stands, and it is the cheaper way out.
    const wet = await multimodal(`from=Duisburg&to=Shanghai&modes=SEA,RIVER&${SUMMER}`);
    expect(wet.route.label).toBe("Sea + River");
    expect(modesBefore(wet.route, "SEA")).toEqual(["ROAD", "RIVER"]);
    const barge = wet.route.sections.find((s) => s.transport_mode === "RIVER")!;
    expect(barge.distance.km).toBeGreaterThan(100);
    expect(barge.distance.km).toBeLessThan(300);
    expect(barge.to.lng).toBeLessThan(5.5);
  }, 120_000);

  test("Rotterdam -> Wuhan by sea and river: the ship sails from Rotterdam and a barge carries the cargo up the Yangtze", async () => {
    const d = await multimodal(`from=Rotterdam&to=Wuhan&modes=SEA,RIVER&${SUMMER}`);
    expect(d.route.label).toBe("Sea + River");
    for (const c of all(d)) {
      // Rotterdam is a main port: no barge to Hook of Holland or Amsterdam first; the ship sails
      // from it (at most a local transfer before: "Rotterdam" names the port itself).
      expect(sea(c).from.locode).toBe("NLRTM");
      const before = c.sections.slice(0, c.sections.indexOf(sea(c)));
      expect(before.every((s) => s.transport_mode === "ROAD" && s.distance.km <= 30)).toBe(true);
      // The barge comes from a Yangtze gateway downstream (Nanjing, Shanghai: 700-1,100 km), not the
      // 2 km from the seaport at Wuhan to a river port in the same city.
      const barge = c.sections.find((s) => s.transport_mode === "RIVER")!;
      expect(barge.distance.km).toBeGreaterThan(500);
      expect(barge.from.lng).toBeGreaterThan(118);
      expect(c.sections.at(-1)!.distance.km).toBeLessThanOrEqual(30);
    }
  }, 120_000);

  test("Chicago -> Rotterdam: 1,100 km from the nearest main port, so rail or barge to the coast, then the Atlantic", async () => {
    const d = await multimodal(`from=Chicago&to=Rotterdam&${SUMMER}`);
    expect(d.route.transport_modes).toContain("SEA");
    // No truck runs 1,100 km to the coast: the spec sends inland legs above 250 km by rail, and a
    // barge chain reaches the sea by water.
    const before = modesBefore(d.route, "SEA");
    expect(before.some((m) => m === "RAIL" || m === "RIVER")).toBe(true);
    const s = sea(d.route);
    expect(s.distance.km).toBeGreaterThan(5_000);
    expect(s.distance.km).toBeLessThan(10_000);
    // Rotterdam itself, Antwerp, or the Rhine delta's gateways: the last leg is short.
    const after = d.route.sections.slice(d.route.sections.indexOf(s) + 1);
    expect(after.reduce((km, x) => km + x.distance.km, 0)).toBeLessThan(200);
    // The Atlantic: no road or rail chain joins the two.
    expect(all(d).some((c) => c.label === "Road" || c.label === "Rail")).toBe(false);
  }, 120_000);

  test("Budapest -> Istanbul: the Danube and the Black Sea are cheapest, the truck is fastest", async () => {
    const q = `from=Budapest&to=Istanbul&modes=SEA,ROAD,RIVER&${SUMMER}`;
    const cheap = await multimodal(q);
    // Barge 1,300 km down the Danube (1.8 per km) and 350 km by sea beat 1,360 km of road (6 per km).
    expect(cheap.route.transport_modes).toContain("RIVER");
    expect(cheap.route.transport_modes).toContain("SEA");
    const road = all(cheap).find((c) => c.label === "Road")!;
    expect(road.summary.distance.km).toBeGreaterThan(1_200);
    expect(road.summary.distance.km).toBeLessThan(1_600);
    expect(road.summary.cost_index).toBeGreaterThan(cheap.route.summary.cost_index);
    // By time the truck wins: under two days against a week of barge, ship and handling.
    const fast = await multimodal(`${q}&optimize=time`);
    expect(fast.route.label).toBe("Road");
    expect(fast.route.summary.duration.hours).toBeLessThan(48);
    const wet = all(fast).find((c) => c.transport_modes.includes("RIVER"))!;
    expect(wet.summary.duration.hours).toBeGreaterThan(fast.route.summary.duration.hours * 2);
  }, 120_000);

  test("Frankfurt -> Chicago with AIR allowed: by time the flight from FRA; by cost it is last", async () => {
    const fast = await multimodal(`from=Frankfurt&to=Chicago&optimize=time&${SUMMER}`);
    expect(fast.route.label).toBe("Air");
    const flight = fast.route.sections.find((s) => s.transport_mode === "AIR")!;
    // "Frankfurt" is the city, 12 km from FRA: the flight leaves from FRA to O'Hare.
    expect(flight.from.iata).toBe("FRA");
    expect(flight.to.iata).toBe("ORD");
    expect(flight.distance.km).toBeGreaterThan(6_900);
    expect(flight.distance.km).toBeLessThan(7_500);
    // 12 h at each airport, ~9.5 h in the air, a short drive: under a day and a half door to door.
    expect(fast.route.summary.duration.hours).toBeLessThan(36);
    const cheap = await multimodal(`from=Frankfurt&to=Chicago&${SUMMER}`);
    expect(cheap.route.transport_modes).toContain("SEA");
    expect(cheap.alternatives.at(-1)!.label).toBe("Air");
  }, 120_000);

  test("Rotterdam -> Antwerp: the Belgian port, a short chain, not a namesake in Ohio", async () => {
    const d = await multimodal(`from=Rotterdam&to=Antwerp&${SUMMER}`);
    expect(d.to).toMatchObject({ kind: "port", locode: "BEANR" });
    // About 100 km apart by road or rail; the Ohio namesake was ~7,000 km via the Atlantic. The
    // longest alternative is a coastal sea chain between other ports of the range.
    expect(d.route.summary.distance.km).toBeLessThan(250);
    expect(Math.max(...all(d).map((c) => c.summary.distance.km))).toBeLessThan(1_000);
  }, 120_000);

  test("Madrid -> Lisbon: the road chain, 600-700 km in about a day's driving", async () => {
    const d = await multimodal(`from=Madrid&to=Lisbon&optimize=time&${SUMMER}`);
    expect(d.route.label).toBe("Road");
    expect(d.route.transport_modes).toEqual(["ROAD"]);
    const road = d.route.sections[0]!;
    expect(road.distance.km).toBeGreaterThan(550);
    expect(road.distance.km).toBeLessThan(750);
    // ~8 h of driving: one 9 h stint, no rest and no ferry on the way.
    expect(road.duration.hours).toBeLessThan(10);
    expect(road.ferry_paths).toEqual([]);
    // By cost the rail chain wins (3 per km against 6); the road chain is still offered.
    const cheap = await multimodal(`from=Madrid&to=Lisbon&${SUMMER}`);
    expect(cheap.route.label).toBe("Rail");
    expect(all(cheap).some((c) => c.label === "Road")).toBe(true);
  }, 120_000);
});

describe("parameters", () => {
  test("modes=RIVER with the Volga closed in winter: 422 no_route listing the closure, window and reopening", async () => {
    const { status, body } = await get(
      "/v1/distance/multimodal?from=Volgograd&to=Astrakhan&modes=RIVER&date=2026-01-20",
    );
    expect(status).toBe(422);
    expect(errorCode(body)).toBe("no_route");
    const message = (body.error as { message: string }).message;
    expect(message).toMatch(/closed on 2026-01-20/);
    expect(message).toMatch(/typically [^;]+; reopens about 2026-0[3-5]-\d\d/);
    // The same day with the road allowed: the road chain, the closure as a note.
    const d = await multimodal("from=Volgograd&to=Astrakhan&modes=RIVER,TRUCK&date=2026-01-20");
    expect(d.route.label).toBe("Road");
    expect(d.seasonal_notes.some((n) => n.kind === "closure" && n.effect === "no_route")).toBe(true);
  }, 120_000);

  test("modes=SEA between two inland cities is 422 no_route; between port cities the chain sails, by no other mode", async () => {
    const { status, body } = await get("/v1/distance/multimodal?from=Munich&to=Vienna&modes=SEA");
    expect(status).toBe(422);
    expect(errorCode(body)).toBe("no_route");
    expect((body.error as { message: string }).message).toMatch(/ROAD is not among the modes/);
    const d = await multimodal("from=Rotterdam&to=Singapore&modes=SEA");
    for (const c of all(d))
      for (const s of c.sections)
        if (s.transport_mode !== "SEA") {
          // The door in the port's own town: a local transfer, not a truck leg to another port.
          expect(s.transport_mode).toBe("ROAD");
          expect(s.distance.km).toBeLessThanOrEqual(30);
        }
  }, 120_000);

  test("a code that names no place: 404 location_not_found naming it", async () => {
    const { status, body } = await get("/v1/distance/multimodal?from=Rotterdam&to=QQQQQ");
    expect(status).toBe(404);
    expect(errorCode(body)).toBe("location_not_found");
    expect((body.error as { message: string }).message).toContain("QQQQQ");
  });

  test("pol and pod fix the ports; a river port is not a sea port", async () => {
    const d = await multimodal(`from=Duisburg&to=Shanghai&pol=DEHAM&pod=CNNBG&${SUMMER}`);
    for (const c of all(d)) {
      expect(sea(c).from.locode).toBe("DEHAM");
      expect(c.sections.findLast((s) => s.transport_mode === "SEA")!.to.locode).toBe("CNNBG");
    }
    const { status, body } = await get("/v1/distance/multimodal?from=Duisburg&to=Shanghai&pol=DEDUI");
    expect(status).toBe(400);
    expect(errorCode(body)).toBe("invalid_request");
  }, 120_000);

  test("aliases, emissions and the options echoed", async () => {
    const d = await multimodal(
      `from=Rotterdam&to=Basel&modes=BARGE,TRUCK&optimize=emissions&cargo_tonnes=20&speed_knots=12&avoid=suez&routing_mode=safe&${SUMMER}`,
    );
    expect(d.transport_modes).toEqual(["ROAD", "RIVER"]);
    expect(d.optimize).toBe("emissions");
    expect(d.routing_mode).toBe("safe");
    expect(d.avoided).toEqual(["suez", "babelmandeb"]);
    const road = all(d).find((c) => c.label === "Road")!;
    expect((road.summary as { emissions: { cargo_tonnes: number } }).emissions.cargo_tonnes).toBe(20);
  }, 120_000);

  test.each([
    "modes=SEA,BOAT",
    "optimize=cheapest",
    "speed_knots=2",
    "speed_knots=fast",
    "avoid=atlantis",
    "routing_mode=scenic",
    "date=2026-02-30",
    "alternatives=maybe",
    "cargo_tonnes=-1",
    "pol=XXXXX",
    "modes=ROAD&pol=NLRTM",
  ])("%s is invalid_request", async (q) => {
    const { status, body } = await get(`/v1/distance/multimodal?from=Duisburg&to=Basel&${q}`);
    expect(status).toBe(400);
    expect(errorCode(body)).toBe("invalid_request");
  });

  test("only the spec's error codes, whatever the query", async () => {
    const value = fc.constantFrom(
      "",
      "SEA",
      "x",
      "-1",
      "true",
      "2026-06-15",
      "NLRTM",
      "ROAD,AIR",
      "0,0",
      "%20",
    );
    const field = fc.constantFrom(
      "modes",
      "optimize",
      "pol",
      "pod",
      "speed_knots",
      "avoid",
      "handling",
      "date",
      "seasonal",
      "from",
      "to",
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(field, value), { maxLength: 4 }), async (pairs) => {
        const q = new URLSearchParams([["from", "DEDUI"], ["to", "CHBSL"], ...pairs]).toString();
        const { status, body } = await get(`/v1/distance/multimodal?${q}`);
        if (status === 200) return;
        expect([400, 404, 422]).toContain(status);
        expect(["invalid_request", "location_not_found", "no_route"]).toContain(errorCode(body)!);
      }),
      { numRuns: 25 },
    );
  }, 120_000);
});

test("the route pool answers exactly as the in-thread planner (PORTOLAN_ROUTE_WORKERS=0), errors included", async () => {
  const org = await p.accounts.createOrg("multimodal in-thread", { paid: true, rateLimit: 100_000 });
  const key = (await p.accounts.createKey(org.id, "distance")).key;
  // Its own cache key for the build directory, so the pool the platform started does not answer.
  const buildDir = `${join(import.meta.dir, "../../data/build")}/`;
  const inThread = distanceApp({ ...p, config: { ...p.config, buildDir, routes: { workers: 0, queue: 0 } } });
  const pooled = distanceApp(p);
  const answer = async (app: typeof pooled, q: string) => {
    const res = await app.handle(new Request(`http://localhost/v1/distance/multimodal?${q}`, bearer(key)));
    const body = (await res.json()) as { data?: unknown; error?: Record<string, unknown> };
    // Each answer has a request id of its own.
    return JSON.stringify([res.status, body.data ?? { ...body.error, request_id: undefined }]);
  };
  try {
    for (const q of [
      `from=Duisburg&to=Basel&${SUMMER}&path=true`,
      `from=DEHAM&to=ITMIL&optimize=time&${SUMMER}`,
      "from=Volgograd&to=Astrakhan&modes=RIVER&date=2026-01-20",
      "from=0,0&to=NLRTM&modes=SEA",
    ])
      expect(await answer(pooled, q), q).toBe(await answer(inThread, q));
  } finally {
    await closeRoutePlanners();
  }
}, 180_000);
