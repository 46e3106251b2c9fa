/**
 * The sandbox process as the default start runs it: the airline on its own port beside the carrier,
 * one manual clock for both (set on either port), read through the ONE Record client.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { OneRecordConnector } from "../../ingest/airlines/one-record.ts";
import { DEMO_AWBS } from "../../ingest/sandbox/airline-demo.ts";
import { simulateAwb } from "../../ingest/sandbox/airline-simulate.ts";
import { loadAirlineWorld, SANDBOX_AIRLINES } from "../../ingest/sandbox/airline-world.ts";
import { DEFAULT_EPOCH } from "../../ingest/sandbox/simulate.ts";
import { type RunningSandbox, startSandbox } from "../sandbox/spawn.ts";

const H = 3600_000;
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ SANDBOX_API_KEY: "process-key" });
});
afterAll(() => sandbox?.stop());

const clockAt = async (base: string) =>
  ((await (await fetch(`${base}/_sandbox/clock`)).json()) as { now: string }).now;

test("the airline serves its five airlines and the demo waybills", async () => {
  const airlines = (await (await fetch(`${sandbox.airUrl}/_sandbox/airlines`)).json()) as Array<{
    iata: string;
    hub: string;
    base_path: string;
  }>;
  expect(airlines.map((a) => [a.iata, a.hub, a.base_path])).toEqual(
    SANDBOX_AIRLINES.map((a) => [a.iata, a.hub, `/${a.iata}`]),
  );
  expect(await (await fetch(`${sandbox.airUrl}/_sandbox/demo`)).json()).toEqual(
    JSON.parse(JSON.stringify(DEMO_AWBS)),
  );
});

test("one clock: set on either port, both read it, and the airline's events follow it", async () => {
  const demo = DEMO_AWBS.find((d) => d.scenario === "offloaded")!;
  const s = simulateAwb(demo.awb, { world: await loadAirlineWorld(), epoch: DEFAULT_EPOCH })!;
  const offload = s.events.find((e) => e.code === "DIS_OFLD")!;
  const connector = new OneRecordConnector({
    iata: demo.iata,
    baseUrl: `${sandbox.airUrl}/${demo.iata}`,
    token: "process-key",
  });

  await sandbox.setClock({ now: new Date(offload.created - H).toISOString() });
  expect(await clockAt(sandbox.airUrl)).toBe(new Date(offload.created - H).toISOString());
  const before = await connector.waybill(demo.awb);
  expect(before.events.some((e) => e.code === "DIS_OFLD")).toBe(false);

  // Now through the airline's port: the carrier's clock moves too.
  const res = await fetch(`${sandbox.airUrl}/_sandbox/clock`, {
    method: "POST",
    body: JSON.stringify({ now: new Date(offload.created).toISOString() }),
  });
  expect(res.status).toBe(200);
  expect(await clockAt(sandbox.url)).toBe(new Date(offload.created).toISOString());
  const after = await connector.waybill(demo.awb);
  expect(after.events.slice(0, before.events.length)).toEqual(before.events);
  expect(after.events.filter((e) => e.code === "DIS_OFLD").map((e) => e.pieces)).toEqual([s.offload!.pieces]);
  expect(after.events.length).toBe(s.events.filter((e) => e.created <= offload.created).length);
});
