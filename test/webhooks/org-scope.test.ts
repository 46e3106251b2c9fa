/**
 * An event reads and reaches only its own organisation's endpoints. Another organisation holds
 * many subscribed endpoints behind a fence (fence.ts) that fails any statement returning one of
 * them: a load-plan write, a rate event and the dispatcher's fan-out of the first organisation's
 * events go through untouched, so none of them reads the other's rows, and their cost cannot grow
 * with them. The deliveries arrive at the first organisation's receiver only. SQLite and, under
 * PORTOLAN_TEST_DB, PostgreSQL.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { Dispatcher } from "../../api/webhooks/dispatcher.ts";
import { appendRateEvents, RATE_ADDED } from "../../ingest/rates/events.ts";
import { bearer, type TestPlatform } from "../helpers/platform.ts";
import { BODY } from "../loading/setup.ts";
import { sampleDeletedPlan, sampleSheet } from "./event-samples.ts";
import { fenceEndpoints } from "./fence.ts";
import { type Receiver, startReceiver } from "./receiver.ts";
import { testWebhookConfig, until, webhookPlatform } from "./setup.ts";

/** The other organisation's endpoints per product: enough that reading them would be the cost. */
const THEIRS = 40;

let rx: Receiver;
let p: TestPlatform;
let mine: { orgId: string; keys: Record<string, string> };
let theirs: { orgId: string; keys: Record<string, string> };

async function register(product: "loading" | "rates", key: string, path: string) {
  const res = await p.call(product, "/v1/webhooks", {
    method: "POST",
    body: JSON.stringify({ url: rx.url(path) }),
    ...bearer(key, { "content-type": "application/json" }),
  });
  expect(res.status).toBe(201);
}

beforeAll(async () => {
  rx = await startReceiver();
  ({ p, t: mine } = await webhookPlatform(testWebhookConfig(rx, { timeoutMs: 5000 })));
  theirs = await p.tenant({ paid: true, name: "Other Ltd" });
  await p.accounts.setPlan(theirs.orgId, { rateLimit: 1_000_000 });
  for (const product of ["loading", "rates"] as const) {
    await register(product, mine.keys[product]!, `/ok/mine/${product}`);
    for (let i = 0; i < THEIRS; i++)
      await register(product, theirs.keys[product]!, `/ok/theirs/${product}/${i}`);
  }
}, 60_000);
afterAll(async () => {
  await p?.close();
  await rx?.close();
});

test("the fence fails a read of the other organisation's endpoints", async () => {
  const down = await fenceEndpoints(p.storage, theirs.orgId);
  try {
    await expect(p.storage.webhooks.active("loading")).rejects.toThrow();
  } finally {
    await down();
  }
  expect(await p.storage.webhooks.active("loading")).toHaveLength(THEIRS + 1);
});

/** Runs `work` with the other organisation's endpoints fenced. */
async function fenced<T>(work: () => Promise<T>): Promise<T> {
  const down = await fenceEndpoints(p.storage, theirs.orgId);
  try {
    return await work();
  } finally {
    await down();
  }
}

test("a plan write reads only its organisation's load-plan endpoints", async () => {
  const plan = await fenced(() =>
    p.call("loading", "/v1/load-plans", {
      method: "POST",
      body: JSON.stringify(BODY),
      ...bearer(mine.keys.loading!, { "content-type": "application/json" }),
    }),
  );
  expect(plan.status).toBe(201);
  const events = await p.storage.db.select().from(p.storage.t.outbox);
  expect(events.map((e) => [e.orgId, e.type])).toEqual([[mine.orgId, "plan_created"]]);
});

test("a rate event reads only its organisation's rates endpoints", async () => {
  const at = new Date().toISOString();
  const raised = await fenced(() =>
    p.storage.transaction((tx) =>
      appendRateEvents(tx, mine.orgId, [{ type: RATE_ADDED, data: sampleSheet("s1") }], at),
    ),
  );
  expect(raised).toBe(1);
});

test("the fan-out reads only the event's organisation's endpoints, and delivers only there", async () => {
  const { outbox, webhookDeliveries, webhookEndpoints } = p.storage.t;
  // Events of the first organisation on both products, beside whatever the tests above raised.
  await p.storage.outbox.append(
    [
      { orgId: mine.orgId, product: "loading", type: "plan_deleted", data: sampleDeletedPlan("p1") },
      {
        orgId: mine.orgId,
        product: "rates",
        type: "rate_expiring",
        data: { ...sampleSheet("s1"), days_left: 3, expiring_days: 14 },
      },
    ],
    new Date().toISOString(),
  );
  const delivered = async () => {
    const pending = await p.storage.db.select().from(outbox).where(eq(outbox.fannedOut, false));
    const rows = await p.storage.db.select().from(webhookDeliveries);
    return pending.length === 0 && rows.every((d) => d.status === "delivered") && rows;
  };
  const rows = await fenced(async () => {
    const dispatcher = await Dispatcher.start(p.storage, testWebhookConfig(rx, { timeoutMs: 5000 }));
    try {
      return await until(delivered, 30_000, "every event delivered");
    } finally {
      await dispatcher.stop();
    }
  });
  const ours = await p.storage.db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.orgId, mine.orgId));
  expect(new Set(rows.map((d) => d.endpointId))).toEqual(new Set(ours.map((e) => e.id)));
  expect(rx.received.some((r) => r.path === "/ok/mine/loading")).toBe(true);
  expect(rx.received.some((r) => r.path === "/ok/mine/rates")).toBe(true);
  expect(rx.received.filter((r) => r.path.startsWith("/ok/theirs/"))).toHaveLength(0);
}, 60_000);
