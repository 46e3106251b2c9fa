/**
 * plan_created, plan_updated and plan_deleted end to end: raised by the routes in the plan write's
 * transaction, only for organisations with a subscribed load-plan endpoint, and delivered by the
 * real dispatcher to a real HTTPS receiver once per subscribed endpoint, signed with the load-plan
 * header. SQLite and, under PORTOLAN_TEST_DB, PostgreSQL.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Dispatcher } from "../../api/webhooks/dispatcher.ts";
import type { TestPlatform } from "../helpers/platform.ts";
import { expectDeliveredOnce } from "../webhooks/delivered.ts";
import type { StoredEvent } from "../webhooks/event-schemas.ts";
import { type Receiver, startReceiver } from "../webhooks/receiver.ts";
import { testWebhookConfig } from "../webhooks/setup.ts";
import {
  apiOf,
  BODY,
  CRATE,
  type Json,
  loadingPlatform,
  loadingTenant,
  PALLET,
  unitSummaries,
} from "./setup.ts";

let rx: Receiver;
let p: TestPlatform;
let dispatcher: Dispatcher;
let api: ReturnType<typeof apiOf>;
let quietApi: ReturnType<typeof apiOf>;
let org: { orgId: string; key: string };
const hooks: Record<"all" | "deleted", { id: string; secret: string; path: string }> = {} as never;
const plan: Json = {};

type Row = StoredEvent;
const outbox = async (): Promise<Row[]> =>
  (await p.storage.db.select().from(p.storage.t.outbox).orderBy(p.storage.t.outbox.seq)) as Row[];

async function register(path: string, eventTypes?: string[]) {
  const r = await api("POST", "/v1/webhooks", {
    url: rx.url(path),
    ...(eventTypes ? { event_types: eventTypes } : {}),
  });
  expect(r.status).toBe(201);
  return {
    id: r.body.data.id as string,
    secret: r.body.data.secret as string,
    path,
    types: r.body.data.event_types,
  };
}

beforeAll(async () => {
  rx = await startReceiver();
  // A generous timeout: on a loaded machine a slow answer would be retried, and arrive twice.
  const webhooks = testWebhookConfig(rx, { timeoutMs: 5000 });
  p = await loadingPlatform({ webhooks });
  dispatcher = await Dispatcher.start(p.storage, webhooks);
  org = await loadingTenant(p, "Subscribed Ltd");
  api = apiOf(p, org.key);
  quietApi = apiOf(p, (await loadingTenant(p, "Quiet Ltd")).key);
  hooks.all = await register("/ok/all");
  hooks.deleted = await register("/ok/deleted", ["plan_deleted", "rate_added", "bogus"]);
}, 60_000);
afterAll(async () => {
  await dispatcher?.stop();
  await p?.close();
  await rx?.close();
});

test("registration accepts exactly the load-plan catalogue", async () => {
  const r = await api("GET", `/v1/webhooks/${hooks.deleted.id}`);
  expect(r.body.data.event_types).toEqual(["plan_deleted"]);
});

test("create, change and delete each raise their event in the write's transaction", async () => {
  const made = await api("POST", "/v1/load-plans", BODY);
  plan.id = made.body.data.id;
  await quietApi("POST", "/v1/load-plans", BODY); // nobody listens there
  const renamed = await api("PATCH", `/v1/load-plans/${plan.id}`, { name: "Renamed" });
  const more = await api("PATCH", `/v1/load-plans/${plan.id}`, {
    items: [{ ...PALLET, quantity: 8 }, CRATE],
  });
  await api("PATCH", `/v1/load-plans/${plan.id}`, { name: "Renamed" }); // no change: no event
  await api("POST", "/v1/load-plans", { ...BODY, items: [{ ...PALLET, width: 0 }] }); // refused: no event
  const gone = await api("DELETE", `/v1/load-plans/${plan.id}`);
  expect(gone.status).toBe(200);

  const rows = await outbox();
  expect(rows.map((r) => [r.orgId, r.product, r.type])).toEqual([
    [org.orgId, "loading", "plan_created"],
    [org.orgId, "loading", "plan_updated"],
    [org.orgId, "loading", "plan_updated"],
    [org.orgId, "loading", "plan_deleted"],
  ]);
  const summary = (d: Json) => {
    const { input: _, result, ...rest } = d;
    const r = result as { units: Json[]; objective: string; total_cost: unknown; unplaced: Json[] };
    return {
      ...rest,
      objective: r.objective,
      units_used: r.units.length,
      pieces_placed: r.units.reduce((s, u) => s + (u.pieces as number), 0),
      pieces_unplaced: r.unplaced.reduce((s, x) => s + (x.quantity as number), 0),
      total_cost: r.total_cost,
      units: unitSummaries(r.units),
    };
  };
  expect(rows[0]!.data).toEqual(summary(made.body.data));
  expect(rows[0]!.occurredAt).toBe(made.body.data.created_at as string);
  expect(rows[1]!.data).toEqual({
    ...summary(renamed.body.data),
    previous_version: 1,
    previous_status: "complete",
    changed: ["name"],
    replanned: false,
  });
  expect(rows[2]!.data).toEqual({
    ...summary(more.body.data),
    previous_version: 2,
    previous_status: "complete",
    changed: ["input"],
    replanned: true,
  });
  expect(rows[2]!.data.pieces_placed).toBe(18);
  expect(rows[3]!.data).toEqual({
    id: plan.id,
    name: "Renamed",
    reference: BODY.reference,
    version: 3,
    deleted_at: rows[3]!.occurredAt,
  });
});

test("each event reaches each subscribed endpoint once, signed with the load-plan header", async () => {
  const rows = await outbox();
  const expected = [
    { hook: hooks.all, rows: rows.filter((r) => r.orgId === org.orgId) },
    { hook: hooks.deleted, rows: rows.filter((r) => r.type === "plan_deleted") },
  ];
  await expectDeliveredOnce(rx, p, expected, "loadplan", 5);
}, 60_000);
