/**
 * The load-plan webhook events: plan_created, plan_updated (any change; replanned says whether the
 * input changed and the plan was made again) and plan_deleted. Written to the outbox in the
 * transaction of the plan write, for the plan's organisation when one of its active load-plan
 * endpoints is subscribed to the type. Payloads: docs/loadplan.md, "The load-plan product".
 */
import type { ProductEvent } from "../../common/events/catalogue.ts";
import { subscribed } from "../../common/subscriptions.ts";
import type { LoadPlanRow } from "../../storage/load-plans.ts";
import type { Repositories } from "../../storage/storage.ts";
import { planSummary } from "./view.ts";

export const PLAN_CREATED = "plan_created";
export const PLAN_UPDATED = "plan_updated";
export const PLAN_DELETED = "plan_deleted";

export type RaisedPlanEvent = ProductEvent<"loading">;

export const planCreated = (base: string, row: LoadPlanRow): RaisedPlanEvent => ({
  type: PLAN_CREATED,
  data: planSummary(base, row),
});

export const planUpdated = (
  base: string,
  row: LoadPlanRow,
  previous: LoadPlanRow,
  changed: readonly string[],
): RaisedPlanEvent => ({
  type: PLAN_UPDATED,
  data: {
    ...planSummary(base, row),
    previous_version: previous.version,
    previous_status: previous.status,
    changed: [...changed],
    replanned: changed.includes("input"),
  },
});

export const planDeleted = (row: LoadPlanRow, at: string): RaisedPlanEvent => ({
  type: PLAN_DELETED,
  data: { id: row.id, name: row.name, reference: row.reference, version: row.version, deleted_at: at },
});

/** Appends the events for `orgId` if one of its active load-plan endpoints is subscribed to each. */
export async function appendPlanEvents(
  tx: Repositories,
  orgId: string,
  raised: readonly RaisedPlanEvent[],
  at: string,
): Promise<number> {
  const endpoints = await tx.webhooks.subscribers(orgId, "loading");
  const rows = raised
    .filter((e) => endpoints.some((ep) => subscribed(ep.eventTypes, e.type)))
    .map((e) => ({ orgId, product: "loading" as const, ...e }));
  await tx.outbox.append(rows, at);
  return rows.length;
}
