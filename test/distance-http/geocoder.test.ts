/**
 * The distance API with an external geocoder (Photon) that answers, then dies: free-text places
 * resolve through it; once it is gone, address lookups answer 503 geocoder_unavailable in the
 * distance envelope while UN/LOCODEs and coordinates keep routing.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { PHOTON } from "../distance-locations/geocoder-bodies.ts";
import { bearer, makePlatform, type TestPlatform } from "../helpers/platform.ts";

let p: TestPlatform;
let key: string;
let server: ReturnType<typeof Bun.serve>;
let asked = 0;

beforeAll(async () => {
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      asked++;
      const q = new URL(req.url).searchParams.get("q") ?? "";
      return Response.json(q.includes("Buckingham") ? { ...PHOTON, features: [PHOTON.features[1]] } : PHOTON);
    },
  });
  p = await makePlatform({
    geocoder: { kind: "photon", baseUrl: `http://127.0.0.1:${server.port}`, timeoutMs: 2000 },
  });
  key = (await p.tenant()).keys.distance;
});
afterAll(async () => {
  server.stop(true);
  await p.close();
});

const route = (from: string, to: string) =>
  p.call(
    "distance",
    `/v1/distance/route?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
    bearer(key),
  );

test("an address resolves through the geocoder, then its death is a 503 that codes do not feel", async () => {
  const viaGeocoder = await route("1 The Mall, Buckingham Palace, London", "NLRTM");
  expect(viaGeocoder.status).toBe(200);
  const from = ((await viaGeocoder.json()) as { data: { from: { lat: number; lng: number } } }).data.from;
  // The point is the geocoder's, not an offline namesake's.
  expect([from.lat, from.lng]).toEqual([51.5014, -0.1419]);
  expect(asked).toBeGreaterThan(0);

  server.stop(true);
  const down = await route("1 The Mall, Buckingham Palace, London", "NLRTM");
  expect(down.status).toBe(503);
  expect(((await down.json()) as { error: { code: string } }).error.code).toBe("geocoder_unavailable");

  const codes = await route("GBFXT", "NLRTM");
  expect(codes.status).toBe(200);
  const coordinates = await route("51.95,1.35", "NLRTM");
  expect(coordinates.status).toBe(200);
});
