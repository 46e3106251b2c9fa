/**
 * Plan quotas checked when tracking starts: unique shipments per calendar month (UTC), concurrent
 * container slots, and the pay-as-you-go spend cap. Runs inside the add transaction, so a failed
 * add (including INTERNAL_ERROR) charges nothing; that transaction takes the write lock first, so
 * the counts read here still hold when the charge is written, also with several processes on one
 * database. The boxes a bill of lading or booking reveals later take their slots in the engine's
 * refresh transaction through the same counts and the same rule (slotRefusal).
 */
import { monthOf, type PlanHolder, planNeeded } from "../../common/plans.ts";
import type { Org } from "../../storage/orgs.ts";
import type { Repositories } from "../../storage/storage.ts";
import { TrackingError } from "./errors.ts";

/**
 * The container-slot rule of every registration, whichever path makes it (add, lookup, compat): the
 * boxes it brings (a container add's box; a B/L's or booking's manifest at the carrier's first
 * answer) all take slots, or the registration is refused whole with CONTAINER_QUOTA_EXCEEDED
 * naming the plan for all of them. `wanted` counts the boxes that hold no slot yet.
 */
export function slotRefusal(org: Org, inUse: number, wanted: number): TrackingError | undefined {
  if (org.containerSlots === null || inUse + wanted <= org.containerSlots) return undefined;
  return containerQuotaError(org, inUse, wanted);
}

/** The refusal of `wanted` more boxes when `inUse` of the plan's slots are taken, naming a plan with room. */
export function containerQuotaError(org: PlanHolder, inUse: number, wanted: number): TrackingError {
  const needed = planNeeded(org, inUse + wanted);
  const room =
    needed.plan === org.plan
      ? `The ${org.plan} plan's arranged cap is reached: ask for a higher cap.`
      : `The ${needed.plan} plan has room (${needed.containerSlots === null ? "no cap" : `${needed.containerSlots.toLocaleString("en")} slots`}).`;
  return new TrackingError(
    "container_quota_exceeded",
    `No container slot free for ${wanted === 1 ? "this box" : `${wanted} boxes`}: ${inUse} of ${org.containerSlots} in use on the ${org.plan} plan. ${room}`,
    { plan_needed: needed.plan },
  );
}

export interface Slots {
  org: Org;
  /** Container numbers holding a slot (empty when uncapped: nothing is counted). */
  active: Set<string>;
  /** Slots left; null = uncapped. */
  free: number | null;
}

/** An organisation's container slots now; in a refresh, after the organisation's lock. */
export async function containerSlots(tx: Repositories, orgId: string): Promise<Slots> {
  const org = (await tx.orgs.get(orgId))!;
  if (org.containerSlots === null) return { org, active: new Set(), free: null };
  const active = await tx.quotas.activeBoxes(orgId);
  return { org, active, free: Math.max(0, org.containerSlots - active.size) };
}

/**
 * Throws the quota refusal the add would hit, else records the shipment for the month (charging the PAYG
 * unit price once per identifier and month). `boxes` are the container numbers the add tracks
 * itself (the container of a container add; none for a B/L or booking, whose boxes take their
 * slots when the carrier names them).
 */
export async function chargeAdd(
  tx: Repositories,
  org: Org,
  identifier: string,
  boxes: readonly string[],
  now: number,
): Promise<void> {
  const shipment = { orgId: org.id, month: monthOf(now), identifier };
  const { month } = shipment;
  // Adds of one organisation from several processes take turns from here to commit.
  await tx.orgs.lock(org.id);
  const already = await tx.quotas.shipments(org.id, month, identifier);
  if (org.containerSlots !== null && boxes.length > 0) {
    const { inUse, held } = await tx.quotas.slots(org.id, boxes);
    const refusal = slotRefusal(org, inUse, new Set(boxes).size - held);
    if (refusal) throw refusal;
  }
  if (already > 0) return;
  if (org.shipmentQuota !== null && (await tx.quotas.shipments(org.id, month)) >= org.shipmentQuota) {
    throw new TrackingError(
      "unique_quota_exceeded",
      `The plan's ${org.shipmentQuota} unique shipments for ${month} are used.`,
    );
  }
  let charge = 0;
  if (org.paygSpendCapUsd !== null) {
    charge = org.paygUnitPriceUsd ?? 0;
    const spent = await tx.quotas.spent(org.id, month);
    if (spent + charge > org.paygSpendCapUsd) {
      throw new TrackingError(
        "payg_spend_cap_reached",
        `Adding would cross the pay-as-you-go spend cap of ${org.paygSpendCapUsd} USD for ${month} (spent ${spent}).`,
      );
    }
  }
  await tx.quotas.recordShipment(shipment, charge);
}

/**
 * Gives back the charge of a root record whose add is undone (the carrier rejected its number).
 * The month's usage row belongs to the first add of that identifier in the month; it is this
 * record's only when no other root carrying the identifier was added that month, not counting
 * roots already refunded the same way. Run in the transaction that deletes or archives the record.
 */
export async function refundAdd(
  tx: Repositories,
  row: { id: string; orgId: string; identifier: string; addedAt: string },
): Promise<void> {
  const shipment = { orgId: row.orgId, month: row.addedAt.slice(0, 7), identifier: row.identifier };
  if ((await tx.quotas.otherRootsAdded(shipment, row.id)) > 0) return;
  await tx.quotas.removeShipment(shipment);
}
