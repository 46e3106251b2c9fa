/**
 * A new record: the reference validated, its line resolved (a leased box's lessee when the prefix
 * names only a lessor), the quota charged and the record inserted, marked as adding, in one
 * transaction. The first carrier call comes after (refresh.ts firstFetch).
 */
import { DuplicateKeyError } from "../../storage/errors.ts";
import type { Org } from "../../storage/orgs.ts";
import type { TrackedRow } from "../../storage/trackings.ts";
import type { ReferenceKind } from "../carriers/connector.ts";
import { validateContainerNumber } from "../iso6346.ts";
import type { TrackingDeps } from "./deps.ts";
import { TrackingError } from "./errors.ts";
import { leaseFields, lessorLookup } from "./leases.ts";
import { chargeAdd } from "./quotas.ts";

export type IdentifierType = "container_id" | "bill_of_lading" | "booking";

/** What a carrier is asked for, by the record's identifier type. */
export const KIND: Record<IdentifierType, ReferenceKind> = {
  container_id: "container",
  bill_of_lading: "bill_of_lading",
  booking: "booking",
};

/**
 * An add's claim on its new record: the record is due for a poll this long after the add started,
 * so a poller takes over an add whose process died. Far above a first fetch (one carrier call of at
 * most the connector timeout, 15 s, after its turn at the gate); taking over a live add early only
 * costs a second carrier call.
 */
export const ADD_LEASE_MS = 2 * 60_000;

export interface AddInput {
  identifier: string;
  identifierType: IdentifierType;
  carrierCode?: string;
  tags?: string[];
}

export function normalizeIdentifier(identifier: string, type: IdentifierType): string {
  const s = identifier.trim().toUpperCase();
  return type === "container_id" ? s.replace(/[\s-]/g, "") : s;
}

/** The line asked for a reference: the one its prefix or carrier_code names, else a leased box's lessee. */
async function lineOf(deps: TrackingDeps, identifier: string, input: AddInput) {
  const resolution = deps.carriers.resolve({
    reference: identifier,
    kind: KIND[input.identifierType],
    scacHint: input.carrierCode,
  });
  const carrierCode = resolution.carrier?.scac ?? input.carrierCode?.toUpperCase() ?? null;
  // A leased box: the lessor names the lessee. Without a line of its own that is the line asked,
  // a hint never shown as the carrier (carrier_hint_code only).
  const lease =
    input.identifierType === "container_id" && resolution.ownerIsLessor
      ? await lessorLookup(deps.lessors ?? [], identifier)
      : null;
  const hint =
    !carrierCode && lease?.lesseeScac && deps.carriers.carrier(lease.lesseeScac) ? lease.lesseeScac : null;
  const scac = carrierCode ?? hint;
  if (!scac) {
    throw new TrackingError(
      "reference_not_resolvable",
      `No line recognises ${identifier}${resolution.ownerIsLessor ? ` (owner ${resolution.owner} is a lessor)` : ""}: send carrier_code.`,
    );
  }
  return { resolution, carrierCode, lease, hint, scac };
}

/**
 * Validates, resolves the line, charges the quota and inserts the record (marked as adding) in one
 * transaction. Throws its TrackingError refusals; nothing is written or charged when it does, and
 * nothing after the commit can throw.
 */
export async function register(deps: TrackingDeps, org: Org, input: AddInput): Promise<TrackedRow> {
  const identifier = normalizeIdentifier(input.identifier, input.identifierType);
  if (input.identifierType === "container_id") {
    const check = validateContainerNumber(identifier);
    if (!check.ok) throw new TrackingError("invalid_reference", `identifier ${identifier}: ${check.message}`);
  }
  const { resolution, carrierCode, lease, hint, scac } = await lineOf(deps, identifier, input);
  // One instant for the charge's month and added_at: a refund finds the charge by that month.
  const nowMs = deps.now();
  const now = new Date(nowMs).toISOString();
  // Due for a poll only once the add's lease has lapsed: pollers leave a live add alone.
  const claimUntil = new Date(nowMs + (deps.addLeaseMs ?? ADD_LEASE_MS)).toISOString();
  const isBox = input.identifierType === "container_id";
  const id = crypto.randomUUID();
  try {
    // One transaction (write lock first): the quota counts are read and the charge written in one
    // snapshot, also with another process adding at the same time.
    return await deps.storage.transaction(async (tx) => {
      await chargeAdd(tx, org, identifier, isBox ? [identifier] : [], nowMs);
      return tx.trackings.insert({
        id,
        orgId: org.id,
        identifier,
        identifierType: input.identifierType,
        containerNumber: isBox ? identifier : null,
        blNumber: input.identifierType === "bill_of_lading" ? identifier : null,
        bookingNumber: input.identifierType === "booking" ? identifier : null,
        carrierCode,
        carrierName: resolution.carrier?.name ?? null,
        carrierHintCode: hint,
        equipmentOwner: resolution.owner,
        ownerIsLessor: resolution.ownerIsLessor && isBox,
        ...(lease ? leaseFields(lease) : {}),
        connectorStatus: deps.connectors.has(scac) ? null : "not_connected",
        tags: input.tags ?? [],
        isDemo: deps.isDemo?.(identifier) ?? false,
        nextPollAt: claimUntil,
        updatedAt: now,
        addedAt: now,
        adding: true,
      });
    });
  } catch (err) {
    if (!(err instanceof DuplicateKeyError)) throw err;
    throw await duplicate(deps, org.id, identifier);
  }
}

/** Why the identifier cannot be added again: another request is adding it, or it is tracked. */
async function duplicate(deps: TrackingDeps, orgId: string, identifier: string): Promise<TrackingError> {
  const existing = await deps.storage.trackings.firstActiveCarrying(orgId, identifier);
  if (existing?.adding) {
    return new TrackingError(
      "add_in_progress",
      `${identifier} is being added by another request; read it back shortly.`,
      { id: existing.id },
    );
  }
  return new TrackingError("already_tracked", `${identifier} is already tracked.`, { id: existing?.id });
}
