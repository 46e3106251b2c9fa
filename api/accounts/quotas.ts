/**
 * Plan quotas checked when tracking starts: unique shipments per calendar month (UTC), concurrent
 * container slots, and the pay-as-you-go spend cap. Runs inside the add transaction, so a failed
 * add (including INTERNAL_ERROR) charges nothing; that transaction is IMMEDIATE, so the counts read
 * here still hold when the charge is written, also with several processes on one file. The boxes
 * a bill of lading or booking reveals later take their slots in the tracking engine's refresh
 * transaction (also IMMEDIATE) through the same counts.
 */
import { and, count, countDistinct, eq, inArray, isNull, like, ne, or, sum } from "drizzle-orm";
import type { Db } from "../db/database.ts";
import { shipmentUsage, tracked } from "../db/schema.ts";
import { ApiError } from "../shared/errors.ts";
import type { Org } from "./repo.ts";

/**
 * The public plan ladder, cheapest first. Plans are names; an organisation's quotas are its own
 * columns (set with `portolan plan set`), so the ladder is what CONTAINER_QUOTA_EXCEEDED offers.
 */
export const PLAN_LADDER = [
  { plan: "free", containerSlots: 10, shipmentQuota: 25 },
  { plan: "starter", containerSlots: 100, shipmentQuota: 250 },
  { plan: "pro", containerSlots: 1_000, shipmentQuota: 2_500 },
  { plan: "enterprise", containerSlots: null, shipmentQuota: null },
] as const;

export const monthOf = (now: number) => new Date(now).toISOString().slice(0, 7);

/** Reason of a root archived because the carrier rejected its number's form (its charge refunded). */
export const REJECTED_REASON = "rejected: invalid number";

/**
 * The cheapest plan above the organisation's own whose standard slots hold `required` boxes and
 * exceed what it has now (a plan with room, never the current one). Enterprise when none does.
 */
export function planNeeded(org: Org, required: number): (typeof PLAN_LADDER)[number] {
  const rank = PLAN_LADDER.findIndex((p) => p.plan === org.plan);
  return (
    PLAN_LADDER.find(
      (p, i) =>
        i > rank &&
        (p.containerSlots === null ||
          (p.containerSlots >= required &&
            (org.containerSlots === null || p.containerSlots > org.containerSlots))),
    ) ?? PLAN_LADDER[PLAN_LADDER.length - 1]!
  );
}

/** The 402 for `wanted` more boxes when `inUse` of the plan's slots are taken. */
export function containerQuotaError(org: Org, inUse: number, wanted: number): ApiError {
  const needed = planNeeded(org, inUse + wanted);
  const room =
    needed.plan === org.plan
      ? `The ${org.plan} plan's arranged cap is reached: ask for a higher cap.`
      : `The ${needed.plan} plan has room (${needed.containerSlots === null ? "no cap" : `${needed.containerSlots.toLocaleString("en")} slots`}).`;
  return new ApiError(
    "containerQuota",
    `No container slot free for ${wanted === 1 ? "this box" : `${wanted} boxes`}: ${inUse} of ${org.containerSlots} in use on the ${org.plan} plan. ${room}`,
    { plan_needed: needed.plan },
  );
}

/** Active box records of an organisation: what takes container slots. */
const activeFilter = (orgId: string) =>
  and(eq(tracked.orgId, orgId), isNull(tracked.archivedAt), eq(tracked.identifierType, "container_id"));

/**
 * Container numbers the organisation actively tracks (its slots in use). A box counts once however
 * many records carry it (tracked alone and as a box of a tracked B/L).
 */
export function activeBoxes(db: Db, orgId: string): Set<string> {
  return new Set(
    db
      .selectDistinct({ n: tracked.containerNumber })
      .from(tracked)
      .where(activeFilter(orgId))
      .all()
      .map((r) => r.n)
      .filter((n): n is string => n !== null),
  );
}

/**
 * Throws the 402 the add would hit, else records the shipment for the month (charging the PAYG
 * unit price once per identifier and month). `boxes` are the container numbers the add tracks
 * itself (the container of a container add; none for a B/L or booking, whose boxes take their
 * slots when the carrier names them).
 */
export function chargeAdd(db: Db, org: Org, identifier: string, boxes: readonly string[], now: number): void {
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
  if (org.containerSlots !== null && boxes.length > 0) {
    const active = activeFilter(org.id);
    const inUse = db
      .select({ n: countDistinct(tracked.containerNumber) })
      .from(tracked)
      .where(active)
      .get()!.n;
    const tracking = db
      .selectDistinct({ n: tracked.containerNumber })
      .from(tracked)
      .where(and(active, inArray(tracked.containerNumber, [...boxes])))
      .all().length;
    const wanted = new Set(boxes).size - tracking;
    if (inUse + wanted > org.containerSlots) throw containerQuotaError(org, inUse, wanted);
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

/**
 * Gives back the charge of a root record whose add is undone (the carrier rejected its number).
 * The month's usage row belongs to the first add of that identifier in the month; it is this
 * record's only when no other root carrying the identifier was added that month, not counting
 * roots already refunded the same way. Run in the transaction that deletes or archives the record.
 */
export function refundAdd(
  db: Db,
  row: { id: string; orgId: string; identifier: string; addedAt: string },
): void {
  const month = row.addedAt.slice(0, 7);
  const others = db
    .select({ n: count() })
    .from(tracked)
    .where(
      and(
        eq(tracked.orgId, row.orgId),
        eq(tracked.identifier, row.identifier),
        isNull(tracked.parentId),
        ne(tracked.id, row.id),
        like(tracked.addedAt, `${month}%`),
        or(isNull(tracked.archivedReason), ne(tracked.archivedReason, REJECTED_REASON)),
      ),
    )
    .get()!.n;
  if (others > 0) return;
  db.delete(shipmentUsage)
    .where(
      and(
        eq(shipmentUsage.orgId, row.orgId),
        eq(shipmentUsage.month, month),
        eq(shipmentUsage.identifier, row.identifier),
      ),
    )
    .run();
}
