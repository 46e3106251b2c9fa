/**
 * Every matrix cell is the single route's answer, on the real build: random places, modes and
 * options, each cell compared with GET /v1/distance/route (one mode) or /v1/distance/multimodal
 * (door to door) for the same pair and options: the same figures, or the same error.
 */
// Runs once, on SQLite: the subject is the matrix against single routes; the database only holds the key.
import { afterAll, beforeAll, expect, test } from "bun:test";
import fc from "fast-check";
import { errorProblems, successProblems } from "../helpers/envelopes.ts";
import type { TestPlatform } from "../helpers/platform.ts";
import { chainClient } from "./chain-client.ts";

let p: TestPlatform;
let get: Awaited<ReturnType<typeof chainClient>>["get"];
beforeAll(async () => {
  ({ p, get } = await chainClient("matrix-cells"));
});
afterAll(() => p.close());

const PLACES = [
  "NLRTM",
  "DEHAM",
  "SGSIN",
  "CNSHA",
  "USLAX",
  "DEMUC",
  "Milan",
  "Paris",
  "48.85,2.35",
  "50.11,8.68",
  "Basel",
  "Kathmandu",
  "FRA",
  "ESALG",
  "DEDUI",
];
const placesOf = (max: number) =>
  fc.uniqueArray(fc.constantFrom(...PLACES), { minLength: 1, maxLength: max });

type Data = Record<string, unknown>;
type Route = {
  distance: { km: number; nm: number; meters?: number };
  transit?: { hours: number; days: number };
  summary?: { distance: Data; duration: Data; cost_index: number; emissions: Data };
  emissions?: Data;
};

/** What the cell must hold, from the single route's answer. */
function expectedCell(status: number, body: Data): Data {
  if (status !== 200) {
    const { code, message } = body.error as Data;
    return { error: { code, message } };
  }
  const route = (body.data as { route: Route }).route;
  if (route.summary) {
    const { distance, duration, cost_index, emissions } = route.summary;
    return { distance, duration, cost_index, emissions };
  }
  const { km, nm } = route.distance;
  const { hours, days } = route.transit!;
  return {
    distance: { km, nm, meters: Math.round(km * 1000) },
    duration: { hours, days, seconds: Math.round(hours * 3600) },
    emissions: route.emissions,
  };
}

async function checkCells(matrixPath: string, singlePath: (from: string, to: string) => string) {
  const res = await get(matrixPath);
  expect(res.status).toBe(200);
  const { cells } = res.body.data as { cells: Data[][] };
  const q = new URLSearchParams(matrixPath.split("?")[1]);
  const [sources, destinations] = [q.get("sources")!.split("|"), q.get("destinations")!.split("|")];
  for (const [i, from] of sources.entries())
    for (const [j, to] of destinations.entries()) {
      const single = await get(singlePath(from, to));
      expect({ from, to, cell: cells[i]![j] }).toEqual({
        from,
        to,
        cell: expectedCell(single.status, single.body),
      });
    }
}

test("each cell of a one-mode matrix equals the single route", async () => {
  const options = fc.record(
    {
      mode: fc.constantFrom("SEA", "ROAD", "RAIL", "AIR", "RIVER", "truck"),
      speed_knots: fc.integer({ min: 8, max: 24 }).map(String),
      cargo_tonnes: fc.integer({ min: 1, max: 30 }).map(String),
      handling: fc.constantFrom("true", "false"),
    },
    { requiredKeys: ["mode"] },
  );
  await fc.assert(
    fc.asyncProperty(placesOf(3), placesOf(3), options, async (sources, destinations, opts) => {
      // The options a mode does not read are read by neither.
      const extra = new URLSearchParams(opts);
      const matrix = `/v1/distance/matrix?${new URLSearchParams({ sources: sources.join("|"), destinations: destinations.join("|") })}&${extra}`;
      await checkCells(
        matrix,
        (from, to) => `/v1/distance/route?${new URLSearchParams({ from, to })}&${extra}`,
      );
    }),
    { numRuns: 12 },
  );
});

test("each cell of a door-to-door matrix equals the multimodal route", async () => {
  const options = fc.record(
    {
      modes: fc.subarray(["SEA", "ROAD", "RAIL", "RIVER"], { minLength: 1 }).map((m) => m.join(",")),
      optimize: fc.constantFrom("cost", "time", "distance", "emissions"),
    },
    { requiredKeys: ["modes"] },
  );
  await fc.assert(
    fc.asyncProperty(placesOf(2), placesOf(2), options, async (sources, destinations, opts) => {
      const extra = new URLSearchParams(opts);
      const matrix = `/v1/distance/matrix?${new URLSearchParams({ sources: sources.join("|"), destinations: destinations.join("|") })}&${extra}`;
      await checkCells(
        matrix,
        (from, to) => `/v1/distance/multimodal?${new URLSearchParams({ from, to })}&${extra}`,
      );
    }),
    { numRuns: 8 },
  );
});

test("arbitrary places and options answer a matrix or a clear error, never a 500", async () => {
  const place = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...PLACES) },
    { weight: 1, arbitrary: fc.constantFrom("QQQQQ", "XX", "91,0") },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  );
  // One mode, door to door, or (rarely) both, which is refused.
  const planned = fc.oneof(
    { weight: 4, arbitrary: fc.record({ mode: fc.constantFrom("SEA", "ROAD", "AIR", "truck", "", "boat") }) },
    { weight: 2, arbitrary: fc.record({ modes: fc.constantFrom("ROAD", "SEA,RAIL", "", "CANOE") }) },
    { weight: 1, arbitrary: fc.constant({ mode: "SEA", modes: "ROAD" }) },
  );
  const others = fc.record(
    {
      speed_knots: fc.oneof(
        { weight: 6, arbitrary: fc.integer({ min: 3, max: 40 }).map(String) },
        { weight: 1, arbitrary: fc.integer({ min: -5, max: 60 }).map(String) },
        { weight: 1, arbitrary: fc.string({ maxLength: 3 }) },
      ),
      avoid: fc.constantFrom("suez", "panama", "", "atlantis"),
      cargo_tonnes: fc.constantFrom("1", "12.5", "30", "0", "abc"),
    },
    { requiredKeys: [] },
  );
  const options = fc.tuple(planned, others).map(([a, b]) => ({ ...a, ...b }));
  const statuses: number[] = [];
  await fc.assert(
    fc.asyncProperty(
      fc.array(place, { minLength: 1, maxLength: 3 }),
      fc.array(place, { minLength: 1, maxLength: 3 }),
      options,
      async (sources, destinations, opts) => {
        const q = new URLSearchParams({
          sources: sources.join("|"),
          destinations: destinations.join("|"),
          ...opts,
        });
        const res = await get(`/v1/distance/matrix?${q}`);
        expect([200, 400, 404]).toContain(res.status);
        statuses.push(res.status);
        if (res.status !== 200) expect(errorProblems("distance", res.body)).toEqual([]);
        else expect(successProblems("distance", res.body)).toEqual([]);
      },
    ),
    { numRuns: 60 },
  );
  // The property saw matrices, not only refusals.
  expect(statuses).toContain(200);
});
