/**
 * Live vessel positions end to end: the sandbox publishes its sailing hulls over TCP as AIVDM,
 * the API's AIS feed decodes them into the position store, records show vessel_position moving
 * along the sea route, and freshness ages with the clock.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { simulateVoyage } from "../../ingest/sandbox/simulate.ts";
import { loadWorld, SANDBOX_SCACS } from "../../ingest/sandbox/world.ts";
import { bearer, ManualClock, makePlatform, type TestPlatform } from "../helpers/platform.ts";
import { type RunningSandbox, startSandbox } from "../sandbox/spawn.ts";

const REF = "MSAU1742313"; // Singapore -> Rotterdam, one sea passage, at sea from early November
let sandbox: RunningSandbox;
let p: TestPlatform;
let key: string;
const clock = new ManualClock(Date.parse("2026-11-10T00:00:00Z"));
const H = 3_600_000;

beforeAll(async () => {
  sandbox = await startSandbox({
    SANDBOX_START: new Date(clock.t).toISOString(),
    SANDBOX_AIS_INTERVAL_MS: "60000",
  });
  p = await makePlatform(
    {
      carriers: SANDBOX_SCACS.map((scac) => ({ scac, baseUrl: sandbox.carrierUrl(scac) })),
      aisFeeds: [sandbox.aisUrl],
    },
    clock.now,
  );
  const org = await p.accounts.createOrg("ais", { paid: true, rateLimit: 1_000_000 });
  await p.accounts.setEntitlement(org.id, "ocean", null);
  key = (await p.accounts.createKey(org.id, "ocean")).key;
});
afterAll(async () => {
  await p.close();
  await sandbox.stop();
});

type Position = {
  imo: string;
  lat: number;
  lng: number;
  speed_knots: number;
  position_freshness: string;
  position_fix_at: string;
  position_age_hours: number;
};
type Lookup = {
  vessel_position: Position | null;
  vessel_imo: string;
  last_ais_fix_at: string | null;
  last_updated_source: string;
  field_provenance: Record<string, { state: string }>;
};
const lookup = async () =>
  ((await (await p.call("ocean", `/v1/containers/lookup/${REF}`, bearer(key))).json()) as { data: Lookup })
    .data;

/** Moves both clocks; the sandbox republishes at once; waits until the new fix is stored. */
async function at(ms: number) {
  clock.t = ms;
  await sandbox.setClock({ now: new Date(ms).toISOString() });
  for (let i = 0; i < 100; i++) {
    const fix = (await lookup()).vessel_position?.position_fix_at;
    if (fix && Date.parse(fix) === Math.floor(ms / 1000) * 1000) return;
    await Bun.sleep(20);
  }
  throw new Error(`no AIS fix for ${new Date(ms).toISOString()}`);
}

const rad = (d: number) => (d * Math.PI) / 180;
const nm = (a: { lat: number; lng: number }, b: { lat: number; lng: number }) =>
  2 *
  3440 *
  Math.asin(
    Math.sqrt(
      Math.sin(rad(b.lat - a.lat) / 2) ** 2 +
        Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(rad(b.lng - a.lng) / 2) ** 2,
    ),
  );

test("vessel_position appears, moves along the route, and ages from live to outdated", async () => {
  const world = await loadWorld();
  const leg = simulateVoyage(REF, { world })!.legs[0]!;
  const res = await p.call("ocean", "/v1/containers", {
    method: "POST",
    body: JSON.stringify({ identifier: REF, identifier_type: "container_id" }),
    ...bearer(key, { "content-type": "application/json" }),
  });
  expect(res.status).toBe(201);
  await at(clock.t);
  const first = await lookup();
  expect(first.vessel_position).not.toBeNull();
  expect(first.vessel_position!.imo).toBe(leg.vessel.imo);
  expect(first.vessel_position!.position_freshness).toBe("live");
  expect(first.vessel_position!.speed_knots).toBeGreaterThan(10);
  expect(first.last_ais_fix_at).toBe(first.vessel_position!.position_fix_at);
  expect(first.field_provenance.vessel_position!.state).toBe("resolved");

  await at(clock.t + 4 * 24 * H);
  const later = await lookup();
  const origin = { lat: leg.from.lat, lng: leg.from.lng };
  const destination = { lat: leg.to.lat, lng: leg.to.lng };
  expect(nm(origin, later.vessel_position!)).toBeGreaterThan(nm(origin, first.vessel_position!) + 500);
  expect(nm(later.vessel_position!, destination)).toBeLessThan(nm(first.vessel_position!, destination));
  expect(later.last_updated_source).toBe("ais_vessel_position");

  // Our clock runs on without new fixes: the same fix ages.
  const fixedAt = clock.t;
  const ages: string[] = [];
  for (const hours of [3, 10, 30]) {
    clock.t = fixedAt + hours * H;
    ages.push((await lookup()).vessel_position!.position_freshness);
  }
  expect(ages).toEqual(["recent", "stale", "outdated"]);
});
