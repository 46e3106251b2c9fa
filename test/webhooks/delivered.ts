/**
 * The delivery check the product webhook tests share: each outbox row reaches each endpoint that
 * should have it as one delivery (a copy per attempt at most: an attempt the dispatcher gave up on
 * may still have reached the receiver, and its retry carries the same delivery id), under the product's own headers, signed with that endpoint's secret,
 * with the row as its body, and each row's data matches its event's schema and each delivery the
 * webhook its product's OpenAPI document lists.
 */
import { expect } from "bun:test";
import { deliveryIdFor } from "../../api/webhooks/dispatcher.ts";
import { verify } from "../../api/webhooks/verify.ts";
import type { TestPlatform } from "../helpers/platform.ts";
import { deliveryChecker } from "./document-check.ts";
import { type StoredEvent, schemaProblems } from "./event-schemas.ts";
import type { Receiver } from "./receiver.ts";
import { until } from "./setup.ts";

export type DeliveredRow = StoredEvent;

export interface Expected {
  hook: { id: string; secret: string; path: string };
  /** The rows this endpoint must receive, each once. */
  rows: DeliveredRow[];
}

/**
 * Waits for every expected delivery (and, when `deliveries` is given, for exactly that many
 * delivery rows, all delivered), then checks each endpoint received its rows, each as one delivery,
 * and nothing else.
 * `product` names the headers: x-portolan-<product>-{delivery,event,signature} and
 * "Portolan-<Product>-Webhooks/1".
 */
export async function expectDeliveredOnce(
  rx: Receiver,
  p: TestPlatform,
  expected: Expected[],
  product: "rates" | "loadplan" | "schedules",
  deliveries?: number,
): Promise<void> {
  const storage = p.storage;
  const documented = await deliveryChecker(p, product === "loadplan" ? "loading" : product);
  const header = (name: string) => `x-portolan-${product}-${name}`;
  const agent = `Portolan-${product[0]!.toUpperCase()}${product.slice(1)}-Webhooks/1`;
  expect(schemaProblems(expected.flatMap((e) => e.rows))).toEqual([]);
  for (const { hook, rows } of expected) {
    expect(rows.length, hook.path).toBeGreaterThan(0);
    await rx.waitFor(rows.length, (r) => r.path === hook.path, 30_000);
  }
  await until(async () => {
    const ds = await storage.db.select().from(storage.t.webhookDeliveries);
    const counted = deliveries === undefined ? ds.length > 0 : ds.length === deliveries;
    return counted && ds.every((d) => d.status === "delivered");
  }, 30_000);
  await Bun.sleep(200); // anything extra would have arrived by now
  const attempts = new Map<string, number>();
  for (const a of await storage.db.select().from(storage.t.webhookAttempts))
    attempts.set(a.deliveryId, (attempts.get(a.deliveryId) ?? 0) + 1);
  for (const { hook, rows } of expected) {
    const hits = rx.received.filter((r) => r.path === hook.path);
    const ids = hits.map((h) => h.headers[header("delivery")]!);
    expect(new Set(ids), hook.path).toEqual(new Set(rows.map((row) => deliveryIdFor(row.id, hook.id))));
    for (const id of new Set(ids))
      expect(ids.filter((i) => i === id).length, `${hook.path} ${id}`).toBeLessThanOrEqual(
        attempts.get(id) ?? 0,
      );
    for (const row of rows) {
      const id = deliveryIdFor(row.id, hook.id);
      const hit = hits.find((h) => h.headers[header("delivery")] === id)!;
      expect(hit, `${hook.path} ${row.type} ${row.id}`).toBeDefined();
      expect(hit.headers[header("event")]).toBe(row.type);
      expect(hit.headers["user-agent"]).toBe(agent);
      expect(await verify(hit.raw, hit.headers[header("signature")]!, hook.secret)).toBe(true);
      expect(await verify(hit.raw, hit.headers[header("signature")]!, "whsec_wrong")).toBe(false);
      documented(hit);
      expect(JSON.parse(hit.raw.toString())).toEqual({
        id,
        type: row.type,
        occurred_at: new Date(row.occurredAt).toISOString(),
        data: row.data,
      });
    }
  }
}
