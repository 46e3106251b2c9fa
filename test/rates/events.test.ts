/**
 * rate_added, rate_changed and rate_expiring end to end: sheets imported by the real CLI (its own
 * process, same database), the expiry sweep run by two platforms on that database at once, and the
 * real dispatcher delivering to a real HTTPS receiver. Each event is written once, in the change's
 * transaction, only for subscribed organisations, and delivered once per subscribed endpoint,
 * signed with the rates header. Runs on SQLite and, under PORTOLAN_TEST_DB, on PostgreSQL.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Dispatcher } from "../../api/webhooks/dispatcher.ts";
import { RateExpirySweep } from "../../ingest/rates/sweep.ts";
import { bearer, makePlatform, type TestPlatform } from "../helpers/platform.ts";
import { expectDeliveredOnce } from "../webhooks/delivered.ts";
import type { StoredEvent } from "../webhooks/event-schemas.ts";
import { type Receiver, startReceiver } from "../webhooks/receiver.ts";
import { testWebhookConfig } from "../webhooks/setup.ts";
import { type RatesWorld, ratesWorld } from "./setup.ts";
import { FCL_CSV, FCL_HEAD, FCL2_CSV } from "./sheets.ts";

let rx: Receiver;
let w: RatesWorld;
let second: TestPlatform;
let dispatcher: Dispatcher;
let org: { id: string; key: string };
let quiet: { id: string; key: string };
const hooks: Record<"all" | "expiring", { id: string; secret: string; path: string }> = {} as never;
const sheet: Record<string, string> = {};

type Row = StoredEvent;
const outbox = async (): Promise<Row[]> =>
  (await w.p.storage.db.select().from(w.p.storage.t.outbox).orderBy(w.p.storage.t.outbox.seq)) as Row[];

async function register(key: string, path: string, eventTypes?: string[]) {
  const res = await w.p.call("rates", "/v1/webhooks", {
    method: "POST",
    body: JSON.stringify({ url: rx.url(path), ...(eventTypes ? { event_types: eventTypes } : {}) }),
    ...bearer(key, { "content-type": "application/json" }),
  });
  expect(res.status).toBe(201);
  const data = ((await res.json()) as { data: { id: string; secret: string } }).data;
  return { id: data.id, secret: data.secret, path };
}

beforeAll(async () => {
  rx = await startReceiver();
  // A generous timeout: on a loaded machine a slow answer would be retried, and arrive twice.
  const webhooks = testWebhookConfig(rx, { timeoutMs: 5000 });
  w = await ratesWorld({ webhooks });
  // A second process's view: another platform (own connection or pool) on the same database.
  second = await makePlatform({ database: w.database, webhooks });
  dispatcher = await Dispatcher.start(w.p.storage, webhooks);
  for (const [name, target] of [
    ["Subscribed Ltd", "org"],
    ["Quiet Ltd", "quiet"],
  ] as const) {
    const t = await w.p.tenant({ paid: true, name });
    const made = { id: t.orgId, key: t.keys.rates };
    if (target === "org") org = made;
    else quiet = made;
  }
  hooks.all = await register(org.key, "/ok/all");
  hooks.expiring = await register(org.key, "/ok/expiring", ["rate_expiring"]);
}, 60_000);
afterAll(async () => {
  await dispatcher?.stop();
  await second?.close();
  await w?.close();
  await rx?.close();
});

const importAs = (orgId: string, name: string, text: string) => {
  const r = w.cli("rates", "import", "--org", orgId, w.file(name, text));
  expect(r.code, r.err).toBe(0);
  return r.out.at(-1)!;
};

test("an import raises rate_added in its transaction, for subscribed organisations only", async () => {
  sheet.fcl = importAs(org.id, "fcl.csv", FCL_CSV);
  sheet.fcl2 = importAs(org.id, "fcl2.csv", FCL2_CSV);
  importAs(quiet.id, "fcl.csv", FCL_CSV);
  const rows = await outbox();
  expect(rows.map((r) => [r.orgId, r.product, r.type, r.data.sheet_id])).toEqual([
    [org.id, "rates", "rate_added", sheet.fcl],
    [org.id, "rates", "rate_added", sheet.fcl2],
  ]);
  expect(rows[0]!.data).toEqual({
    sheet_id: sheet.fcl,
    ...FCL_HEAD,
    version: 1,
    source_file: "fcl.csv",
    imported_at: rows[0]!.occurredAt,
    lines: 4,
    surcharges: 6,
  });
  // An identical re-import raises nothing.
  importAs(org.id, "fcl.csv", FCL_CSV);
  expect(await outbox()).toHaveLength(2);
});

test("a re-import that reprices, adds and drops lanes raises one rate_changed naming them", async () => {
  const lines = FCL_CSV.split("\n");
  lines[3] = "line,,,,,,,CNSHA,NLRTM,40HC,1650,30,,,"; // 1800 -> 1650
  lines[5] = "line,,,,,,,CNSHA,DEHAM,40GP,1700,,,,"; // replaces CNSHA>DEHAM 40HC
  lines[6] = "surcharge,,,,,,,,,40HC,,,BAF,per_container,320";
  const next = lines.join("\n").replace("2026-03-31", "2026-04-03");
  expect(importAs(org.id, "fcl-v2.csv", next)).toBe(sheet.fcl!);
  const rows = (await outbox()).slice(2);
  expect(rows.map((r) => r.type)).toEqual(["rate_changed"]);
  expect(rows[0]!.data).toMatchObject({
    sheet_id: sheet.fcl,
    version: 2,
    previous_version: 1,
    valid_to: "2026-04-03",
    previous_valid_to: "2026-03-31",
    source_file: "fcl-v2.csv",
    lanes_changed: 1,
    lanes_added: 1,
    lanes_removed: 1,
    surcharges_changed: true,
    changed: [
      {
        origin: "CNSHA",
        destination: "NLRTM",
        equipment: "40HC",
        previous: { basis: "per_container", rate: 1800, minimum: null, breaks: null },
        current: { basis: "per_container", rate: 1650, minimum: null, breaks: null },
      },
    ],
    added: [{ origin: "CNSHA", destination: "DEHAM", equipment: "40GP" }],
    removed: [{ origin: "CNSHA", destination: "DEHAM", equipment: "40HC" }],
  });
});

test("the expiry sweep raises rate_expiring once per sheet and end date, across processes", async () => {
  const sweep = (p: TestPlatform, at: string) =>
    new RateExpirySweep({ storage: p.storage, days: 7, now: () => Date.parse(at) }).pollDue();
  // 2026-03-27: FCL ends 2026-04-03 (7 days: inside); FCL2 ended 2026-02-28.
  const raced = await Promise.all([
    sweep(w.p, "2026-03-27T06:00:00Z"),
    sweep(second, "2026-03-27T06:00:00Z"),
  ]);
  // Two sheets due (ours, and the quiet organisation's copy ending 2026-03-31), each raised once.
  expect(raced.reduce((a, b) => a + b, 0)).toBe(2);
  expect(await sweep(second, "2026-03-28T06:00:00Z")).toBe(0);
  // The quiet organisation's is recorded, but nobody there is subscribed: one outbox row.
  const rows = (await outbox()).slice(3);
  expect(rows.map((r) => [r.orgId, r.type, r.data.sheet_id, r.data.days_left, r.data.expiring_days])).toEqual(
    [[org.id, "rate_expiring", sheet.fcl, 7, 7]],
  );
  // A re-import extending the validity makes the new end date due again, once.
  const lines = FCL_CSV.split("\n");
  lines[3] = "line,,,,,,,CNSHA,NLRTM,40HC,1650,30,,,";
  lines[5] = "line,,,,,,,CNSHA,DEHAM,40GP,1700,,,,";
  lines[6] = "surcharge,,,,,,,,,40HC,,,BAF,per_container,320";
  importAs(org.id, "fcl-v3.csv", lines.join("\n").replace("2026-03-31", "2026-04-05"));
  expect(await sweep(w.p, "2026-03-29T06:00:00Z")).toBe(1);
  expect(await sweep(second, "2026-03-30T06:00:00Z")).toBe(0);
  const after = (await outbox()).slice(4).map((r) => [r.type, r.data.valid_to, r.data.days_left]);
  expect(after).toEqual([
    ["rate_changed", "2026-04-05", undefined],
    ["rate_expiring", "2026-04-05", 7],
  ]);
});

test("each event reaches each subscribed endpoint once, signed with the rates header", async () => {
  const rows = (await outbox()).filter((r) => r.orgId === org.id);
  expect(rows.map((r) => r.type)).toEqual([
    "rate_added",
    "rate_added",
    "rate_changed",
    "rate_expiring",
    "rate_changed",
    "rate_expiring",
  ]);
  const expected = [
    { hook: hooks.all, rows },
    { hook: hooks.expiring, rows: rows.filter((r) => r.type === "rate_expiring") },
  ];
  await expectDeliveredOnce(rx, w.p, expected, "rates", 8);
}, 60_000);
