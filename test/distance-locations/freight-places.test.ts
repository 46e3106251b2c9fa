/** Free text resolves to the place a freight user means, and search lists that place first. */
import { beforeAll, describe, expect, test } from "bun:test";
import { haversineM } from "../../common/geo.ts";
import type { LocationIndex } from "../../engine/locations/index.ts";
import { locationsFixture } from "./fixture.ts";
import { FREIGHT_PLACES } from "./freight-places.ts";

/** Cities are tens of km across and their ports and centres sit apart: the right place is within this. */
const MAX_KM = 30;

let index: LocationIndex;
beforeAll(async () => {
  index = (await locationsFixture()).index;
});

describe("freight places typed as users type them", () => {
  test("the table is large and its typed forms are distinct", () => {
    expect(FREIGHT_PLACES.length).toBeGreaterThanOrEqual(200);
    expect(new Set(FREIGHT_PLACES.map(([typed]) => typed)).size).toBe(FREIGHT_PLACES.length);
  });

  test.each(FREIGHT_PLACES)("%s resolves in %s near (%d, %d)", (typed, country, lat, lng) => {
    const p = index.resolve(typed);
    const km = haversineM(lat, lng, p.lat, p.lng) / 1000;
    const got = `${typed} -> ${p.kind} ${p.name}, ${p.country_code}, ${km.toFixed(0)} km away`;
    expect(p.country_code, got).toBe(country);
    expect(km, got).toBeLessThanOrEqual(MAX_KM);
  });

  test.each(FREIGHT_PLACES)("%s: the first search result is the resolved place", (typed) => {
    const p = index.resolve(typed);
    const [first] = index.search(typed, { limit: 1 });
    expect(first && { kind: first.kind, name: first.name, lat: first.lat, lng: first.lng }).toEqual({
      kind: p.kind as never,
      name: p.name,
      lat: p.lat,
      lng: p.lng,
    });
  });
});
