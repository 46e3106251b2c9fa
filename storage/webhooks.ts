/**
 * Webhook persistence: endpoints for the management routes; fan-out, claims (webhook-claims.ts)
 * and results for the dispatcher. One implementation for SQLite and PostgreSQL. Any number of dispatchers share the
 * database: the outbox rows a fan-out takes and the due deliveries a claim reads are locked FOR
 * UPDATE SKIP LOCKED, so two dispatchers take different rows and never wait for each other
 * (SQLite: its write lock, taken at BEGIN, makes each unit exclusive anyway). Outbox rows are
 * marked fanned out rather than followed by a cursor: PostgreSQL hands out sequence values in
 * insert order, not commit order, and a cursor would skip a row committed late; an uncommitted row
 * is invisible and simply taken by a later fan-out. Each method runs its statements as one unit
 * (the multi-statement ones atomically) and answers a Promise.
 */
import { and, count, desc, eq, inArray, lt, or, type SQL, sql } from "drizzle-orm";
import { subscribed } from "../common/subscriptions.ts";
import type { Db } from "./database.ts";
import { perConnection, type Runner } from "./runner.ts";
import type { webhookDeliveries, webhookEndpoints } from "./schema.ts";
import { type ClaimLimits, type ClaimResult, DueClaims } from "./webhook-claims.ts";
import { type AttemptPolicy, AttemptRecords, type AttemptResult } from "./webhook-results.ts";

export type { Admission, Claimed, ClaimLimits, ClaimResult } from "./webhook-claims.ts";
export type {
  AttemptPolicy,
  AttemptResult,
  DisabledReason,
  FailureStreak,
  Settlement,
} from "./webhook-results.ts";

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
/** What a list of endpoints shows of each. */
export type ListedEndpoint = Pick<
  EndpointRow,
  "id" | "url" | "eventTypes" | "description" | "active" | "failureCount" | "lastDeliveryAt" | "createdAt"
>;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** Delivery attempts shown on a detail read (spec: the 20 most recent). */
export const RECENT_DELIVERIES = 20;
/** Outbox rows turned into deliveries per transaction. */
const FANOUT_BATCH = 500;

const iso = (ms: number) => new Date(ms).toISOString();

/** The exact bytes a delivery carries: four keys, in this order. */
export function deliveryBody(id: string, type: string, occurredAt: string, data: unknown): string {
  return JSON.stringify({ id, type, occurred_at: new Date(occurredAt).toISOString(), data });
}

/** An endpoint secret encrypted at rest (api/webhooks/secrets.ts seals and opens it). */
export interface Sealed {
  keyId: string;
  /** base64(iv || ciphertext+tag) */
  blob: string;
}

export interface NewEndpoint {
  id: string;
  orgId: string;
  product: string;
  url: string;
  eventTypes: string[];
  description: string;
  createdAt: string;
  secretHash: string;
  sealed: Sealed;
  /** A local listener's CA (webhookEndpoints.localCa); absent over HTTP. */
  localCa?: string;
}

export type EndpointCreated = { outcome: "created"; row: EndpointRow } | { outcome: "limit"; held: number };

export interface EndpointPage {
  limit: number;
  /** Continue after this endpoint in (created_at desc, id desc) order. */
  after?: { createdAt: string; id: string };
}

export interface EndpointPatch {
  url?: string;
  eventTypes?: string[];
  description?: string;
  active?: boolean;
}

export interface Webhooks {
  /**
   * Stores the endpoint unless the organisation already holds `cap` of the product's. The
   * organisation's row is locked first, so concurrent registrations cannot pass the cap.
   */
  create(e: NewEndpoint, cap: number): Promise<EndpointCreated>;
  /** A page of the organisation's endpoints of the product, newest first (limit + 1 rows: the last says more). */
  page(orgId: string, product: string, q: EndpointPage): Promise<ListedEndpoint[]>;
  /** The organisation's active endpoints of a product: whom its events reach. Keyed by organisation. */
  subscribers(orgId: string, product: string): Promise<Array<Pick<EndpointRow, "eventTypes">>>;
  /**
   * Every organisation's active endpoints of a product: who an event of no one organisation (an
   * operator's notice, a sailing's change) reaches.
   */
  active(product: string): Promise<Array<Pick<EndpointRow, "orgId" | "eventTypes">>>;
  get(orgId: string, product: string, id: string): Promise<EndpointRow | undefined>;
  /** The endpoint with its most recent deliveries, or undefined when the organisation has no such endpoint. */
  detail(
    orgId: string,
    product: string,
    id: string,
  ): Promise<{ endpoint: EndpointRow; recent: DeliveryRow[] } | undefined>;
  update(orgId: string, product: string, id: string, patch: EndpointPatch): Promise<EndpointRow | undefined>;
  delete(orgId: string, product: string, id: string): Promise<boolean>;
  queue(
    endpointId: string,
    d: { id: string; eventType: string; body: string; createdAt: string },
  ): Promise<void>;
  fanOut(nowMs: number, deliveryId: (eventId: string, endpointId: string) => string): Promise<number>;
  claim(
    owner: string,
    nowMs: number,
    leaseMs: number,
    lim: ClaimLimits,
    finished?: { results: AttemptResult[]; policy: AttemptPolicy },
  ): Promise<ClaimResult>;
  record(results: AttemptResult[], policy: AttemptPolicy, nowMs: number): Promise<void>;
  reseal(endpointId: string, from: Sealed, to: Sealed): Promise<void>;
}

