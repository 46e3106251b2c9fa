/**
 * At-least-once across a crash: the dispatcher runs as its own process, is killed with SIGKILL
 * while deliveries are in flight (the receiver answers slowly), and a fresh one finishes the work.
 * Every event arrives at least once; a repeat carries the same delivery id and the same bytes.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { deliveryIdFor } from "../../api/webhooks/dispatcher.ts";
import { verify } from "../../api/webhooks/verify.ts";
import { sharedTestDatabase } from "../helpers/database.ts";
import { startReceiver } from "./receiver.ts";
import { testWebhookConfig, until, webhookPlatform } from "./setup.ts";

const ROOT = join(import.meta.dir, "../..");
const dir = mkdtempSync(join(tmpdir(), "portolan-crash-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function spawnDispatcher(env: Record<string, string>) {
  // The dispatcher role on its own, as an operator runs it apart from the API.
  return Bun.spawn([process.execPath, join(ROOT, "api/main.ts")], {
    cwd: ROOT,
    env: { ...process.env, PORTOLAN_ADMIN_PORT: "off", ...env, PORTOLAN_ROLES: "dispatcher" },
    stdout: "ignore",
    stderr: "inherit",
  });
}

test("a dispatcher killed mid-delivery loses nothing; repeats keep their id and bytes", async () => {
  const rx = await startReceiver();
  const database = sharedTestDatabase(join(dir, "crash.sqlite"));
  const { p, t, api } = await webhookPlatform(testWebhookConfig(rx), { database });
  try {
    const ep = (await api("POST", "/v1/webhooks", { url: rx.url("/slow/400/crash") })).body.data as {
      id: string;
      secret: string;
    };
    const events = Array.from({ length: 40 }, (_, i) => ({
      id: `crash-${i}`,
      orgId: t.orgId,
      product: "ocean",
      type: "vessel_departed",
      occurredAt: new Date(Date.UTC(2026, 10, 20, 12, 0, i)).toISOString(),
      data: { n: i },
      createdAt: new Date().toISOString(),
    }));
    const { db, t: tables } = p.storage;
    await db.insert(tables.outbox).values(events);

    const env = {
      PORTOLAN_DB: database,
      PORTOLAN_WEBHOOK_ALLOW_PRIVATE: "1",
      PORTOLAN_WEBHOOK_CA_FILE: rx.caFile,
      PORTOLAN_WEBHOOK_RESOLVE: "hooks.test=127.0.0.1",
      PORTOLAN_WEBHOOK_SWEEP_MS: "50",
      PORTOLAN_WEBHOOK_TIMEOUT_MS: "1000", // lease: 2 x timeout + 1 s = 3 s
      PORTOLAN_WEBHOOK_CONCURRENCY: "6",
      PORTOLAN_WEBHOOK_SCHEDULE: "0,100ms,100ms,100ms",
    };
    const first = spawnDispatcher(env);
    await rx.waitFor(9, (r) => r.path === "/slow/400/crash", 15_000);
    first.kill("SIGKILL");
    expect(await first.exited).not.toBe(0);
    // Sent but never recorded as delivered: the receiver got these while the dispatcher died.
    const delivered = () =>
      db
        .select({ id: tables.webhookDeliveries.id })
        .from(tables.webhookDeliveries)
        .where(eq(tables.webhookDeliveries.status, "delivered"));
    const deliveredAtKill = new Set((await delivered()).map((d) => d.id));
    const unanswered = rx.received
      .filter((r) => r.path === "/slow/400/crash")
      .map((r) => r.headers["x-portolan-ocean-delivery"]!)
      .filter((id) => !deliveredAtKill.has(id));
    expect(unanswered.length).toBeGreaterThan(0);

    const second = spawnDispatcher(env);
    try {
      await until(
        async () => (await delivered()).length === events.length,
        30_000,
        "every delivery recorded as delivered",
      );
    } finally {
      second.kill("SIGTERM");
      await second.exited;
    }

    const hits = rx.received.filter((r) => r.path === "/slow/400/crash");
    const byId = new Map<string, string[]>();
    for (const h of hits) {
      const id = h.headers["x-portolan-ocean-delivery"]!;
      expect(await verify(h.raw, h.headers["x-portolan-ocean-signature"]!, ep.secret)).toBe(true);
      expect(JSON.parse(h.raw.toString()).id).toBe(id);
      byId.set(id, [...(byId.get(id) ?? []), h.raw.toString("hex")]);
    }
    const expected = events.map((e) => deliveryIdFor(e.id, ep.id));
    expect([...byId.keys()].sort()).toEqual([...expected].sort());
    // Each one the receiver had but the dead dispatcher never recorded was sent again, same bytes.
    for (const id of unanswered) expect(byId.get(id)!.length).toBeGreaterThanOrEqual(2);
    for (const bodies of byId.values()) expect(new Set(bodies).size).toBe(1);
  } finally {
    await p.close();
    await rx.close();
  }
}, 60_000);
