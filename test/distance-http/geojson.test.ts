/**
 * geometry=geojson over HTTP on the real build: each chain a FeatureCollection valid per RFC 7946
 * (checked by @placemarkio/check-geojson), one feature per section whose properties are the
 * section's own fields, lines cut at the antimeridian; and the cutting itself as a table.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { getIssues } from "@placemarkio/check-geojson";
import { lineGeometry } from "../../engine/geojson.ts";
import { errorCode, errorProblems, successProblems } from "../helpers/envelopes.ts";
import type { TestPlatform } from "../helpers/platform.ts";
import { chainClient } from "./chain-client.ts";

let p: TestPlatform;
let get: Awaited<ReturnType<typeof chainClient>>["get"];
beforeAll(async () => {
  ({ p, get } = await chainClient("geojson"));
});
afterAll(() => p.close());

type Position = [number, number];
type Geometry =
  | { type: "LineString"; coordinates: Position[] }
  | { type: "MultiLineString"; coordinates: Position[][] };
type Feature = { type: "Feature"; geometry: Geometry | null; properties: Record<string, unknown> };
type Collection = { type: "FeatureCollection"; features: Feature[] };
type Drawn = Record<string, unknown> & { path?: Array<[number, number]> };
type Chain = Drawn & { sections: Drawn[]; geometry?: Collection };
type Data<C> = { route: C; alternatives: C[] };

const ok = async <C>(q: string): Promise<Data<C>> => {
  const { status, body } = await get(q);
  expect(status, JSON.stringify(body).slice(0, 300)).toBe(200);
  expect(successProblems("distance", body)).toEqual([]);
  return body.data as Data<C>;
};

/** RFC 7946 per the validator, and every position on the map: no longitude beyond 180. */
function checkCollection(c: Collection | undefined): Collection {
  expect(c?.type).toBe("FeatureCollection");
  expect(getIssues(JSON.stringify(c))).toEqual([]);
  for (const part of c!.features.flatMap((f) => parts(f.geometry))) {
    for (const [lng, lat] of part) {
      expect(Math.abs(lng)).toBeLessThanOrEqual(180);
      expect(Math.abs(lat)).toBeLessThanOrEqual(90);
    }
  }
  return c!;
}

const parts = (g: Geometry | null): Position[][] =>
  g === null ? [] : g.type === "LineString" ? [g.coordinates] : g.coordinates;

/** The largest longitude step between neighbouring positions of any part. */
const widestStep = (g: Geometry | null) =>
  Math.max(0, ...parts(g).flatMap((part) => part.slice(1).map((q, i) => Math.abs(q[0] - part[i]![0]))));

/** [lat, lng] points off the antimeridian: a path's, or a geometry's once the cut points are gone. */
const offCut = (points: Array<[number, number]>) => points.filter(([, lng]) => Math.abs(lng) !== 180);
const latLng = (g: Geometry | null) =>
  parts(g).flatMap((part) => part.map(([lng, lat]): [number, number] => [lat, lng]));

/** The section's own fields but its path. */
const ownFields = ({ path: _, ...fields }: Drawn) => fields;

test("a trans-Pacific sea route: one SEA feature cut at 180 into a MultiLineString, no 360-degree jump", async () => {
  const data = await ok<Drawn & { geometry?: Collection }>(
    "/v1/distance/route?from=CNSHA&to=USLAX&geometry=geojson&path=true",
  );
  const route = data.route;
  const c = checkCollection(route.geometry);
  expect(c.features).toHaveLength(1);
  const [f] = c.features;
  const { geometry: _, ...fields } = route;
  expect(f!.properties).toEqual({ transport_mode: "SEA", ...ownFields(fields) });
  expect(f!.geometry!.type).toBe("MultiLineString");
  expect(widestStep(f!.geometry)).toBeLessThan(10);
  // The parts meet on the antimeridian at one latitude.
  const [west, east] = parts(f!.geometry);
  expect(west!.at(-1)![0]).toBe(180);
  expect(east![0]![0]).toBe(-180);
  expect(east![0]![1]).toBe(west!.at(-1)![1]);
  // Every position is the path's, as [lng, lat]; path=true keeps the path beside it.
  expect(offCut(latLng(f!.geometry))).toEqual(offCut(route.path!));
  // Without path=true the route shows no path, and the geometry is the same.
  const plain = await ok<Drawn & { geometry?: Collection }>(
    "/v1/distance/route?from=CNSHA&to=USLAX&geometry=geojson",
  );
  expect(plain.route.path).toBeUndefined();
  expect(plain.route.geometry).toEqual(route.geometry!);
});

test("a flight across the Pacific is cut at the antimeridian too", async () => {
  const data = await ok<Chain>(
    "/v1/distance/route?from=HKG&to=LAX&mode=AIR&geometry=geojson&alternatives=false",
  );
  const c = checkCollection(data.route.geometry);
  const air = c.features.find((f) => f.properties.transport_mode === "AIR")!;
  expect(air.geometry!.type).toBe("MultiLineString");
  for (const f of c.features) expect(widestStep(f.geometry)).toBeLessThan(10);
});

