/**
 * The dispatcher's claim on due deliveries (Webhooks.claim in webhooks.ts runs it in its
 * transaction): which due rows a dispatcher leases, within the caps an admission decides outside
 * storage, and how it reaches the rows queued behind the backlog of a full endpoint or organisation.
 *
 * The head of the queue is read in due order (index webhook_deliveries_due). When rows there are
 * refused, the claim steps over them: it seeks the due head of every endpoint with pending
 * deliveries (index webhook_deliveries_pending; a seek per endpoint, however deep any backlog is)
 * and takes those of endpoints and organisations that are not full, earliest first. Every row is
 * leased only after it was read locked (SKIP LOCKED: rows another dispatcher is claiming are passed
 * over, not waited for; SQLite: under its write lock), so two dispatchers never claim the same row.
 */
import { and, eq, gt, lte, min, type SQL, sql } from "drizzle-orm";
import type { Db } from "./database.ts";
import { perConnection, type Runner } from "./runner.ts";
import type { webhookDeliveries, webhookEndpoints } from "./schema.ts";

type DeliveryRow = typeof webhookDeliveries.$inferSelect;
type EndpointRow = typeof webhookEndpoints.$inferSelect;

export interface Claimed {
  delivery: Pick<DeliveryRow, "id" | "endpointId" | "eventType" | "body" | "attemptCount">;
  endpoint: Pick<
    EndpointRow,
    "id" | "orgId" | "url" | "product" | "secretKeyId" | "secretSealed" | "localCa"
  >;
}

/**
 * Which due deliveries one claim may take: the dispatcher's caps on attempts in flight, decided
 * outside storage (api/webhooks/slots.ts). Made for one claim and dropped with it.
 */
export interface Admission {
  /** Whether a delivery to this endpoint of this organisation fits; if so it counts from now on. */
  take(endpointId: string, orgId: string): boolean;
  /** The endpoints and organisations that take no more. */
  full(): { endpoints: string[]; orgs: string[] };
}

export interface ClaimLimits {
  /** Free slots: the most rows to lease. */
  limit: number;
  admission: Admission;
  /** Step over the due rows of full endpoints and organisations to reach the rows behind them. */
  stepOver: boolean;
}

export interface ClaimResult {
  claimed: Claimed[];
  /** Stopped at rows of a full endpoint or organisation without stepping over them: more may be due behind. */
  held: boolean;
  /** Milliseconds spent seeking endpoints' heads to step over full ones' rows; 0 if none. */
  stepMs: number;
  /**
   * Epoch ms of the earliest pending delivery due after now, or null: an index range, not a scan.
   * Leases that run out are found by the next sweep.
   */
  nextDue: number | null;
}

/** A due row and whose it is. */
interface Due {
  id: string;
  endpointId: string;
  orgId: string;
}

/** Due rows read per page of the queue's head: often one endpoint's, of which only a few fit. */
const CLAIM_PAGE = 16;

export class DueClaims {
  private readonly q: Statements;

  constructor(private readonly x: Runner) {
    this.q = statementsFor(x);
  }

  /** When the next pending delivery is due, for a pass that claims nothing. */
  async nextDue(db: Db, nowMs: number): Promise<number | null> {
    return (await this.q.nextDue.execute(db, { now: nowMs }))[0]?.due ?? null;
  }

