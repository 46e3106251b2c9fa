/**
 * What organisations follow on the schedules host (table schedule_follows): the keyed resource of
 * POST/GET/DELETE /v1/follows, and every follow for the cut-off and reliability sweeps. The rules
 * (what a follow covers, its identity) stay in ingest/schedules/follows.ts.
 */
import { and, asc, count, eq } from "drizzle-orm";
import type { Runner } from "./runner.ts";
import type { scheduleFollows } from "./schema.ts";

export type FollowRow = typeof scheduleFollows.$inferSelect;
export type NewFollow = typeof scheduleFollows.$inferInsert;

export type FollowCreated =
  | { outcome: "created" | "existing"; row: FollowRow }
  | { outcome: "limit"; held: number };

export interface Follows {
  /**
   * Stores the follow unless the organisation already has one of the same identity (answered
   * instead) or holds `cap` follows already. The organisation's row is locked first, so concurrent
   * posts from several processes neither pass the cap nor store a duplicate.
   */
  create(row: NewFollow, cap: number): Promise<FollowCreated>;
  /** The organisation's follows, oldest first. */
  list(orgId: string): Promise<FollowRow[]>;
  get(orgId: string, id: string): Promise<FollowRow | undefined>;
  delete(orgId: string, id: string): Promise<boolean>;
  /** Every organisation's follows (the sweeps; the cap bounds them per organisation). */
  all(): Promise<FollowRow[]>;
}

export class SqlFollows implements Follows {
  constructor(private readonly x: Runner) {}

  create(row: NewFollow, cap: number): Promise<FollowCreated> {
    const { scheduleFollows: f, orgs } = this.x.t;
    return this.x.atomic(async (db) => {
      await this.x.dialect.forUpdate(db.select({ id: orgs.id }).from(orgs).where(eq(orgs.id, row.orgId)));
      const [same] = await db
        .select()
        .from(f)
        .where(and(eq(f.orgId, row.orgId), eq(f.identity, row.identity)))
        .limit(1);
      if (same) return { outcome: "existing", row: same };
      const held = (await db.select({ n: count() }).from(f).where(eq(f.orgId, row.orgId)))[0]?.n ?? 0;
      if (held >= cap) return { outcome: "limit", held };
      const [stored] = await db.insert(f).values(row).returning();
      return { outcome: "created", row: stored! };
    });
  }

  list(orgId: string): Promise<FollowRow[]> {
    const { scheduleFollows: f } = this.x.t;
    return this.x.run((db) =>
      db.select().from(f).where(eq(f.orgId, orgId)).orderBy(asc(f.createdAt), asc(f.id)),
    );
  }

  get(orgId: string, id: string): Promise<FollowRow | undefined> {
    const { scheduleFollows: f } = this.x.t;
    return this.x.run(
      async (db) =>
        (
          await db
            .select()
            .from(f)
            .where(and(eq(f.orgId, orgId), eq(f.id, id)))
            .limit(1)
        )[0],
    );
  }

  delete(orgId: string, id: string): Promise<boolean> {
    const { scheduleFollows: f } = this.x.t;
    return this.x.run(
      async (db) =>
        (
          await db
            .delete(f)
            .where(and(eq(f.orgId, orgId), eq(f.id, id)))
            .returning({ id: f.id })
        ).length > 0,
    );
  }

  all(): Promise<FollowRow[]> {
    const { scheduleFollows: f } = this.x.t;
    return this.x.run((db) => db.select().from(f).orderBy(asc(f.orgId), asc(f.createdAt), asc(f.id)));
  }
}