test("a road route: the section's fields as properties, its path as [lng, lat]", async () => {
  const data = await ok<Chain>(
    "/v1/distance/route?from=NLRTM&to=DEHAM&mode=ROAD&geometry=geojson&path=true&alternatives=false",
  );
  const [section] = data.route.sections;
  const c = checkCollection(data.route.geometry);
  expect(c.features).toHaveLength(1);
  expect(c.features[0]!.properties).toEqual(ownFields(section!));
  expect(c.features[0]!.geometry).toEqual({
    type: "LineString",
    coordinates: section!.path!.map(([lat, lng]) => [lng, lat]),
  });
  // geometry is the chain's last field; the spec's fields come first, unchanged.
  expect(Object.keys(data.route).at(-1)).toBe("geometry");
});

test("a door-to-door chain: one feature per section, in order, each with that section's own fields", async () => {
  const data = await ok<Chain>("/v1/distance/multimodal?from=Munich&to=Chicago&geometry=geojson");
  expect(data.alternatives.length).toBeGreaterThan(0);
  const chains = [data.route, ...data.alternatives];
  expect(Math.max(...chains.map((c) => c.sections.length))).toBeGreaterThanOrEqual(3);
  for (const chain of chains) {
    const c = checkCollection(chain.geometry);
    expect(c.features.map((f) => f.properties)).toEqual(chain.sections);
    expect(c.features.map((f) => f.properties.transport_mode)).toEqual(
      chain.sections.map((s) => s.transport_mode),
    );
    // Without path=true the sections show no path: the geometry carries it.
    expect(chain.sections.every((s) => s.path === undefined)).toBe(true);
    for (const f of c.features) {
      expect(f.geometry).not.toBeNull();
      expect(widestStep(f.geometry)).toBeLessThan(10);
    }
  }
});

test("the answer cache keeps answers with and without geometry apart", async () => {
  const q = "/v1/distance/route?from=NLRTM&to=SGSIN";
  expect((await ok<Drawn>(q)).route.geometry).toBeUndefined();
  checkCollection((await ok<Drawn & { geometry?: Collection }>(`${q}&geometry=geojson`)).route.geometry);
  expect((await ok<Drawn>(q)).route.geometry).toBeUndefined();
});

describe("a bad geometry is refused naming the parameter", () => {
  test.each([
    "/v1/distance/route?from=NLRTM&to=SGSIN&geometry=kml",
    "/v1/distance/route?from=NLRTM&to=DEHAM&mode=ROAD&geometry=true",
    "/v1/distance/multimodal?from=Munich&to=Chicago&geometry=polyline",
  ])("%s", async (q) => {
    const { status, body } = await get(q);
    expect(status).toBe(400);
    expect(errorProblems("distance", body)).toEqual([]);
    expect(errorCode(body)).toBe("invalid_request");
    expect((body.error as { message: string }).message).toContain("geometry must be geojson");
  });
});

describe("lines cut at the antimeridian ([lat, lng] in, [lng, lat] out)", () => {
  const cases: Array<[string, Array<[number, number]>, unknown]> = [
    ["no path", [], null],
    ["one point", [[1, 2]], null],
    [
      "a line that stays on the map",
      [
        [10, 20],
        [11, 21],
      ],
      {
        type: "LineString",
        coordinates: [
          [20, 10],
          [21, 11],
        ],
      },
    ],
    [
      "eastwards across 180, the crossing's latitude interpolated",
      [
        [10, 179],
        [12, -179],
      ],
      {
        type: "MultiLineString",
        coordinates: [
          [
            [179, 10],
            [180, 11],
          ],
          [
            [-180, 11],
            [-179, 12],
          ],
        ],
      },
    ],
    [
      "westwards across 180",
      [
        [0, -178],
        [3, 178],
      ],
      {
        type: "MultiLineString",
        coordinates: [
          [
            [-178, 0],
            [-180, 1.5],
          ],
          [
            [180, 1.5],
            [178, 3],
          ],
        ],
      },
    ],
    [
      "a point on the antimeridian is not repeated",
      [
        [51.3, 179.5],
        [51, -180],
        [51, -179.5],
      ],
      {
        type: "MultiLineString",
        coordinates: [
          [
            [179.5, 51.3],
            [180, 51],
          ],
          [
            [-180, 51],
            [-179.5, 51],
          ],
        ],
      },
    ],
    [
      "a line starting on the antimeridian keeps one part",
      [
        [5, 180],
        [5, 179],
      ],
      {
        type: "LineString",
        coordinates: [
          [180, 5],
          [179, 5],
        ],
      },
    ],
  ];
  test.each(cases)("%s", (_, path, expected) => {
    expect(lineGeometry(path)).toEqual(expected as ReturnType<typeof lineGeometry>);
  });
});
