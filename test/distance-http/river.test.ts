/** Mode RIVER over HTTP on the real build (real WASM router): the spec's River chain, dates and notes. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { SeasonalNote } from "../../engine/river/seasonal.ts";
import { errorCode, successProblems } from "../helpers/envelopes.ts";
import type { TestPlatform } from "../helpers/platform.ts";
import {
  type ChainPoint,
  type ChainTransfer,
  chainClient,
  checkChain,
  type Distance,
  type Duration,
  type Summary,
} from "./chain-client.ts";

let p: TestPlatform;
let get: Awaited<ReturnType<typeof chainClient>>["get"];
beforeAll(async () => {
  ({ p, get } = await chainClient("river"));
});
afterAll(() => p.close());

type Point = ChainPoint;
type Note = SeasonalNote;
type Section = {
  transport_mode: string;
  from: Point;
  to: Point;
  distance: Distance;
  duration: Duration;
  estimated: boolean;
  speed_kmh?: number;
  current?: { downstream_km: number; upstream_km: number; slack_water_km: number };
  locks?: number;
  lock_hours?: number;
  waterways?: Array<{ name: string; km: number; class: string | null }>;
  seasonal?: Note[];
  attribution?: string;
};
type Chain = {
  label: string;
  transport_modes: string[];
  summary: Summary;
  sections: Section[];
  transfers: ChainTransfer[];
  estimated: boolean;
};
type Data = {
  from: Point;
  to: Point;
  route: Chain;
  alternatives: Chain[];
  date: string;
  seasonal_notes: Note[];
};

const route = async (q: string) => {
  const { status, body } = await get(`/v1/distance/route?${q}`);
  expect(status, JSON.stringify(body).slice(0, 300)).toBe(200);
  expect(successProblems("distance", body)).toEqual([]);
  return body.data as Data;
};
const barge = (c: Chain) => c.sections.find((s) => s.transport_mode === "RIVER")!;

test("Duisburg -> Basel by RIVER: road, barge up the Rhine, road; 18 h at each river port", async () => {
  const data = await route("from=DEDUI&to=CHBSL&mode=RIVER&date=2026-06-15");
  const r = data.route;
  expect(r.label).toBe("River");
  expect(r.transport_modes.filter((m) => m === "RIVER")).toEqual(["RIVER"]);
  checkChain(r);
  const s = barge(r);
  expect(s.from.kind).toBe("port");
  expect(s.distance.km).toBeGreaterThan(500);
  expect(s.distance.km).toBeLessThan(700);
  // Up the Rhine against its current: no downstream km, locks on the Upper Rhine, lock hours inside the duration.
  expect(s.current!.upstream_km).toBeGreaterThan(s.current!.downstream_km);
  expect(s.locks).toBeGreaterThan(0);
  expect(s.lock_hours).toBeCloseTo(s.locks! * 0.75, 1);
  expect(s.waterways!.some((w) => /Rhine/.test(w.name))).toBe(true);
  const km = s.waterways!.map((w) => w.km);
  expect(km).toEqual([...km].sort((a, b) => b - a));
  expect(s.attribution).toMatch(/Natural Earth/);
  expect(s.speed_kmh).toBeGreaterThan(3);
  expect(r.transfers.map((t) => t.hours)).toEqual([18, 18]);
  expect(data.date).toBe("2026-06-15");
  // The spec defaults alternatives to true for ROAD, RAIL, AIR and multimodal only.
  expect(data.alternatives).toEqual([]);
});

test("downstream Basel -> Duisburg is faster than upstream on the same water", async () => {
  const up = barge((await route("from=DEDUI&to=CHBSL&mode=RIVER&date=2026-06-15")).route);
  const down = barge((await route("from=CHBSL&to=DEDUI&mode=RIVER&date=2026-06-15")).route);
  expect(down.duration.hours).toBeLessThan(up.duration.hours);
  expect(down.current!.downstream_km).toBeGreaterThan(down.current!.upstream_km);
});

test("aliases INLAND, INLAND_WATERWAY, IWW and BARGE answer the same chain", async () => {
  const base = await route("from=DEDUI&to=CHBSL&mode=RIVER&date=2026-06-15");
  for (const alias of ["INLAND", "inland_waterway", "IWW", "barge"]) {
    const d = await route(`from=DEDUI&to=CHBSL&mode=${alias}&date=2026-06-15`);
    expect(d.route.summary).toEqual(base.route.summary);
  }
});

test("low water on the Rhine in September: slower, listed on the section and in seasonal_notes", async () => {
  const dry = await route("from=DEDUI&to=CHBSL&mode=RIVER&date=2026-09-15");
  const off = await route("from=DEDUI&to=CHBSL&mode=RIVER&date=2026-09-15&seasonal=false");
  const s = barge(dry.route);
  expect(s.seasonal!.length).toBeGreaterThan(0);
  for (const n of s.seasonal!) {
    expect(n.kind).toBe("low_water");
    expect(n.effect).toBe("slower");
    expect(n.time_factor).toBeGreaterThan(1);
    expect(n.source).toMatch(/^estimate/);
  }
  expect(dry.seasonal_notes.map((n) => n.id)).toEqual(s.seasonal!.map((n) => n.id));
  // seasonal=false: no rule, no note, never slower.
  expect(off.seasonal_notes).toEqual([]);
  expect(barge(off.route).duration.hours).toBeLessThan(s.duration.hours);
});

test("Vienna -> Budapest in January: the Danube's ice risk in Austria, Slovakia and Hungary, slower and said so", async () => {
  const d = await route("from=Vienna&to=Budapest&mode=INLAND&date=2027-01-20");
  // EU07 is the Croatian-Serbian Danube, downstream of Budapest; EU03 the Rhine.
  expect(d.seasonal_notes.map((n) => n.id)).toEqual(["EU06"]);
  const [ice] = d.seasonal_notes;
  expect(ice).toMatchObject({ kind: "ice_risk", effect: "slower", time_factor: 1.5 });
  expect(ice!.note).toMatch(/\bslower\b/);
  expect(ice!.note).not.toMatch(/\bclosed\b/);
  // It covers the whole barge leg, Vienna's port to Budapest's.
  expect(ice!.km).toBeCloseTo(barge(d.route).distance.km, 0);
});

test("the Volga in winter: closed, so the chain falls back to the road with a no_route note", async () => {
  const winter = await route("from=Volgograd&to=Astrakhan&mode=RIVER&date=2026-01-20");
  expect(winter.route.label).toBe("Road");
  expect(winter.route.transport_modes).toEqual(["ROAD"]);
  checkChain(winter.route);
  const closure = winter.seasonal_notes.find((n) => n.kind === "closure")!;
  expect(closure.effect).toBe("no_route");
  expect(closure.reopens_about).toMatch(/^2026-0[3-5]-\d\d$/);
  expect(closure.km).toBeGreaterThan(0);
  const summer = await route("from=Volgograd&to=Astrakhan&mode=RIVER&date=2026-07-20");
  expect(summer.route.label).toBe("River");
});

test("bad date or seasonal values are invalid_request; an inland place with no river port is no_route", async () => {
  for (const q of ["date=2026-02-30", "date=tomorrow", "seasonal=maybe", "handling=2"]) {
    const { status, body } = await get(`/v1/distance/route?from=DEDUI&to=CHBSL&mode=RIVER&${q}`);
    expect(status, q).toBe(400);
    expect(errorCode(body)).toBe("invalid_request");
  }
  const { status, body } = await get("/v1/distance/route?from=0,0&to=DEDUI&mode=RIVER");
  expect(status).toBe(422);
  expect(errorCode(body)).toBe("no_route");
});

// Towns on the Lower Mississippi and the lower Elbe load barges at their own harbours: the road
// leg from the town is a short drive, not one to the next town's port (Memphis's quays, Geesthacht).
test.each([
  ["Memphis", "from=Memphis&to=USSTL", /^Memphis/, 8],
  ["Geesthacht", "from=Geesthacht&to=DEMAG", /^Geesthacht/, 5],
] as Array<[string, string, RegExp, number]>)(
  "%s by RIVER: the barge loads at the town's own harbour, a short road leg away",
  async (_town, q, port, km) => {
    const r = (await route(`${q}&mode=RIVER&date=2026-06-15`)).route;
    checkChain(r);
    const [access, river] = r.sections;
    expect(access!.transport_mode).toBe("ROAD");
    expect(access!.distance.km).toBeLessThan(km);
    expect(river!.transport_mode).toBe("RIVER");
    expect(river!.from.name).toMatch(port);
  },
);

// A quay beside its town: the last road leg is the drive across town, not a detour through the
// nearest place the road model knows (Cairo, Illinois: 66 km through a node 25 km away).
test("Memphis to Cairo, Illinois by RIVER: the barge unloads at Cairo's quays, about a kilometre from town", async () => {
  const r = (await route("from=Memphis,US&to=37.005,-89.176&mode=RIVER&date=2026-06-15")).route;
  checkChain(r);
  const river = r.sections.find((s) => s.transport_mode === "RIVER")!;
  const last = r.sections.at(-1)!;
  expect(river.to.name).toMatch(/^Cairo/);
  expect(last.transport_mode).toBe("ROAD");
  expect(last.distance.km).toBeLessThan(3);
});
