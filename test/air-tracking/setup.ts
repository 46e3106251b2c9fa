/**
 * The world air-waybill tracking runs in for tests: the sandbox airline (its own process, manual
 * clock), an HTTPS webhook receiver, a platform whose airlines are the sandbox's, and a real
 * dispatcher. Waybills are picked from the sandbox's own simulator, so a test knows what the
 * airline will publish and when.
 */

import { Dispatcher } from "../../api/webhooks/dispatcher.ts";
import { withAwbCheckDigit } from "../../ingest/airlines/awb.ts";
import type { OneRecordAirlineConfig } from "../../ingest/airlines/one-record.ts";
import { type SimulatedAwb, simulateAwb } from "../../ingest/sandbox/airline-simulate.ts";
import { type AirlineWorld, SANDBOX_AIRLINES } from "../../ingest/sandbox/airline-world.ts";
import { bearer, type ManualClock, makePlatform, type TestPlatform } from "../helpers/platform.ts";
import { startSandbox } from "../sandbox/spawn.ts";
import { startReceiver } from "../webhooks/receiver.ts";
import { testWebhookConfig } from "../webhooks/setup.ts";

type Obj = Record<string, unknown>;
export type Json = Obj & { data: Obj & { items?: Obj[] }; error?: Obj & { code: string; message: string } };

/** The sandbox's airlines, each at `${airUrl}/${IATA}` (a test may route one through something else). */
export const sandboxAirlines = (airUrl: string): OneRecordAirlineConfig[] =>
  SANDBOX_AIRLINES.map(({ iata }) => ({ iata, baseUrl: `${airUrl}/${iata}` }));

export async function airWorld(clock: ManualClock, airlines = sandboxAirlines) {
  const sandbox = await startSandbox({ SANDBOX_START: new Date(clock.t).toISOString() });
  const rx = await startReceiver();
  const webhooks = testWebhookConfig(rx);
  const p = await makePlatform({ webhooks, airlines: airlines(sandbox.airUrl) }, clock.now);
  // The dispatcher keeps real time (leases, ladder); only the airline's world runs on the manual clock.
  const dispatcher = await Dispatcher.start(p.storage, webhooks);
  return {
    sandbox,
    rx,
    p,
    /** Moves the platform's and the airline's clocks to `ms`, then runs one air poller tick. */
    async at(ms: number) {
      clock.t = ms;
      await sandbox.setClock({ now: new Date(ms).toISOString() });
      await p.air.waybills.pollDue();
    },
    async close() {
      await dispatcher.stop();
      await sandbox.stop();
      await rx.close();
      await p.close();
    },
  };
}

/** JSON calls to the air host with one key. */
export function airApi(p: TestPlatform, key: string) {
  return async (method: string, path: string, body?: unknown) => {
    const res = await p.call("air", path, {
      method,
      ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
      ...bearer(key, body === undefined ? {} : { "content-type": "application/json" }),
    });
    return { status: res.status, body: (await res.json()) as Json };
  };
}

/** The first waybill of an airline (by prefix, serials upward) whose simulation `wanted` accepts. */
export function findAwb(
  world: AirlineWorld,
  prefix: string,
  wanted: (s: SimulatedAwb) => boolean,
  from = 1_000_000,
): SimulatedAwb {
  for (let serial = from; serial < from + 5_000; serial++) {
    const s = simulateAwb(withAwbCheckDigit(`${prefix}${serial}`), { world });
    if (s && wanted(s)) return s;
  }
  throw new Error(`no sandbox waybill of ${prefix} fits`);
}