export class SqlWebhooks implements Webhooks {
  /** The dispatcher's per-row statements, prepared once: building the SQL costs more than running it. */
  private readonly q: Statements;
  private readonly claims: DueClaims;
  private readonly attempts: AttemptRecords;

  constructor(private readonly x: Runner) {
    this.q = statementsFor(x);
    this.claims = new DueClaims(x);
    this.attempts = new AttemptRecords(x);
  }

  // ---- management -------------------------------------------------------------------------------

  create(e: NewEndpoint, cap: number): Promise<EndpointCreated> {
    const { webhookEndpoints: w, orgs } = this.x.t;
    return this.x.atomic(async (db) => {
      await this.x.dialect.forUpdate(db.select({ id: orgs.id }).from(orgs).where(eq(orgs.id, e.orgId)));
      const [held] = await db
        .select({ n: count() })
        .from(w)
        .where(and(eq(w.orgId, e.orgId), eq(w.product, e.product)));
      const n = Number(held?.n ?? 0);
      if (n >= cap) return { outcome: "limit", held: n };
      const [row] = await db
        .insert(w)
        .values({
          id: e.id,
          orgId: e.orgId,
          product: e.product,
          url: e.url,
          eventTypes: e.eventTypes,
          description: e.description,
          createdAt: e.createdAt,
          secretHash: e.secretHash,
          secretKeyId: e.sealed.keyId,
          secretSealed: e.sealed.blob,
          localCa: e.localCa ?? null,
        })
        .returning();
      return { outcome: "created", row: row! };
    });
  }

  private own(orgId: string, product: string, id: string) {
    const { webhookEndpoints } = this.x.t;
    return and(
      eq(webhookEndpoints.id, id),
      eq(webhookEndpoints.orgId, orgId),
      eq(webhookEndpoints.product, product),
    );
  }

  page(orgId: string, product: string, q: EndpointPage): Promise<ListedEndpoint[]> {
    const params = { orgId, product, limit: q.limit + 1 };
    return this.x.run((db) =>
      q.after
        ? this.q.pageAfter.execute(db, { ...params, afterCreated: q.after.createdAt, afterId: q.after.id })
        : this.q.page.execute(db, params),
    );
  }

  subscribers(orgId: string, product: string): Promise<Array<Pick<EndpointRow, "eventTypes">>> {
    return this.x.run((db) => this.q.subscribers.execute(db, { orgId, product }));
  }

  active(product: string): Promise<Array<Pick<EndpointRow, "orgId" | "eventTypes">>> {
    const { webhookEndpoints } = this.x.t;
    return this.x.run((db) =>
      db
        .select({ orgId: webhookEndpoints.orgId, eventTypes: webhookEndpoints.eventTypes })
        .from(webhookEndpoints)
        .where(and(eq(webhookEndpoints.product, product), eq(webhookEndpoints.active, true))),
    );
  }

  get(orgId: string, product: string, id: string): Promise<EndpointRow | undefined> {
    const { webhookEndpoints } = this.x.t;
    return this.x.run(
      async (db) =>
        (
          await db
            .select()
            .from(webhookEndpoints)
            .where(this.own(orgId, product, id))
            .limit(1)
        )[0],
    );
  }

