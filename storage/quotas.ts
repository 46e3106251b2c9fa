/**
 * The counts plan quotas are checked against: container slots in use and the month's unique
 * shipments (with their pay-as-you-go charges). The policy comparing them lives with the tracking
 * engine (ingest/tracking/quotas.ts); run these inside its transaction (write lock first) so the counts
 * still hold when the charge is written.
 */
import {
  and,
  count,
  countDistinct,
  eq,
  inArray,
  isNull,
  like,
  ne,
  notInArray,
  or,
  sql,
  sum,
} from "drizzle-orm";
import type { Statement } from "./dialect.ts";
import { perConnection, type Runner } from "./runner.ts";
import type { shipmentUsage, tracked } from "./schema.ts";
import { REFUNDED_REASONS } from "./trackings.ts";

export interface Shipment {
  orgId: string;
  /** YYYY-MM (UTC). */
  month: string;
  identifier: string;
}

export interface Quotas {
  /**
   * Container numbers the organisation actively tracks (its slots in use). A box counts once however
   * many records carry it (tracked alone and as a box of a tracked B/L).
   */
  activeBoxes(orgId: string): Promise<Set<string>>;
  /** Slots in use, and how many of `boxes` already hold one. */
  slots(orgId: string, boxes: readonly string[]): Promise<{ inUse: number; held: number }>;
  /** Shipments recorded for the month: all of them, or those of one identifier. */
  shipments(orgId: string, month: string, identifier?: string): Promise<number>;
  /** Pay-as-you-go charges of the month, USD. */
  spent(orgId: string, month: string): Promise<number>;
  recordShipment(shipment: Shipment, chargedUsd: number): Promise<void>;
  removeShipment(shipment: Shipment): Promise<void>;
  /**
   * Other root records of the identifier added in the month, not counting those refunded
   * (REFUNDED_REASONS): the month's shipment row is `rootId`'s only when there are none.
   */
  otherRootsAdded(shipment: Shipment, rootId: string): Promise<number>;
}

/** Active box records of an organisation: what takes container slots. */
const activeFilter = (t: typeof tracked, orgId: string) =>
  and(eq(t.orgId, orgId), isNull(t.archivedAt), eq(t.identifierType, "container_id"));

const ofMonth = (usage: typeof shipmentUsage, orgId: string, month: string) =>
  and(eq(usage.orgId, orgId), eq(usage.month, month));

/** The month's count (shipment_months): read by every compat answer and every add under a quota. */
const monthStatement = perConnection(
  (x): Statement<Array<{ n: number | string }>> =>
    x.dialect.statement("quotas_month_shipments", x.root, (db) =>
      db
        .select({ n: x.t.shipmentMonths.shipments })
        .from(x.t.shipmentMonths)
        .where(
          and(
            eq(x.t.shipmentMonths.orgId, sql.placeholder("orgId")),
            eq(x.t.shipmentMonths.month, sql.placeholder("month")),
          ),
        ),
    ),
);

export class SqlQuotas implements Quotas {
  constructor(private readonly x: Runner) {}

  activeBoxes(orgId: string): Promise<Set<string>> {
    const { tracked } = this.x.t;
    return this.x.run(
      async (db) =>
        new Set(
          (
            await db
              .selectDistinct({ n: tracked.containerNumber })
              .from(tracked)
              .where(activeFilter(tracked, orgId))
          )
            .map((r) => r.n)
            .filter((n): n is string => n !== null),
        ),
    );
  }

  slots(orgId: string, boxes: readonly string[]): Promise<{ inUse: number; held: number }> {
    const { tracked } = this.x.t;
    return this.x.run(async (db) => {
      const active = activeFilter(tracked, orgId);
      const inUse = (
        await db
          .select({ n: countDistinct(tracked.containerNumber) })
          .from(tracked)
          .where(active)
      )[0]!.n;
      const held =
        boxes.length === 0
          ? 0
          : (
              await db
                .selectDistinct({ n: tracked.containerNumber })
                .from(tracked)
                .where(and(active, inArray(tracked.containerNumber, [...boxes])))
            ).length;
      return { inUse, held };
    });
  }

  shipments(orgId: string, month: string, identifier?: string): Promise<number> {
    if (identifier === undefined) {
      const statement = monthStatement(this.x);
      return this.x.run(async (db) => Number((await statement.execute(db, { orgId, month }))[0]?.n ?? 0));
    }
    const { shipmentUsage } = this.x.t;
    return this.x.run(
      async (db) =>
        (
          await db
            .select({ n: count() })
            .from(shipmentUsage)
            .where(and(ofMonth(shipmentUsage, orgId, month), eq(shipmentUsage.identifier, identifier)))
        )[0]!.n,
    );
  }

  spent(orgId: string, month: string): Promise<number> {
    const { shipmentUsage } = this.x.t;
    return this.x.run(async (db) =>
      Number(
        (
          await db
            .select({ s: sum(shipmentUsage.chargedUsd) })
            .from(shipmentUsage)
            .where(ofMonth(shipmentUsage, orgId, month))
        )[0]?.s ?? 0,
      ),
    );
  }

  recordShipment(shipment: Shipment, chargedUsd: number): Promise<void> {
    const { shipmentUsage, shipmentMonths } = this.x.t;
    return this.x.atomic(async (db) => {
      await db.insert(shipmentUsage).values({ ...shipment, chargedUsd });
      await db
        .insert(shipmentMonths)
        .values({ orgId: shipment.orgId, month: shipment.month, shipments: 1 })
        .onConflictDoUpdate({
          target: [shipmentMonths.orgId, shipmentMonths.month],
          set: { shipments: sql`${shipmentMonths.shipments} + 1` },
        });
    });
  }

  removeShipment({ orgId, month, identifier }: Shipment): Promise<void> {
    const { shipmentUsage, shipmentMonths } = this.x.t;
    return this.x.atomic(async (db) => {
      const removed = await db
        .delete(shipmentUsage)
        .where(and(ofMonth(shipmentUsage, orgId, month), eq(shipmentUsage.identifier, identifier)))
        .returning({ identifier: shipmentUsage.identifier });
      if (removed.length === 0) return;
      await db
        .update(shipmentMonths)
        .set({ shipments: sql`${shipmentMonths.shipments} - ${removed.length}` })
        .where(and(eq(shipmentMonths.orgId, orgId), eq(shipmentMonths.month, month)));
    });
  }

  otherRootsAdded({ orgId, month, identifier }: Shipment, rootId: string): Promise<number> {
    const { tracked } = this.x.t;
    return this.x.run(
      async (db) =>
        (
          await db
            .select({ n: count() })
            .from(tracked)
            .where(
              and(
                eq(tracked.orgId, orgId),
                eq(tracked.identifier, identifier),
                isNull(tracked.parentId),
                ne(tracked.id, rootId),
                like(tracked.addedAt, `${month}%`),
                or(isNull(tracked.archivedReason), notInArray(tracked.archivedReason, REFUNDED_REASONS)),
              ),
            )
        )[0]!.n,
    );
  }
}
