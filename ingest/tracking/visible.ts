/**
 * What a user sees of a record: updated_at moves when a write changes one of these fields (or the
 * record's timeline), and only then; see docs/tracking.md. One rule for ocean records and air
 * waybills, each with its own list of fields.
 */
import type { TrackedRow } from "../../storage/trackings.ts";

/** Record fields a user sees (list item, lookup record, compat answer) that tracking data sets. */
export const TRACKED_VISIBLE = [
  "status",
  "eta",
  "etaIsEstimated",
  "plannedDepartureAt",
  "currentVesselImo",
  "currentVesselName",
  "originUnlocode",
  "destinationUnlocode",
  "routePorts",
  "routeAlert",
  "delayBars",
  "customsHoldReason",
  "customsHoldSince",
  "dischargedAt",
  "deliveredAt",
  "isoTypeCode",
  "containerSize",
  "equipmentType",
  "carrierCode",
  "carrierHintCode",
  "identifierType",
  "blNumber",
  "bookingNumber",
  "unresolvableSince",
  "unresolvedReason",
  "archivedAt",
  "archivedReason",
  "equipmentLessor",
  "lesseeName",
  "lessorStatus",
  "lessorContractNumber",
  "lessorContractType",
  "redeliveryReference",
  "redeliveryDate",
  "redeliveryLocation",
  "redeliveryYard",
  "equipmentManufacturer",
] as const satisfies readonly (keyof TrackedRow)[];

/** Whether applying `update` to `row` changes one of the `visible` fields. */
export function visiblyChanged<R extends object>(
  visible: readonly (keyof R)[],
  row: R,
  update: Partial<R>,
): boolean {
  return visible.some(
    (f) => f in update && JSON.stringify(update[f] ?? null) !== JSON.stringify(row[f] ?? null),
  );
}
