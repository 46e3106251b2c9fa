/**
 * The counts plan quotas are checked against: container slots in use and the month's unique
 * shipments (with their pay-as-you-go charges). The policy comparing them lives with the tracking
 * engine (ingest/tracking/quotas.ts); run these inside its transaction (write lock first) so the counts
 * still hold when the charge is written.
 */
import { and, count, countDistinct, eq, inArray, isNull, like, ne, or, sum } from "drizzle-orm";
import type { Runner } from "./runner.ts";
import { shipmentUsage, tracked } from "./schema.ts";
import { REJECTED_REASON } from "./trackings.ts";

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
   * Other root records of the identifier added in the month, not counting those refunded as
   * rejected: the month's shipment row is `rootId`'s only when there are none.
   */
  otherRootsAdded(shipment: Shipment, rootId: string): Promise<number>;
}

/** Active box records of an organisation: what takes container slots. */
const activeFilter = (orgId: string) =>
  and(eq(tracked.orgId, orgId), isNull(tracked.archivedAt), eq(tracked.identifierType, "container_id"));

const ofMonth = (orgId: string, month: string) =>
  and(eq(shipmentUsage.orgId, orgId), eq(shipmentUsage.month, month));

export class SqliteQuotas implements Quotas {
  constructor(private readonly x: Runner) {}

  activeBoxes(orgId: string): Promise<Set<string>> {
    return this.x.run(
      (db) =>
        new Set(
          db
            .selectDistinct({ n: tracked.containerNumber })
            .from(tracked)
            .where(activeFilter(orgId))
            .all()
            .map((r) => r.n)
            .filter((n): n is string => n !== null),
        ),
    );
  }

  slots(orgId: string, boxes: readonly string[]): Promise<{ inUse: number; held: number }> {
    return this.x.run((db) => {
      const active = activeFilter(orgId);
      const inUse = db
        .select({ n: countDistinct(tracked.containerNumber) })
        .from(tracked)
        .where(active)
        .get()!.n;
      const held =
        boxes.length === 0
          ? 0
          : db
              .selectDistinct({ n: tracked.containerNumber })
              .from(tracked)
              .where(and(active, inArray(tracked.containerNumber, [...boxes])))
              .all().length;
      return { inUse, held };
    });
  }

  shipments(orgId: string, month: string, identifier?: string): Promise<number> {
    return this.x.run(
      (db) =>
        db
          .select({ n: count() })
          .from(shipmentUsage)
          .where(
            identifier === undefined
              ? ofMonth(orgId, month)
              : and(ofMonth(orgId, month), eq(shipmentUsage.identifier, identifier)),
          )
          .get()!.n,
    );
  }

  spent(orgId: string, month: string): Promise<number> {
    return this.x.run((db) =>
      Number(
        db
          .select({ s: sum(shipmentUsage.chargedUsd) })
          .from(shipmentUsage)
          .where(ofMonth(orgId, month))
          .get()?.s ?? 0,
      ),
    );
  }

  recordShipment(shipment: Shipment, chargedUsd: number): Promise<void> {
    return this.x.run((db) => {
      db.insert(shipmentUsage)
        .values({ ...shipment, chargedUsd })
        .run();
    });
  }

  removeShipment({ orgId, month, identifier }: Shipment): Promise<void> {
    return this.x.run((db) => {
      db.delete(shipmentUsage)
        .where(and(ofMonth(orgId, month), eq(shipmentUsage.identifier, identifier)))
        .run();
    });
  }

  otherRootsAdded({ orgId, month, identifier }: Shipment, rootId: string): Promise<number> {
    return this.x.run(
      (db) =>
        db
          .select({ n: count() })
          .from(tracked)
          .where(
            and(
              eq(tracked.orgId, orgId),
              eq(tracked.identifier, identifier),
              isNull(tracked.parentId),
              ne(tracked.id, rootId),
              like(tracked.addedAt, `${month}%`),
              or(isNull(tracked.archivedReason), ne(tracked.archivedReason, REJECTED_REASON)),
            ),
          )
          .get()!.n,
    );
  }
}
