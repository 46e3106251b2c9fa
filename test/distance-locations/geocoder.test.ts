/**
 * External geocoders against local servers answering Nominatim (jsonv2) and Photon (GeoJSON) bodies,
 * then dying: address lookups answer geocoder_unavailable while codes and coordinates keep working.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { EngineError } from "../../engine/errors.ts";
import { geocoderConfig } from "../../engine/locations/config.ts";
import { createGeocoder, parseNominatim, parsePhoton } from "../../engine/locations/geocoders.ts";
import type { LocationIndex } from "../../engine/locations/index.ts";
import { locationsFixture } from "./fixture.ts";
import { NOMINATIM, PHOTON } from "./geocoder-bodies.ts";

let index: LocationIndex;
let hits: string[] = [];
let alive = true;
let server: ReturnType<typeof Bun.serve>;
let base: string;

beforeAll(async () => {
  index = (await locationsFixture()).index;
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      const url = new URL(req.url);
      hits.push(`${url.pathname}?${url.searchParams.toString()}`);
      const q = url.searchParams.get("q") ?? "";
      if (url.pathname === "/nominatim/search")
        return Response.json(q.includes("Elbphilharmonie") ? NOMINATIM : []);
      if (url.pathname === "/photon/api")
        return Response.json(q.includes("London") ? PHOTON : { ...PHOTON, features: [] });
      if (url.pathname === "/broken/search") return new Response('[{"lat":', { status: 200 });
      return new Response("no", { status: 404 });
    },
  });
  base = `http://127.0.0.1:${server.port}`;
});
afterAll(() => {
  if (alive) server.stop(true);
});

describe("parsers", () => {
  test("Nominatim jsonv2: string coordinates, lower-case country code", () => {
    expect(parseNominatim(NOMINATIM)[0]).toMatchObject({
      kind: "address",
      lat: 53.5410237,
      lng: 9.9841514,
      country_code: "DE",
      source: "nominatim",
    });
    expect(() => parseNominatim({})).toThrow();
  });
  test("Photon: [lng, lat] coordinates, a label from the parts", () => {
    const [city, house] = parsePhoton(PHOTON);
    expect(city).toMatchObject({ name: "London, England, United Kingdom", lat: 51.5073219, lng: -0.1276474 });
    expect(house).toMatchObject({
      name: "The Mall 1, London, United Kingdom",
      country_code: "GB",
      source: "photon",
    });
    expect(() => parsePhoton([])).toThrow();
  });
});

describe("configured geocoders, up then down", () => {
  test("config: offline by default; a server needs its URL", () => {
    expect(geocoderConfig({})).toEqual({ kind: "offline", baseUrl: null, timeoutMs: 3000 });
    expect(createGeocoder(index, geocoderConfig({}))).toBe(index.offline);
    expect(() => geocoderConfig({ PORTOLAN_GEOCODER: "photon" })).toThrow(/PORTOLAN_GEOCODER_URL/);
    expect(() => geocoderConfig({ PORTOLAN_GEOCODER: "google", PORTOLAN_GEOCODER_URL: "http://x" })).toThrow(
      /PORTOLAN_GEOCODER/,
    );
  });

  test("addresses resolve and search through the servers; codes never reach them", async () => {
    const nominatim = createGeocoder(
      index,
      geocoderConfig({ PORTOLAN_GEOCODER: "nominatim", PORTOLAN_GEOCODER_URL: `${base}/nominatim/` }),
    );
    const photon = createGeocoder(
      index,
      geocoderConfig({ PORTOLAN_GEOCODER: "photon", PORTOLAN_GEOCODER_URL: `${base}/photon` }),
    );
    hits = [];
    const elb = await index.resolveWith("Elbphilharmonie, Platz der Deutschen Einheit 1, Hamburg", nominatim);
    expect(elb).toMatchObject({ kind: "address", country_code: "DE", source: "nominatim" });
    expect(hits[0]).toContain("format=jsonv2");
    expect((await index.resolveWith("London", photon)).country_code).toBe("GB");
    const err = await index.resolveWith("Nowhere Street 99", photon).catch((e: unknown) => e);
    expect((err as EngineError).code).toBe("location_not_found");
    const before = hits.length;
    expect((await index.resolveWith("NLRTM", nominatim)).locode).toBe("NLRTM");
    expect((await index.resolveWith("53.5,9.9", photon)).kind).toBe("coordinates");
    expect(hits.length).toBe(before);

    const found = await index.searchWith("The Mall London", { types: ["address"] }, photon);
    expect(found.some((r) => r.name === "The Mall 1, London, United Kingdom")).toBe(true);
  });

  test("malformed answers are geocoder_unavailable", async () => {
    const broken = createGeocoder(
      index,
      geocoderConfig({ PORTOLAN_GEOCODER: "nominatim", PORTOLAN_GEOCODER_URL: `${base}/broken` }),
    );
    const err = await index.resolveWith("Some Street 1", broken).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineError);
    expect((err as EngineError).code).toBe("geocoder_unavailable");
  });

  test("server dies: addresses answer geocoder_unavailable, codes and coordinates still resolve", async () => {
    const photon = createGeocoder(
      index,
      geocoderConfig({ PORTOLAN_GEOCODER: "photon", PORTOLAN_GEOCODER_URL: `${base}/photon` }),
    );
    server.stop(true);
    alive = false;
    for (const call of [
      () => index.resolveWith("The Mall 1, London", photon),
      () => index.searchWith("The Mall 1 London", {}, photon),
    ]) {
      const err = await call().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(EngineError);
      expect((err as EngineError).code).toBe("geocoder_unavailable");
    }
    expect((await index.resolveWith("DEHAM", photon)).locode).toBe("DEHAM");
    expect((await index.resolveWith("LAX", photon)).iata).toBe("LAX");
    expect((await index.resolveWith("1.3,103.8", photon)).kind).toBe("coordinates");
    // geocode: false keeps the search offline.
    expect((await index.searchWith("hamburg", { geocode: false }, photon))[0]?.locode).toBe("DEHAM");
  });
});
