/** A platform wired for delivery tests: short ladder and timeout, the test receiver's CA trusted. */
import { type Config, loadConfig } from "../../api/config.ts";
import type { WebhookConfig } from "../../api/webhooks/config.ts";
import { Dispatcher } from "../../api/webhooks/dispatcher.ts";
import { SANDBOX_SCACS } from "../../ingest/sandbox/world.ts";
import { bearer, type ManualClock, makePlatform, type TestPlatform } from "../helpers/platform.ts";
import { startSandbox } from "../sandbox/spawn.ts";
import { type Receiver, startReceiver } from "./receiver.ts";

type Obj = Record<string, unknown>;
export type Json = Obj & { data: Obj & { items?: Obj[] } };

/** The delivery timeout of the test platforms' dispatchers. */
export const TEST_TIMEOUT_MS = 1500;

export function testWebhookConfig(rx: Receiver, over: Partial<WebhookConfig> = {}): WebhookConfig {
  return {
    ...loadConfig({}).webhooks,
    allowPrivate: true, // the receiver is on loopback
    caFile: rx.caFile,
    resolve: { "hooks.test": ["127.0.0.1"] },
    scheduleMs: [0, 60, 60],
    jitter: 0,
    // Short enough that a receiver left hanging ends an attempt quickly, long enough that a loaded
    // machine (both suites side by side) does not time out a receiver that answers at once.
    timeoutMs: TEST_TIMEOUT_MS,
    sweepMs: 25,
    disableAfterFailures: 100,
    disableAfterMs: 0,
    ...over,
  };
}

export async function webhookPlatform(webhooks: WebhookConfig, overrides: Partial<Config> = {}) {
  const p = await makePlatform({ webhooks, ...overrides });
  const t = await p.tenant({ paid: true });
  await p.accounts.setPlan(t.orgId, { rateLimit: 1_000_000 });
  return { p, t, api: apiOf(p, t.keys.ocean) };
}

/** JSON calls to the ocean webhook routes with one key. */
export function apiOf(p: TestPlatform, key: string) {
  return async (method: string, path: string, body?: unknown) => {
    const res = await p.call("ocean", path, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...bearer(key, body === undefined ? {} : { "content-type": "application/json" }),
    });
    return { status: res.status, body: (await res.json()) as Json };
  };
}

/** Polls `probe` until it answers something truthy, and returns that. */
export async function until<T>(
  probe: () => Promise<T | null | undefined | false>,
  timeoutMs = 10_000,
  what = "condition",
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(20);
  }
}

/**
 * A sandbox carrier on a manual clock, an HTTPS receiver, a platform polling the sandbox and a
 * real dispatcher: the world in which carrier events become signed deliveries.
 */
export async function voyageWorld(clock: ManualClock) {
  const sandbox = await startSandbox({ SANDBOX_START: new Date(clock.t).toISOString() });
  const rx = await startReceiver();
  const webhooks = testWebhookConfig(rx);
  const p = await makePlatform(
    { webhooks, carriers: SANDBOX_SCACS.map((scac) => ({ scac, baseUrl: sandbox.carrierUrl(scac) })) },
    clock.now,
  );
  // The dispatcher keeps real time (leases, ladder); only the carrier world runs on the manual clock.
  const dispatcher = await Dispatcher.start(p.storage, webhooks);
  return {
    sandbox,
    rx,
    p,
    dispatcher,
    async close() {
      await dispatcher.stop();
      await sandbox.stop();
      await rx.close();
      await p.close();
    },
  };
}