  detail(
    orgId: string,
    product: string,
    id: string,
  ): Promise<{ endpoint: EndpointRow; recent: DeliveryRow[] } | undefined> {
    const { webhookDeliveries, webhookEndpoints } = this.x.t;
    return this.x.run(async (db) => {
      // Deliveries first, then the endpoint: a result is committed with both, so a delivery read
      // as delivered always comes with the endpoint's health fields it moved (PostgreSQL reads each
      // statement at its own moment).
      const recent = await db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.endpointId, id))
        .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
        .limit(RECENT_DELIVERIES);
      const [endpoint] = await db
        .select()
        .from(webhookEndpoints)
        .where(this.own(orgId, product, id))
        .limit(1);
      return endpoint ? { endpoint, recent } : undefined;
    });
  }

  /** Applies the fields given; active=true also clears the failure streak and releases held deliveries. */
  update(orgId: string, product: string, id: string, patch: EndpointPatch): Promise<EndpointRow | undefined> {
    const { webhookEndpoints, webhookDeliveries } = this.x.t;
    return this.x.atomic(async (db) => {
      const set: Partial<EndpointRow> = {};
      if (patch.url !== undefined) set.url = patch.url;
      if (patch.eventTypes !== undefined) set.eventTypes = patch.eventTypes;
      if (patch.description !== undefined) set.description = patch.description;
      if (patch.active !== undefined) set.active = patch.active;
      if (patch.active === true)
        Object.assign(set, { failureCount: 0, failingSince: null, disabledReason: null });
      const row =
        Object.keys(set).length === 0
          ? (
              await db
                .select()
                .from(webhookEndpoints)
                .where(this.own(orgId, product, id))
                .limit(1)
            )[0]
          : (
              await db
                .update(webhookEndpoints)
                .set(set)
                .where(this.own(orgId, product, id))
                .returning()
            )[0];
      if (row && patch.active === true) {
        // Deliveries held while the endpoint was off are due again now, each where its ladder stood.
        await db
          .update(webhookDeliveries)
          .set({ nextAttemptAt: 0 })
          .where(and(eq(webhookDeliveries.endpointId, id), eq(webhookDeliveries.status, "pending")));
      }
      return row;
    });
  }

  /** Removes the endpoint with its deliveries and attempts (cascade). */
  delete(orgId: string, product: string, id: string): Promise<boolean> {
    const { webhookEndpoints } = this.x.t;
    return this.x.run(
      async (db) =>
        (
          await db
            .delete(webhookEndpoints)
            .where(this.own(orgId, product, id))
            .returning({ id: webhookEndpoints.id })
        ).length > 0,
    );
  }

  queue(
    endpointId: string,
    d: { id: string; eventType: string; body: string; createdAt: string },
  ): Promise<void> {
    const { webhookDeliveries } = this.x.t;
    return this.x.run(async (db) => {
      await db.insert(webhookDeliveries).values({ ...d, endpointId, eventId: null });
    });
  }

  // ---- dispatcher -------------------------------------------------------------------------------

  /**
   * Turns outbox rows not yet fanned out into deliveries, one per active subscribed endpoint of the
   * row's organisation and product, and marks them fanned out, in one unit. Rows another
   * dispatcher's fan-out holds are passed over (it takes them), not waited for. Idempotent: delivery
   * ids are derived from (event, endpoint) and unique per endpoint. Returns the outbox rows consumed.
   */
  fanOut(nowMs: number, deliveryId: (eventId: string, endpointId: string) => string): Promise<number> {
    const { outbox, webhookEndpoints } = this.x.t;
    return this.x.atomic(async (db) => {
      const rows = await this.x.dialect.forUpdate(
        db
          .select({
            seq: outbox.seq,
            id: outbox.id,
            orgId: outbox.orgId,
            product: outbox.product,
            type: outbox.type,
            occurredAt: outbox.occurredAt,
            data: outbox.data,
          })
          .from(outbox)
          // The partial index's own condition, verbatim: SQLite uses that index only for it.
          .where(sql`not ${outbox.fannedOut}`)
          .orderBy(outbox.seq)
          .limit(FANOUT_BATCH),
        { skipLocked: true },
      );
      if (rows.length === 0) return 0;
      const orgs = [...new Set(rows.map((r) => r.orgId))];
      const endpoints = await db
        .select()
        .from(webhookEndpoints)
        .where(and(inArray(webhookEndpoints.orgId, orgs), eq(webhookEndpoints.active, true)));
      const createdAt = iso(nowMs);
      for (const row of rows) {
        for (const ep of endpoints) {
          if (ep.orgId !== row.orgId || ep.product !== row.product || !subscribed(ep.eventTypes, row.type))
            continue;
          const id = deliveryId(row.id, ep.id);
          await this.q.fanOutDelivery.execute(db, {
            id,
            endpointId: ep.id,
            eventId: row.id,
            eventType: row.type,
            body: deliveryBody(id, row.type, row.occurredAt, row.data),
            createdAt,
          });
        }
      }
      await db
        .update(outbox)
        .set({ fannedOut: true })
        .where(
          inArray(
            outbox.seq,
            rows.map((r) => r.seq),
          ),
        );
      return rows.length;
    });
  }

  /**
   * Leases due deliveries to `owner` within the admission's caps (webhook-claims.ts says how);
   * `finished` attempts are recorded first, in the same transaction: one commit per pass.
   */
  claim(
    owner: string,
    nowMs: number,
    leaseMs: number,
    lim: ClaimLimits,
    finished?: { results: AttemptResult[]; policy: AttemptPolicy },
  ): Promise<ClaimResult> {
    if (lim.limit <= 0 && !finished?.results.length)
      return this.x.run(async (db) => ({
        claimed: [],
        held: false,
        stepMs: 0,
        nextDue: await this.claims.nextDue(db, nowMs),
      }));
    return this.x.atomic(async (db) => {
      if (finished) await this.attempts.record(db, finished.results, finished.policy, nowMs);
      return this.claims.claim(db, owner, nowMs, leaseMs, lim);
    });
  }

  /**
   * Records each attempt and moves its delivery and endpoint on as the policy decides: the
   * delivery's settlement, the endpoint's streak (reset by a delivery, else one more failure) and
   * whether it is disabled. Does nothing if the lease was lost or the endpoint deleted meanwhile.
   * Several results share one transaction (the commit is the cost).
   */
  record(results: AttemptResult[], policy: AttemptPolicy, nowMs: number): Promise<void> {
    if (results.length === 0) return Promise.resolve();
    return this.x.atomic((db) => this.attempts.record(db, results, policy, nowMs));
  }

  /** Re-encrypts a secret under the current key (key rotation), unless the row changed meanwhile. */
  reseal(endpointId: string, from: Sealed, to: Sealed): Promise<void> {
    const { webhookEndpoints } = this.x.t;
    return this.x.run(async (db) => {
      await db
        .update(webhookEndpoints)
        .set({ secretKeyId: to.keyId, secretSealed: to.blob })
        .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.secretSealed, from.blob)));
    });
  }
}

