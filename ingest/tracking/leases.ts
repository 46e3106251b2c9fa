/**
 * Lease data of leased boxes (the BIC owner is a leasing company): the first lessor connector that
 * knows the box names the lessee, the contract and where the box goes back. Looked up at the add
 * and again at a refresh once LESSOR_REFRESH_MS old.
 */

import { log } from "../../common/log.ts";
import type { Storage } from "../../storage/storage.ts";
import type { TrackedRow } from "../../storage/trackings.ts";
import type { LessorConnector, LessorRecord } from "../lessors/connector.ts";
import { TRACKED_VISIBLE, visiblyChanged } from "./visible.ts";

/** Lease data older than this is looked up again at the next poll. */
export const LESSOR_REFRESH_MS = 24 * 3_600_000;

/** The first lessor connector that knows the box; failures count as "not known" (looked up again later). */
export async function lessorLookup(
  lessors: readonly LessorConnector[],
  containerNumber: string,
): Promise<LessorRecord | null> {
  for (const lessor of lessors) {
    try {
      const found = await lessor.lookup(containerNumber);
      if (found) return found;
    } catch (err) {
      log.error({ component: "tracking" }, `lessor ${lessor.name}: ${(err as Error).message}`);
    }
  }
  return null;
}

/** Refreshes lease data of a root's leased boxes when it is older than LESSOR_REFRESH_MS. */
export async function refreshLeases(
  deps: { storage: Storage; now: () => number; lessors?: readonly LessorConnector[] },
  rootId: string,
): Promise<void> {
  const now = deps.now();
  // Parked boxes are not tracked: no lessor calls for them.
  const boxes = (await deps.storage.trackings.leasedInTree(rootId)).filter(
    (b) =>
      b.containerNumber && (!b.lessorCheckedAt || now - Date.parse(b.lessorCheckedAt) >= LESSOR_REFRESH_MS),
  );
  for (const box of boxes) {
    const lease = await lessorLookup(deps.lessors ?? [], box.containerNumber!);
    if (!lease) continue;
    const fields = leaseFields(lease);
    // A new lease state is an update users see; a re-read of the same lease is not.
    if (visiblyChanged(TRACKED_VISIBLE, box, fields)) fields.updatedAt = new Date(deps.now()).toISOString();
    await deps.storage.trackings.update(box.id, fields);
  }
}

export function leaseFields(lease: LessorRecord): Partial<TrackedRow> {
  return {
    equipmentLessor: lease.lessor,
    lesseeName: lease.lesseeName,
    lessorStatus: lease.status,
    lessorCheckedAt: lease.checkedAt,
    lessorContractNumber: lease.contractNumber,
    lessorContractType: lease.contractType,
    redeliveryReference: lease.redeliveryReference,
    redeliveryDate: lease.redeliveryDate,
    redeliveryLocation: lease.redeliveryLocation,
    redeliveryYard: lease.redeliveryYard,
    equipmentManufacturer: lease.manufacturer,
  };
}
