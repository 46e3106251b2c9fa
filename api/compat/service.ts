/**
 * Spec rules 1 to 4 of the compat surface: a tracked reference is refreshed from the carrier once
 * per cache window; a never-seen one is registered through the tracking engine (a shipment slot,
 * like an add) and resolved live, the request held until data lands or the ceiling passes. Not
 * found, still resolving and invalid are answers (HTTP 200), never 404. A registration is all or
 * nothing, as an add: a number the carrier rejects as malformed, or a B/L naming more boxes than
 * slots are free, leaves no record and no charge (WRONG_NUMBER, or the 429 of a spent allowance).
 */
import type { IdentifierType, TrackedRow } from "../../ingest/tracking/engine.ts";
import { QUOTA_CODES, TrackingError } from "../../ingest/tracking/errors.ts";
import type { Trackings } from "../../storage/trackings.ts";
import type { Org } from "../accounts/repo.ts";
import type { AnswerCache } from "./cache.ts";
import { type CompatQuery, classify } from "./params.ts";
import { type RenderDeps, type Snapshot, snapshotOf } from "./render.ts";

export type Outcome =
  | { kind: "ok"; snapshot: Snapshot }
  | { kind: "error"; message: "NO_TRACKING_INFO" | "WRONG_NUMBER"; detail?: string }
  /** A spent plan allowance: the transport error 429. */
  | { kind: "limit"; detail: string };

export const isCacheable = (o: Outcome) => o.kind === "ok";

/** How often a request waiting on another's first carrier call looks again. */
const SETTLE_POLL_MS = 100;

const STILL_RESOLVING =
  "The carrier has not answered for this reference yet; tracking continues, retry shortly.";

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class CompatService {
  constructor(
    private readonly deps: RenderDeps & { trackings: Trackings },
    private readonly cache: AnswerCache<Outcome>,
    private readonly ceilingMs: number,
  ) {}

  resolve(org: Org, q: CompatQuery): Promise<Outcome> {
    const classified = classify(q.number, q.kind);
    if ("wrong" in classified) {
      return Promise.resolve({ kind: "error", message: "WRONG_NUMBER", detail: classified.wrong });
    }
    const key = `${org.id}|${q.kind ?? "auto"}|${classified.identifier}|${q.sealine ?? ""}`;
    return this.cache.fetch(key, q.force, () => this.live(org, q, classified));
  }

  /** Waits for `work` at most the ceiling; it keeps running in the background past it. */
  private async held(work: Promise<unknown>): Promise<void> {
    const done = work.then(
      () => undefined,
      (err) => console.error("[compat] carrier call:", err),
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([done, new Promise<void>((r) => (timer = setTimeout(r, this.ceilingMs)))]);
    clearTimeout(timer);
  }

  /** A record another request is adding: waits (up to the ceiling) for its first carrier answer. */
  private async settled(orgId: string, id: string): Promise<void> {
    const deadline = Date.now() + this.ceilingMs;
    while ((await this.deps.engine.get(orgId, id))?.adding && Date.now() < deadline)
      await sleep(SETTLE_POLL_MS);
  }

  private async live(
    org: Org,
    q: CompatQuery,
    ref: { type: IdentifierType; identifier: string },
    again = true,
  ): Promise<Outcome> {
    const { engine } = this.deps;
    const existing = await engine.findActive(org.id, ref.identifier);
    let id: string;
    if (existing?.adding) {
      id = existing.id;
      await this.settled(org.id, id);
      // The other request's registration was undone (refused: deleted, or archived after a
      // lookup's 202): ask once ourselves for the reason.
      const settled = await engine.get(org.id, id);
      if (again && (!settled || settled.archivedAt)) return this.live(org, q, ref, false);
    } else if (existing) {
      id = existing.id;
      const root = existing.parentId ? ((await engine.get(org.id, existing.parentId)) ?? existing) : existing;
      // A carrier in back-off (errors, or its Retry-After) is not asked: the answer is what we hold.
      const backingOff =
        root.pollFailures > 0 && root.nextPollAt !== null && Date.parse(root.nextPollAt) > this.deps.now();
      if (!backingOff) await this.held(engine.refresh(root.id));
    } else {
      // A box that finished its cycle is closed out; its record still answers (nothing new will come).
      const done = await this.deps.trackings.lastCompleted(org.id, ref.identifier);
      if (done) return this.answer(done);
      let row: TrackedRow;
      try {
        row = await engine.register(org, {
          identifier: ref.identifier,
          identifierType: ref.type,
          carrierCode: q.sealine ?? undefined,
        });
      } catch (err) {
        return this.refused(err, org.id, ref.identifier);
      }
      id = row.id;
      // Strict even past the ceiling: a refusal after it still undoes the registration, and the
      // client's retry meets the refusal again (nothing kept, nothing charged meanwhile).
      let refusal: TrackingError | undefined;
      // Without type= the kind is a guess: the carrier's answer may make it a booking (BK).
      const fetched = engine.firstFetch(row, { strict: true, kindGuessed: q.kind === null });
      await this.held(fetched.then((r) => (refusal = r.refused)));
      if (refusal) return this.refused(refusal, org.id, ref.identifier);
    }
    return this.answer(await engine.get(org.id, id));
  }

  /** Why registration failed, as an answer; anything unexpected stays a 500. */
  private async refused(err: unknown, orgId: string, identifier: string): Promise<Outcome> {
    if (!(err instanceof TrackingError)) throw err;
    if (QUOTA_CODES.includes(err.code)) return { kind: "limit", detail: err.message };
    switch (err.code) {
      case "add_in_progress": {
        const other = await this.deps.engine.findActive(orgId, identifier);
        if (other) await this.settled(orgId, other.id);
        return this.answer(other && (await this.deps.engine.get(orgId, other.id)));
      }
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
    const hasData = (await this.deps.engine.timeline(row)).length > 0 || row.connectorStatus !== null;
    if (!hasData) return { kind: "error", message: "NO_TRACKING_INFO", detail: STILL_RESOLVING };
    return { kind: "ok", snapshot: await snapshotOf(this.deps, row) };
  }
}
