/**
 * What is waiting, read for the metrics and the readiness probe: records due a carrier or airline
 * call, outbox events not yet fanned out, deliveries pending; and a statement that only the
 * database can answer.
 */
import { and, count, eq, isNull, lte, min, not } from "drizzle-orm";
import type { Runner } from "./runner.ts";

export interface DueRecords {
  /** Tracked roots and air waybills whose next poll has passed. */
  records: number;
  /** The earliest next poll among them (ISO), null when none is due. */
  oldestDueAt: string | null;
}

export interface OutboxBacklog {
  /** Events not yet turned into deliveries, and when the oldest of them occurred (ISO). */
  events: number;
  oldestEventAt: string | null;
  /** Deliveries waiting for an attempt or a retry. */
  deliveries: number;
}

export interface Backlog {
  due(now: string): Promise<DueRecords>;
  outbox(): Promise<OutboxBacklog>;
  /** Resolves once the database has answered a statement; throws as any statement would. */
  ping(): Promise<void>;
}

export class SqlBacklog implements Backlog {
  constructor(private readonly x: Runner) {}

  due(now: string): Promise<DueRecords> {
    const { tracked, airWaybills } = this.x.t;
    return this.x.run(async (db) => {
      const [roots] = await db
        .select({ n: count(), oldest: min(tracked.nextPollAt) })
        .from(tracked)
        .where(and(isNull(tracked.archivedAt), isNull(tracked.parentId), lte(tracked.nextPollAt, now)));
      const [waybills] = await db
        .select({ n: count(), oldest: min(airWaybills.nextPollAt) })
        .from(airWaybills)
        .where(and(isNull(airWaybills.archivedAt), lte(airWaybills.nextPollAt, now)));
      const oldest = [roots?.oldest, waybills?.oldest].filter((t): t is string => !!t).sort()[0] ?? null;
      return { records: Number(roots?.n ?? 0) + Number(waybills?.n ?? 0), oldestDueAt: oldest };
    });
  }

  outbox(): Promise<OutboxBacklog> {
    const { outbox, webhookDeliveries } = this.x.t;
    return this.x.run(async (db) => {
      const [events] = await db
        .select({ n: count(), oldest: min(outbox.occurredAt) })
        .from(outbox)
        .where(not(outbox.fannedOut));
      const [deliveries] = await db
        .select({ n: count() })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.status, "pending"));
      return {
        events: Number(events?.n ?? 0),
        oldestEventAt: events?.oldest ?? null,
        deliveries: Number(deliveries?.n ?? 0),
      };
    });
  }

  ping(): Promise<void> {
    const { orgs } = this.x.t;
    return this.x.run(async (db) => {
      await db.select({ id: orgs.id }).from(orgs).limit(1);
    });
  }
}
