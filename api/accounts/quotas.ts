/**
 * Plan quotas checked when tracking starts: unique shipments per calendar month (UTC), concurrent
 * container slots, and the pay-as-you-go spend cap. Runs inside the add transaction, so a failed
 * add (including INTERNAL_ERROR) charges nothing; that transaction is IMMEDIATE, so the counts read
 * here still hold when the charge is written, also with several processes on one file.
 */
import { and, count, eq, isNull, sum } from "drizzle-orm";
import type { Db } from "../db/database.ts";
import { shipmentUsage, tracked } from "../db/schema.ts";
import { ApiError } from "../shared/errors.ts";
import type { Org } from "./repo.ts";

/** The public plan ladder; CONTAINER_QUOTA_EXCEEDED names the smallest plan that would fit. */
export const PLAN_LADDER = [
  { plan: "free", containerSlots: 10, shipmentQuota: 25 },
  { plan: "starter", containerSlots: 100, shipmentQuota: 250 },
  { plan: "pro", containerSlots: 1_000, shipmentQuota: 2_500 },
  { plan: "enterprise", containerSlots: null, shipmentQuota: null },
] as const;

export const monthOf = (now: number) => new Date(now).toISOString().slice(0, 7);

/**
 * Throws the 402 the add would hit, else records the shipment for the month (charging the PAYG
 * unit price once per identifier and month). `newContainers` is how many slots the add takes.
 */
export function chargeAdd(db: Db, org: Org, identifier: string, newContainers: number, now: number): void {
  const month = monthOf(now);
  const already = db
    .select({ n: count() })
    .from(shipmentUsage)
    .where(
      and(
        eq(shipmentUsage.orgId, org.id),
        eq(shipmentUsage.month, month),
        eq(shipmentUsage.identifier, identifier),
      ),
    )
    .get()!.n;
  if (org.containerSlots !== null) {
    const active = db
      .select({ n: count() })
      .from(tracked)
      .where(
        and(
          eq(tracked.orgId, org.id),
          isNull(tracked.archivedAt),
          eq(tracked.identifierType, "container_id"),
        ),
      )
      .get()!.n;
    if (active + newContainers > org.containerSlots) {
      const needed = PLAN_LADDER.find(
        (p) => p.containerSlots === null || p.containerSlots >= active + newContainers,
      );
      throw new ApiError(
        "containerQuota",
        `No container slot free: ${active} of ${org.containerSlots} in use. The ${needed?.plan} plan has room.`,
        { plan_needed: needed?.plan ?? "enterprise" },
      );
    }
  }
  if (already > 0) return;
  if (org.shipmentQuota !== null) {
    const used = db
      .select({ n: count() })
      .from(shipmentUsage)
      .where(and(eq(shipmentUsage.orgId, org.id), eq(shipmentUsage.month, month)))
      .get()!.n;
    if (used >= org.shipmentQuota) {
      throw new ApiError(
        "uniqueQuota",
        `The plan's ${org.shipmentQuota} unique shipments for ${month} are used.`,
      );
    }
  }
  let charge = 0;
  if (org.paygSpendCapUsd !== null) {
    charge = org.paygUnitPriceUsd ?? 0;
    const spent = Number(
      db
        .select({ s: sum(shipmentUsage.chargedUsd) })
        .from(shipmentUsage)
        .where(and(eq(shipmentUsage.orgId, org.id), eq(shipmentUsage.month, month)))
        .get()?.s ?? 0,
    );
    if (spent + charge > org.paygSpendCapUsd) {
      throw new ApiError(
        "paygCap",
        `Adding would cross the pay-as-you-go spend cap of ${org.paygSpendCapUsd} USD for ${month} (spent ${spent}).`,
      );
    }
  }
  db.insert(shipmentUsage).values({ orgId: org.id, month, identifier, chargedUsd: charge }).run();
}
