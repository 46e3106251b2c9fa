/** The CS endpoints served by the real sandbox process (ingest/sandbox/main.ts), manual clock. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { validateCsBody } from "../../ingest/schedules/cs-validate.ts";
import { type RunningSandbox, startSandbox } from "../sandbox/spawn.ts";

const START = "2026-11-21T00:00:00Z";
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ SANDBOX_START: START, SANDBOX_EPOCH: START });
});
afterAll(() => sandbox?.stop());

const cs = (scac: string, path: string) => fetch(`${sandbox.url}/${scac}/cs/v1/${path}`);

test("each carrier serves CS 1.0.3 under {sandbox}/{SCAC}/cs/v1, following the clock", async () => {
  const carriers = (await (await fetch(`${sandbox.url}/_sandbox/carriers`)).json()) as Array<{
    scac: string;
    schedules_base_path: string;
  }>;
  expect(carriers.map((c) => c.schedules_base_path)).toEqual(carriers.map((c) => `/${c.scac}/cs/v1`));

  const path = "vessel-schedules?carrierServiceCode=TP6&startDate=2026-11-21&endDate=2026-12-20";
  const before = await cs("MAEU", path);
  expect(before.status).toBe(200);
  expect(before.headers.get("API-Version")).toBe("1.0.3");
  const first = await before.json();
  expect(validateCsBody(first, "ServiceSchedule")).toMatchObject({ ok: true });
  const classifiers = (body: unknown) =>
    JSON.stringify(body).match(/"eventClassifierCode":"ACT"/g)?.length ?? 0;
  await sandbox.setClock({ advance_hours: 24 * 14 });
  const later = await (await cs("MAEU", path)).json();
  // Two weeks on, more of the same calls have happened.
  expect(classifiers(later)).toBeGreaterThan(classifiers(first));

  const routes = await cs("MAEU", "point-to-point-routes?placeOfReceipt=CNSHA&placeOfDelivery=NLRTM&limit=1");
  expect(routes.status).toBe(200);
  expect(routes.headers.get("Next-Page-Cursor")).not.toBeNull();
  expect(validateCsBody(await routes.json(), "PointToPoint")).toMatchObject({ ok: true });

  const unknown = await cs("ZZZZ", "port-schedules?UNLocationCode=SGSIN&date=2026-11-21");
  expect(unknown.status).toBe(404);
  expect(((await unknown.json()) as { errors: unknown[] }).errors.length).toBe(1);
  expect((await fetch(`${sandbox.url}/MAEU/cs/v1/port-schedules`, { method: "POST" })).status).toBe(405);
});
