/** cargo_tonnes on GET /v1/distance/route: emissions scale with the stated mass in every mode; bad values are invalid_request. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { errorCode } from "../helpers/envelopes.ts";
import type { TestPlatform } from "../helpers/platform.ts";
import { chainClient } from "./chain-client.ts";

let p: TestPlatform;
let get: Awaited<ReturnType<typeof chainClient>>["get"];
beforeAll(async () => {
  ({ p, get } = await chainClient("emissions-http"));
});
afterAll(() => p.close());

type Emissions = { co2e_kg: number | null; co2e_ttw_kg: number | null; cargo_tonnes: number };
const emissionsOf = async (q: string): Promise<Emissions> => {
  const { status, body } = await get(`/v1/distance/route?${q}`);
  expect(status, JSON.stringify(body).slice(0, 200)).toBe(200);
  const route = (body.data as { route: { summary?: { emissions: Emissions }; emissions?: Emissions } }).route;
  return (route.summary?.emissions ?? route.emissions)!;
};

test.each([
  ["sea", "from=NLRTM&to=SGSIN"],
  ["ROAD", "from=DEHAM&to=ITMIL&mode=ROAD"],
  ["RAIL", "from=Rotterdam&to=Milan&mode=RAIL"],
  ["AIR", "from=FRA&to=ORD&mode=AIR"],
])("%s: 20 t emits 20 times 1 t", async (_mode, q) => {
  const one = await emissionsOf(q);
  const twenty = await emissionsOf(`${q}&cargo_tonnes=20`);
  expect(one.cargo_tonnes).toBe(1);
  expect(twenty.cargo_tonnes).toBe(20);
  expect(one.co2e_kg).toBeGreaterThan(0);
  expect(twenty.co2e_kg!).toBeCloseTo(20 * one.co2e_kg!, 1);
});

test.each(["0", "-1", "abc", "1e9"])("cargo_tonnes=%s is invalid_request", async (v) => {
  const { status, body } = await get(`/v1/distance/route?from=DEHAM&to=ITMIL&mode=ROAD&cargo_tonnes=${v}`);
  expect(status).toBe(400);
  expect(errorCode(body)).toBe("invalid_request");
});