  /**
   * Leases due deliveries of active endpoints to `owner` and counts the attempt: up to `limit`,
   * each only if the admission takes it. A lease that runs out (dispatcher killed) makes the row
   * due again with the same id and body. Rows the admission refuses are stepped over only when
   * `stepOver` is set; otherwise the claim stops there and says so (`held`).
   */
  async claim(db: Db, owner: string, nowMs: number, leaseMs: number, lim: ClaimLimits): Promise<ClaimResult> {
    const out: Claimed["delivery"][] = [];
    const lease = (rows: Due[]) => this.take(db, rows, lim.admission, out, { owner, until: nowMs + leaseMs });
    let refused = false;
    while (!refused && out.length < lim.limit) {
      const page = Math.min(lim.limit - out.length, CLAIM_PAGE);
      const due = await this.q.due.execute(db, { now: nowMs, limit: page });
      refused = (await lease(due)).refused > 0;
      if (due.length < page) break; // nothing more is due
    }
    let stepMs = 0;
    if (refused && lim.stepOver && out.length < lim.limit) {
      const t0 = performance.now();
      await this.stepOver(db, nowMs, lim, lease);
      stepMs = performance.now() - t0;
    }
    const endpoints = new Map<string, Claimed["endpoint"]>();
    for (const d of out) {
      if (!endpoints.has(d.endpointId))
        endpoints.set(d.endpointId, (await this.q.endpointForSending.execute(db, { id: d.endpointId }))[0]!);
    }
    return {
      claimed: out.map((delivery) => ({ delivery, endpoint: endpoints.get(delivery.endpointId)! })),
      held: refused && !lim.stepOver && out.length < lim.limit,
      stepMs,
      nextDue: await this.nextDue(db, nowMs),
    };
  }

  /**
   * Takes the due heads of endpoints and organisations that are not full, earliest first, round
   * after round (one row per endpoint a round) until the slots are filled or nothing more fits.
   * Each round either leases a row or marks more endpoints full (they drop out of the next), or
   * finds every head locked by another dispatcher and stops; so this ends.
   */
  private async stepOver(
    db: Db,
    nowMs: number,
    lim: ClaimLimits,
    lease: (rows: Due[]) => Promise<{ taken: number; refused: number }>,
  ): Promise<void> {
    let taken = 0;
    while (taken < lim.limit) {
      const skip = lim.admission.full();
      const heads = await this.x.dialect.rows<Due>(db, headsQuery(this.x, nowMs, skip, lim.limit - taken));
      if (heads.length === 0) return;
      const whose = new Map(heads.map((h) => [h.id, h]));
      const locked = await this.q.lockDue.execute(db, {
        ids: JSON.stringify(heads.map((h) => h.id)),
        now: nowMs,
      });
      const round = await lease(locked.map((r) => whose.get(r.id)!));
      if (round.taken + round.refused === 0) return;
      taken += round.taken;
    }
  }

  /** Leases the rows the admission takes, in their order, onto `out`; how many it took and refused. */
  private async take(
    db: Db,
    rows: Due[],
    admission: Admission,
    out: Claimed["delivery"][],
    lease: { owner: string; until: number },
  ): Promise<{ taken: number; refused: number }> {
    const ids = rows.filter((d) => admission.take(d.endpointId, d.orgId)).map((d) => d.id);
    if (ids.length > 0) {
      const rank = new Map(ids.map((id, i) => [id, i]));
      const leased = await this.q.lease.execute(db, { ids: JSON.stringify(ids), ...lease });
      out.push(...leased.sort((a, b) => rank.get(a.id)! - rank.get(b.id)!));
    }
    return { taken: ids.length, refused: rows.length - ids.length };
  }
}

/**
 * The due head of each endpoint with pending deliveries, but for the endpoints and organisations
 * in `skip`, earliest first. The endpoints are found by a loose index scan (a recursive seek to the
 * next endpoint id among pending rows, as the query builder cannot say), each head by one seek.
 */
