/**
 * Spec rules 1 to 4 of the compat surface: a tracked reference is refreshed from the carrier once
 * per cache window; a never-seen one is registered through ocean tracking's lookup (a shipment
 * slot, like an add), the request held until data lands or the ceiling passes. Not found, still
 * resolving and invalid are answers (HTTP 200), never 404. A registration is all or nothing, as an
 * add: a number the carrier rejects as malformed, or a B/L naming more boxes than slots are free,
 * leaves no record and no charge (WRONG_NUMBER, or the 429 of a spent allowance).
 */
import { QUOTA_CODES, TrackingError } from "../../ingest/tracking/errors.ts";
import type { OceanTracking } from "../../ingest/tracking/ocean-tracking.ts";
import type { TrackedRow } from "../../storage/trackings.ts";
import type { Org } from "../accounts/repo.ts";
import type { AnswerCache } from "./cache.ts";
import { type CompatQuery, classify, IDENTIFIER_TYPE } from "./params.ts";
import { type RenderDeps, type Snapshot, snapshotOf } from "./render.ts";

export type Outcome =
  | { kind: "ok"; snapshot: Snapshot }
  | { kind: "error"; message: "NO_TRACKING_INFO" | "WRONG_NUMBER"; detail?: string }
  /** A spent plan allowance: the transport error 429. */
  | { kind: "limit"; detail: string };

export const isCacheable = (o: Outcome) => o.kind === "ok";

const STILL_RESOLVING =
  "The carrier has not answered for this reference yet; tracking continues, retry shortly.";

export class CompatService {
  constructor(
    private readonly deps: RenderDeps & { ocean: OceanTracking },
    private readonly cache: AnswerCache<Outcome>,
    private readonly ceilingMs: number,
  ) {}

  resolve(org: Org, q: CompatQuery): Promise<Outcome> {
    const classified = classify(q.number, q.kind);
    if ("wrong" in classified) {
      return Promise.resolve({ kind: "error", message: "WRONG_NUMBER", detail: classified.wrong });
    }
    const key = `${org.id}|${q.kind ?? "auto"}|${classified.identifier}|${q.sealine ?? ""}`;
    return this.cache.fetch(key, q.force, () => this.live(org, q, classified.identifier));
  }

  private async live(org: Org, q: CompatQuery, identifier: string): Promise<Outcome> {
    try {
      const found = await this.deps.ocean.lookup(
        org,
        {
          reference: identifier,
          // Without type= the kind is a guess: the carrier's answer may make it a booking (BK).
          type: q.kind === null ? undefined : IDENTIFIER_TYPE[q.kind],
          carrierCode: q.sealine ?? undefined,
        },
        { kind: "hold", ceilingMs: this.ceilingMs },
      );
      return this.answer(found.kind === "record" ? found.read.row : undefined);
    } catch (err) {
      return refused(err, identifier);
    }
  }

  private async answer(row: TrackedRow | undefined): Promise<Outcome> {
    if (!row || row.adding) return { kind: "error", message: "NO_TRACKING_INFO", detail: STILL_RESOLVING };
    if (row.unresolvedReason === "invalid_number") {
      return {
        kind: "error",
        message: "WRONG_NUMBER",
        detail: `The carrier rejects ${row.identifier} as malformed.`,
      };
    }
    if (row.unresolvableSince) {
      return {
        kind: "error",
        message: "NO_TRACKING_INFO",
        detail: `The carrier has not recognised ${row.identifier} since ${row.unresolvableSince}.`,
      };
    }
    // A line without a connector resolved the reference but will never send events: still a success.
    const hasData = (await this.deps.views.timeline(row)).length > 0 || row.connectorStatus !== null;
    if (!hasData) return { kind: "error", message: "NO_TRACKING_INFO", detail: STILL_RESOLVING };
    return { kind: "ok", snapshot: await snapshotOf(this.deps, row) };
  }
}

/** Why registration failed, as the vendor's answer; anything unexpected stays a 500. */
function refused(err: unknown, identifier: string): Outcome {
  if (!(err instanceof TrackingError)) throw err;
  if (QUOTA_CODES.includes(err.code)) return { kind: "limit", detail: err.message };
  switch (err.code) {
    case "invalid_reference":
      return { kind: "error", message: "WRONG_NUMBER", detail: err.message };
    case "reference_not_resolvable":
      return {
        kind: "error",
        message: "NO_TRACKING_INFO",
        detail: `No line recognises ${identifier}: send sealine (the carrier's SCAC).`,
      };
    default:
      throw err;
  }
}
