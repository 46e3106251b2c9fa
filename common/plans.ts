/**
 * The public plan ladder and the plan it offers. Pure: the quota counts come from the storage layer,
 * the policy that compares them lives with tracking (ingest/tracking/quotas.ts).
 */

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

/** What the ladder needs of an organisation (its stored row has these columns). */
export interface PlanHolder {
  plan: string;
  containerSlots: number | null;
}

export const monthOf = (now: number) => new Date(now).toISOString().slice(0, 7);

/**
 * The cheapest plan above the organisation's own whose standard slots hold `required` boxes and
 * exceed what it has now (a plan with room, never the current one). Enterprise when none does.
 */
export function planNeeded(org: PlanHolder, required: number): (typeof PLAN_LADDER)[number] {
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