type Statements = ReturnType<typeof prepareStatements>;

const statementsFor = perConnection(prepareStatements);

function prepareStatements(x: Runner) {
  const p = sql.placeholder;
  const { webhookDeliveries: d, webhookEndpoints: e } = x.t;
  const { dialect, root } = x;
  const listed = {
    id: e.id,
    url: e.url,
    eventTypes: e.eventTypes,
    description: e.description,
    active: e.active,
    failureCount: e.failureCount,
    lastDeliveryAt: e.lastDeliveryAt,
    createdAt: e.createdAt,
  };
  const ownedBy = and(eq(e.orgId, p("orgId")), eq(e.product, p("product")));
  const pageOf = (db: Db, after?: SQL) =>
    db
      .select(listed)
      .from(e)
      .where(and(ownedBy, after))
      .orderBy(desc(e.createdAt), desc(e.id))
      .limit(p("limit"));
  return {
    /** A page of an organisation's endpoints of a product, newest first (webhook_endpoints_org). */
    page: dialect.statement("webhooks_page", root, (db) => pageOf(db)),
    pageAfter: dialect.statement("webhooks_page_after", root, (db) =>
      pageOf(
        db,
        or(
          lt(e.createdAt, p("afterCreated")),
          and(eq(e.createdAt, p("afterCreated")), lt(e.id, p("afterId"))),
        ),
      ),
    ),
    /** An organisation's active endpoints of a product, by webhook_endpoints_org. */
    subscribers: dialect.statement("webhooks_subscribers", root, (db) =>
      db
        .select({ eventTypes: e.eventTypes })
        .from(e)
        .where(and(ownedBy, eq(e.active, true))),
    ),
    fanOutDelivery: dialect.statement("webhooks_fan_out_delivery", root, (db) =>
      db
        .insert(d)
        .values({
          id: p("id"),
          endpointId: p("endpointId"),
          eventId: p("eventId"),
          eventType: p("eventType"),
          body: p("body"),
          createdAt: p("createdAt"),
        })
        .onConflictDoNothing(),
    ),
  };
}
