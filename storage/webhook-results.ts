/**
 * Recording a dispatcher's attempts (Webhooks.claim and Webhooks.record in webhooks.ts run it in
 * their transaction): the attempt row, the delivery's settlement and the endpoint's failure streak,
 * as a policy decided outside storage (api/webhooks/policy.ts) says. An attempt whose lease was lost
 * (another dispatcher took the delivery over) or whose endpoint was deleted meanwhile records nothing.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "./database.ts";
import { perConnection, type Runner } from "./runner.ts";

const iso = (ms: number) => new Date(ms).toISOString();

export interface AttemptResult {
  deliveryId: string;
  /** The attempt number the claim handed out: a lease taken over by another dispatcher no longer matches. */
  attempt: number;
  owner: string;
  startedAt: number;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  excerpt: string | null;
}

/** What a delivery becomes after an attempt; nextAttemptAt (epoch ms) matters only while pending. */
export interface Settlement {
  status: "delivered" | "pending" | "dead";
  nextAttemptAt: number;
}

/** An endpoint's failure streak with the attempt just recorded counted in it. */
export interface FailureStreak {
  active: boolean;
  failureCount: number;
  /** Epoch ms of the streak's first failed attempt. */
  failingSince: number | null;
}

export type DisabledReason = "gone" | "failing";

/**
 * The decisions recording an attempt needs, made outside storage (api/webhooks/policy.ts): storage
 * asks them inside its transaction, with the endpoint as it stands there, and records the answers.
 */
export interface AttemptPolicy {
  settle(r: AttemptResult, nowMs: number): Settlement;
  /** Why the endpoint is disabled after this failed attempt, or null to keep it as it is. */
  disable(r: AttemptResult, streak: FailureStreak, nowMs: number): DisabledReason | null;
}

export class AttemptRecords {
  private readonly q: Statements;

  constructor(private readonly x: Runner) {
    this.q = statementsFor(x);
  }

  /**
   * Locks the endpoints the results touch in id order before recording them: two dispatchers
   * recording results of the same endpoints in different orders would otherwise deadlock on
   * PostgreSQL (endpoints first, then deliveries, as a PATCH that reactivates an endpoint does).
   */
  async record(db: Db, results: AttemptResult[], policy: AttemptPolicy, nowMs: number): Promise<void> {
    if (results.length === 0) return;
    const { webhookEndpoints: e, webhookDeliveries: d } = this.x.t;
    const ids = results.map((r) => r.deliveryId);
    await this.x.dialect.forUpdate(
      db
        .select({ id: e.id })
        .from(e)
        .where(inArray(e.id, db.select({ id: d.endpointId }).from(d).where(inArray(d.id, ids))))
        .orderBy(e.id),
    );
    for (const r of results) await this.recordOne(db, r, policy, nowMs);
  }

  private async recordOne(db: Db, r: AttemptResult, policy: AttemptPolicy, nowMs: number): Promise<void> {
    const q = this.q;
    const current = (await q.leased.execute(db, { id: r.deliveryId, owner: r.owner, attempt: r.attempt }))[0];
    if (!current) return;
    await q.attempt.execute(db, {
      deliveryId: r.deliveryId,
      attempt: r.attempt,
      startedAt: iso(r.startedAt),
      durationMs: Math.round(r.durationMs),
      statusCode: r.statusCode,
      error: r.error,
      excerpt: r.excerpt,
      owner: r.owner,
    });
    const { status, nextAttemptAt } = policy.settle(r, nowMs);
    const delivered = status === "delivered";
    await q.settle.execute(db, {
      id: r.deliveryId,
      status,
      statusCode: r.statusCode,
      error: delivered ? null : r.error,
      deliveredAt: delivered ? iso(nowMs) : null,
      next: status === "pending" ? nextAttemptAt : 0,
    });
    if (delivered) {
      await q.succeeded.execute(db, { id: current.endpointId, at: iso(nowMs) });
      return;
    }
    const streak = (await q.failed.execute(db, { id: current.endpointId, since: r.startedAt }))[0]!;
    const reason = policy.disable(r, streak, nowMs);
    if (reason) await q.disable.execute(db, { id: current.endpointId, reason });
  }
}

type Statements = ReturnType<typeof prepareStatements>;

const statementsFor = perConnection(prepareStatements);

function prepareStatements(x: Runner) {
  const p = sql.placeholder;
  const { webhookDeliveries: d, webhookEndpoints: e, webhookAttempts } = x.t;
  const { dialect, root } = x;
  return {
    /**
     * The delivery if still leased to this dispatcher for this attempt, locked until the record
     * ends (PostgreSQL: a dispatcher taking the lease over waits, or is waited for and then no
     * longer matches; the fence holds between this check and the writes after it).
     */
    leased: dialect.statement("webhooks_leased", root, (db) =>
      dialect.forUpdate(
        db
          .select({ endpointId: d.endpointId })
          .from(d)
          .where(
            and(
              eq(d.id, p("id")),
              eq(d.leaseOwner, p("owner")),
              eq(d.attemptCount, p("attempt")),
              eq(d.status, "pending"),
            ),
          ),
      ),
    ),
    attempt: dialect.statement("webhooks_attempt", root, (db) =>
      db
        .insert(webhookAttempts)
        .values({
          deliveryId: p("deliveryId"),
          attempt: p("attempt"),
          startedAt: p("startedAt"),
          durationMs: p("durationMs"),
          statusCode: p("statusCode"),
          error: p("error"),
          responseExcerpt: p("excerpt"),
          dispatcher: p("owner"),
        })
        .onConflictDoNothing(),
    ),
    settle: dialect.statement("webhooks_settle", root, (db) =>
      db
        .update(d)
        .set({
          status: sql`${p("status")}`,
          leaseUntil: 0,
          lastStatusCode: sql`${p("statusCode")}`,
          lastError: sql`${p("error")}`,
          deliveredAt: sql`${p("deliveredAt")}`,
          nextAttemptAt: sql`${p("next")}`,
        })
        .where(eq(d.id, p("id"))),
    ),
    succeeded: dialect.statement("webhooks_succeeded", root, (db) =>
      db
        .update(e)
        .set({ failureCount: 0, failingSince: null, lastDeliveryAt: sql`${p("at")}` })
        .where(eq(e.id, p("id"))),
    ),
    failed: dialect.statement("webhooks_failed", root, (db) =>
      db
        .update(e)
        .set({
          failureCount: sql`${e.failureCount} + 1`,
          failingSince: sql`coalesce(${e.failingSince}, ${p("since")})`,
        })
        .where(eq(e.id, p("id")))
        .returning({
          active: e.active,
          failureCount: e.failureCount,
          failingSince: e.failingSince,
        }),
    ),
    disable: dialect.statement("webhooks_disable", root, (db) =>
      db
        .update(e)
        .set({ active: false, disabledReason: sql`${p("reason")}` })
        .where(eq(e.id, p("id"))),
    ),
  };
}