function headsQuery(
  x: Runner,
  nowMs: number,
  skip: { endpoints: string[]; orgs: string[] },
  limit: number,
): SQL {
  const { dialect } = x;
  const e = x.t.webhookEndpoints;
  // The endpoint's earliest due, unleased row: its id, and when it fell due (two seeks, one place).
  const head = (column: SQL) => sql`(select ${column} from webhook_deliveries d
      where d.status = 'pending' and d.endpoint_id = pending.endpoint_id
        and d.next_attempt_at <= ${nowMs} and d.lease_until <= ${nowMs}
      order by d.next_attempt_at limit 1)`;
  return sql`with recursive pending(endpoint_id) as (
      select min(endpoint_id) from webhook_deliveries where status = 'pending'
      union all
      select (select min(n.endpoint_id) from webhook_deliveries n
              where n.status = 'pending' and n.endpoint_id > pending.endpoint_id)
      from pending where pending.endpoint_id is not null
    )
    select heads.id as "id", heads.endpoint_id as "endpointId", heads.org_id as "orgId"
    from (
      select ${e.id} as endpoint_id, ${e.orgId} as org_id,
        ${head(sql`d.id`)} as id, ${head(sql`d.next_attempt_at`)} as due
      from pending join webhook_endpoints on ${e.id} = pending.endpoint_id
      where ${eq(e.active, true)}
        and not (${dialect.inJsonList(e.id, JSON.stringify(skip.endpoints))})
        and not (${dialect.inJsonList(e.orgId, JSON.stringify(skip.orgs))})
    ) heads
    where heads.id is not null
    order by heads.due
    limit ${limit}`;
}

type Statements = ReturnType<typeof prepareStatements>;

const statementsFor = perConnection(prepareStatements);

function prepareStatements(x: Runner) {
  const p = sql.placeholder;
  const { webhookDeliveries: d, webhookEndpoints: e } = x.t;
  const { dialect, root } = x;
  const isDue = and(eq(d.status, "pending"), lte(d.nextAttemptAt, p("now")), lte(d.leaseUntil, p("now")));
  return {
    /**
     * The head of the queue: due, unleased rows of active endpoints in due order, locked until the
     * claim ends. Only the delivery rows: locking the joined endpoint rows would make other
     * dispatchers pass over every due row of those endpoints meanwhile.
     */
    due: dialect.statement("webhooks_due", root, (db) =>
      dialect.forUpdate(
        db
          .select({ id: d.id, endpointId: d.endpointId, orgId: e.orgId })
          .from(d)
          .innerJoin(e, eq(e.id, d.endpointId))
          .where(and(isDue, eq(e.active, true)))
          .orderBy(d.nextAttemptAt)
          .limit(p("limit")),
        { skipLocked: true, of: d },
      ),
    ),
    /** Of the rows in the JSON array `ids` (endpoints' heads, read unlocked), those still due, locked. */
    lockDue: dialect.statement("webhooks_lock_due", root, (db) =>
      dialect.forUpdate(
        db
          .select({ id: d.id })
          .from(d)
          .where(and(dialect.inJsonList(d.id, sql`${p("ids")}`), isDue)),
        { skipLocked: true },
      ),
    ),
    nextDue: dialect.statement("webhooks_next_due", root, (db) =>
      db
        .select({ due: min(d.nextAttemptAt) })
        .from(d)
        .where(and(eq(d.status, "pending"), gt(d.nextAttemptAt, p("now")))),
    ),
    /** Leases the rows named in the JSON array `ids` (just read as due, and locked, by the same claim). */
    lease: dialect.statement("webhooks_lease", root, (db) =>
      db
        .update(d)
        .set({
          leaseUntil: sql`${p("until")}`,
          leaseOwner: sql`${p("owner")}`,
          attemptCount: sql`${d.attemptCount} + 1`,
        })
        .where(dialect.inJsonList(d.id, sql`${p("ids")}`))
        .returning({
          id: d.id,
          endpointId: d.endpointId,
          eventType: d.eventType,
          body: d.body,
          attemptCount: d.attemptCount,
        }),
    ),
    endpointForSending: dialect.statement("webhooks_endpoint_for_sending", root, (db) =>
      db
        .select({
          id: e.id,
          orgId: e.orgId,
          url: e.url,
          product: e.product,
          secretKeyId: e.secretKeyId,
          secretSealed: e.secretSealed,
          localCa: e.localCa,
        })
        .from(e)
        .where(eq(e.id, p("id"))),
    ),
  };
}
