/**
 * Air-waybill tracking's use cases, one method each, as ocean tracking's (ingest/tracking/
 * ocean-tracking.ts): add a waybill, read one with its timeline, list, archive, and the poller's
 * tick. The air-cargo routes parse, call these and render; failures are TrackingErrors with domain
 * codes. Derivation, milestones, webhook events and cadence are modules of their own beside this.
 */
import type { AirWaybillFilter, AirWaybillRow } from "../../storage/air-waybills.ts";
import { DuplicateKeyError } from "../../storage/errors.ts";
import type { Org } from "../../storage/orgs.ts";
import { type AwbPrefixes, formatAwb, parseAwb } from "../airlines/awb.ts";
import type { AwbEvent, AwbSnapshot } from "../airlines/connector.ts";
import { TrackingError } from "../tracking/errors.ts";
import { chargeAdd } from "../tracking/quotas.ts";
import { AirRefresh, type AirTrackingDeps } from "./refresh.ts";
import { AIR_ADD_LEASE_MS } from "./schedule.ts";
import { currentEvents, type SeenEvent } from "./status.ts";
import { type AirportLookup, type AwbMilestone, toMilestone } from "./timeline.ts";

export type { AirWaybillRow };

/** Reason of a waybill archived by its owner (DELETE). */
export const DELETED_REASON = "deleted";

export interface AirWaybillTrackingDeps extends AirTrackingDeps {
  prefixes: AwbPrefixes;
}

const notFound = (id: string) =>
  new TrackingError("not_found", `No tracked air waybill ${id} on this account.`);

export class AirWaybillTracking {
  private readonly refresher: AirRefresh;

  constructor(private readonly deps: AirWaybillTrackingDeps) {
    this.refresher = new AirRefresh(deps);
  }

  get airports(): AirportLookup {
    return this.deps.airports;
  }

  private iso(ms = this.deps.now()): string {
    return new Date(ms).toISOString();
  }

  /**
   * The AWB and its airline from what a caller typed. A malformed number, a wrong check digit (with
   * the likely intended number) or a prefix no airline holds are the caller's to fix (invalid_reference).
   */
  resolve(text: string): { awb: string; airline: { iata: string; name: string } } {
    const parsed = parseAwb(text);
    if (!parsed.ok) {
      if (parsed.reason === "format") throw new TrackingError("invalid_reference", `awb: ${parsed.message}.`);
      const { hint } = parsed;
      throw new TrackingError(
        "invalid_reference",
        `awb ${formatAwb(parsed.awb)} is not a valid air waybill number: ${parsed.message}`,
        {
          hint: formatAwb(hint.suggestion),
          suggestions: (hint.swapped ? [hint.suggestion, hint.swapped] : [hint.suggestion]).map(formatAwb),
        },
      );
    }
    const airline = this.deps.prefixes.airline(parsed.prefix);
    if (!airline) {
      throw new TrackingError(
        "invalid_reference",
        `awb ${formatAwb(parsed.awb)}: no airline in the IATA prefix table holds prefix ${parsed.prefix}.`,
      );
    }
    return { awb: parsed.awb, airline };
  }

  /**
   * Starts tracking; the first airline call happens before returning, so most adds come back with
   * their status. A failed call never fails the add (it is committed and charged): it is a warning,
   * and polling continues.
   */
  async add(org: Org, text: string): Promise<{ row: AirWaybillRow; warning: string | null }> {
    return this.refresher.firstFetch(await this.register(org, text));
  }

  /**
   * Validates, charges the month's shipment and inserts the waybill (marked as adding) in one
   * transaction. Throws its TrackingError refusals; nothing is written or charged when it does.
   */
  async register(org: Org, text: string): Promise<AirWaybillRow> {
    const { awb, airline } = this.resolve(text);
    const nowMs = this.deps.now();
    const now = this.iso(nowMs);
    try {
      return await this.deps.storage.transaction(async (tx) => {
        // The shipment quota counts an AWB like any shipment; it takes no container slot.
        await chargeAdd(tx, org, formatAwb(awb), [], nowMs);
        return tx.airWaybills.insert({
          id: crypto.randomUUID(),
          orgId: org.id,
          awb,
          airlineIata: airline.iata,
          airlineName: airline.name,
          connectorStatus: this.deps.connectors.has(airline.iata) ? null : "not_connected",
          // Due only once the add's lease lapses: pollers leave a live add alone.
          nextPollAt: this.iso(nowMs + (this.deps.addLeaseMs ?? AIR_ADD_LEASE_MS)),
          updatedAt: now,
          addedAt: now,
          adding: true,
        });
      });
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      const existing = await this.deps.storage.airWaybills.active(org.id, awb);
      throw new TrackingError("already_tracked", `${formatAwb(awb)} is already tracked; read it back.`, {
        id: existing?.id,
      });
    }
  }

  /** A waybill of the organisation with its milestones; another organisation's id is not_found. */
  async read(orgId: string, id: string): Promise<{ row: AirWaybillRow; timeline: AwbMilestone[] }> {
    const row = await this.own(orgId, id);
    return { row, timeline: await this.timeline(row) };
  }

  /** The waybill's current events as milestones, oldest first. */
  async timeline(row: AirWaybillRow): Promise<AwbMilestone[]> {
    const stored = await this.deps.storage.airWaybills.events(row.id);
    const seen: SeenEvent[] = stored.map((s) => ({ event: s.payload as AwbEvent, seq: s.seq }));
    return currentEvents(seen).map((e) => toMilestone(e, this.deps.airports));
  }

  /** A page of the organisation's waybills, most recently updated first. */
  list(orgId: string, filter: AirWaybillFilter): Promise<AirWaybillRow[]> {
    return this.deps.storage.airWaybills.list(orgId, filter);
  }

  /** Stops tracking: the waybill is archived (kept readable) and no longer polled. */
  async archive(orgId: string, id: string): Promise<AirWaybillRow> {
    const row = await this.own(orgId, id);
    if (row.archivedAt === null) {
      const at = this.iso();
      await this.deps.storage.airWaybills.update(row.id, {
        archivedAt: at,
        archivedReason: DELETED_REASON,
        nextPollAt: null,
        updatedAt: at,
      });
    }
    return this.own(orgId, id);
  }

  /** The poller's tick: refreshes the due waybills it claims. */
  pollDue(limit?: number): Promise<number> {
    return this.refresher.pollDue(limit);
  }

  /** Applies an airline snapshot to a waybill, as its refresh does with what the airline answers. */
  apply(id: string, snapshot: AwbSnapshot): Promise<void> {
    return this.refresher.apply(id, snapshot);
  }

  private async own(orgId: string, id: string): Promise<AirWaybillRow> {
    const row = await this.deps.storage.airWaybills.get(orgId, id);
    // Another account's id answers exactly like an id that never existed.
    if (!row) throw notFound(id);
    return row;
  }
}
