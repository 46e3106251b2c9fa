/**
 * `portolan announce` as an operator runs it (a subprocess on the server's database file): one
 * api_change_announced outbox row per organisation with an active ocean endpoint subscribed to it,
 * delivered signed by the dispatcher; nothing for anyone else; a bad command writes nothing.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { API_VERSION } from "../../api/shared/products.ts";
import { Dispatcher, deliveryIdFor } from "../../api/webhooks/dispatcher.ts";
import { verify } from "../../api/webhooks/verify.ts";
import { runCli } from "../helpers/cli.ts";
import { sharedTestDatabase } from "../helpers/database.ts";
import { makePlatform, type TestPlatform } from "../helpers/platform.ts";
import { schemaProblems, storedEvents } from "./event-schemas.ts";
import { type Receiver, startReceiver } from "./receiver.ts";
import { apiOf, testWebhookConfig, until } from "./setup.ts";

const dir = mkdtempSync(join(tmpdir(), "portolan-announce-"));
const database = sharedTestDatabase(join(dir, "portolan.sqlite"));
const env = { ...process.env, PORTOLAN_DB: database };

function cli(...args: string[]) {
  return runCli(args, env);
}

let rx: Receiver;
let p: TestPlatform;
let dispatcher: Dispatcher | null = null;

beforeAll(async () => {
  rx = await startReceiver();
  // The platform (registration, the dispatcher) and the CLI share one database file, as in production.
  p = await makePlatform({ database, webhooks: testWebhookConfig(rx) });
});
afterAll(async () => {
  await dispatcher?.stop();
  await rx.close();
  await p.close();
  rmSync(dir, { recursive: true, force: true });
});

async function org(name: string) {
  const o = await p.accounts.createOrg(name, { paid: true, rateLimit: 1_000_000 });
  for (const product of ["ocean", "schedules"] as const) await p.accounts.setEntitlement(o.id, product, null);
  const key = async (product: "ocean" | "schedules") => (await p.accounts.createKey(o.id, product)).key;
  return { id: o.id, ocean: apiOf(p, await key("ocean")), schedules: apiOf(p, await key("schedules")) };
}

type Hook = { id: string; secret: string };

test("announce: one row per subscribed ocean organisation, delivered signed; none for others; bad flags change nothing", async () => {
  const all = await org("every ocean event");
  const chosen = await org("subscribed by name");
  const other = await org("other ocean events only");
  const paused = await org("paused endpoint");
  const schedulesOnly = await org("schedules endpoint only");
  await org("no endpoints");

  const register = async (api: typeof all.ocean, path: string, eventTypes?: string[]) =>
    (
      await api("POST", "/v1/webhooks", {
        url: rx.url(path),
        ...(eventTypes ? { event_types: eventTypes } : {}),
      })
    ).body.data as Hook;
  const hooks = {
    all: await register(all.ocean, "/ok/all"),
    chosen: await register(chosen.ocean, "/ok/chosen", ["eta_changed", "api_change_announced"]),
    chosenSecond: await register(chosen.ocean, "/ok/chosen-2", ["api_change_announced"]),
  };
  await register(other.ocean, "/ok/other", ["eta_changed", "schedule_disruption"]);
  const off = await register(paused.ocean, "/ok/paused");
  expect((await paused.ocean("PATCH", `/v1/webhooks/${off.id}`, { active: false })).status).toBe(200);
  await register(schedulesOnly.schedules, "/ok/schedules");

  const { db, t: tables } = p.storage;
  const rows = () => db.select().from(tables.outbox).orderBy(tables.outbox.seq);
  for (const bad of [
    ["announce", "--title", "No message"],
    ["announce", "--message", "No title"],
    ["announce", "--title", "T", "--message", "M", "--effective-date", "2027-02-30"],
    ["announce", "--title", "T", "--message", "M", "--effective-date", "next week"],
    ["announce", "--title", "T", "--message", "M", "--url", "ftp://docs.example/changes"],
    ["announce", "--title", "T", "--message", "M", "--audience", "ocean"],
    ["announce", "stray", "--title", "T", "--message", "M"],
    ["announce", "--title", "x".repeat(201), "--message", "M"],
  ]) {
    const r = cli(...bad);
    expect([bad.join(" "), r.code]).toEqual([bad.join(" "), 2]);
    expect(r.err).toMatch(/^portolan: /);
  }
  expect(await rows()).toEqual([]);

  const title = "Tracked record gains vessel_voyage";
  const message = "GET /v1/containers items carry vessel_voyage from 2027-03-01; nothing is removed.";
  const url = "https://docs.example/changes/2027-03";
  const ok = cli(
    "announce",
    "--title",
    title,
    "--message",
    message,
    "--effective-date",
    "2027-03-01",
    "--url",
    url,
  );
  expect(ok.code).toBe(0);
  expect(ok.out[0]).toContain("2 organisation(s), 3 endpoint(s)");
  const announcementId = ok.out.at(-1)!;
  expect(announcementId).toMatch(/^[0-9a-f-]{36}$/);

  const written = await rows();
  expect(written.map((r) => r.orgId).sort()).toEqual([all.id, chosen.id].sort());
  for (const r of written) {
    expect(r).toMatchObject({ product: "ocean", type: "api_change_announced" });
    expect(r.data).toEqual({
      announcement_id: announcementId,
      title,
      message,
      effective_date: "2027-03-01",
      url,
      api_version: API_VERSION,
      announced_at: r.occurredAt,
    });
  }

  // The dispatcher fans the rows out to the three subscribed endpoints, once each, signed.
  dispatcher = await Dispatcher.start(p.storage, testWebhookConfig(rx));
  const hits = await rx.waitFor(3, (r) => r.path.startsWith("/ok/"));
  const expected = [
    [hooks.all, all.id, "/ok/all"],
    [hooks.chosen, chosen.id, "/ok/chosen"],
    [hooks.chosenSecond, chosen.id, "/ok/chosen-2"],
  ] as const;
  for (const [hook, orgId, path] of expected) {
    const row = written.find((r) => r.orgId === orgId)!;
    const hit = hits.find((h) => h.path === path)!;
    expect(hit.headers["x-portolan-ocean-event"]).toBe("api_change_announced");
    expect(await verify(hit.raw, hit.headers["x-portolan-ocean-signature"]!, hook.secret)).toBe(true);
    expect(JSON.parse(hit.raw.toString())).toEqual({
      id: deliveryIdFor(row.id, hook.id),
      type: "api_change_announced",
      occurred_at: row.occurredAt,
      data: row.data,
    });
  }
  // Fan-out is done once every row is consumed; only those three endpoints got a delivery.
  await until(async () => {
    const d = await db.select().from(tables.webhookDeliveries);
    return d.length === 3 && d.every((x) => x.status === "delivered");
  });
  expect(
    await db.select().from(tables.webhookDeliveries).where(eq(tables.webhookDeliveries.endpointId, off.id)),
  ).toEqual([]);
  expect(rx.received.map((r) => r.path).sort()).toEqual(["/ok/all", "/ok/chosen", "/ok/chosen-2"]);
}, 60_000);

test("every event raised above matches its schema in the event catalogue", async () => {
  const rows = await storedEvents(p.storage);
  expect(rows.length).toBeGreaterThan(0);
  expect(schemaProblems(rows)).toEqual([]);
});
