/**
 * What the schedules event tests share: the sandbox carriers (a real process on a manual clock
 * from START), a real HTTPS receiver, a platform on a fresh database (SQLite, or PostgreSQL under
 * PORTOLAN_TEST_DB) and the real dispatcher delivering to the receiver.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Dispatcher } from "../../api/webhooks/dispatcher.ts";
import type { DcsaConnectorConfig } from "../../ingest/carriers/connector.ts";
import { sharedTestDatabase } from "../helpers/database.ts";
import { makePlatform, type TestPlatform } from "../helpers/platform.ts";
import { type RunningSandbox, sandboxCarriers, startSandbox } from "../sandbox/spawn.ts";
import { type Receiver, startReceiver } from "../webhooks/receiver.ts";
import { testWebhookConfig } from "../webhooks/setup.ts";

/** The sandbox's first day, and the clock reading the tests start from. */
export const EPOCH = "2026-01-05T00:00:00Z";
export const START = Date.parse("2026-02-02T00:00:00Z");

export interface SchedulesWorld {
  database: string;
  sandbox: RunningSandbox;
  carriers: DcsaConnectorConfig[];
  rx: Receiver;
  p: TestPlatform;
  close(): Promise<void>;
}

/** `name` names the temporary folder, `key` the sandbox's API key; `now` is the platform's clock. */
export async function schedulesWorld(name: string, key: string, now?: () => number): Promise<SchedulesWorld> {
  const dir = mkdtempSync(join(tmpdir(), `portolan-schedules-${name}-`));
  const database = sharedTestDatabase(join(dir, "portolan.sqlite"));
  const sandbox = await startSandbox({ SANDBOX_API_KEY: key, SANDBOX_EPOCH: EPOCH });
  await sandbox.setClock({ now: new Date(START).toISOString() });
  const carriers = await sandboxCarriers(sandbox, key);
  const rx = await startReceiver();
  const webhooks = testWebhookConfig(rx);
  const p = await makePlatform({ database, webhooks }, now);
  const dispatcher = await Dispatcher.start(p.storage, webhooks);
  return {
    database,
    sandbox,
    carriers,
    rx,
    p,
    async close() {
      await dispatcher.stop();
      await p.close();
      await sandbox.stop();
      await rx.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
