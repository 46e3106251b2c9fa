/**
 * Load plans per organisation (table load_plans): the keyed resource of /v1/load-plans on the
 * load-plan host. Planning, validation and events stay in api/loading; this file only reads and
 * writes rows, always scoped to the organisation (another one's id reads as absent).
 */
import { and, desc, eq, lt, or } from "drizzle-orm";
import type { Runner } from "./runner.ts";
import type { loadPlans } from "./schema.ts";

export type LoadPlanRow = typeof loadPlans.$inferSelect;
export type NewLoadPlan = typeof loadPlans.$inferInsert;

export interface LoadPlanPage {
  orgId: string;
  limit: number;
  /** Continue after this row in (updated_at desc, id desc) order. */
  after?: { updatedAt: string; id: string };
  reference?: string;
}

export interface LoadPlans {
  insert(row: NewLoadPlan): Promise<LoadPlanRow>;
  get(orgId: string, id: string): Promise<LoadPlanRow | undefined>;
  /** The plan's version, read without its input and result (undefined when the organisation has no such plan). */
  version(orgId: string, id: string): Promise<number | undefined>;
  /**
   * Writes `fields` over the organisation's plan if it is still at `version` (a change committed
   * since it was read, by any process, makes this a no-op); the stored row after, or undefined.
   */
  update(
    orgId: string,
    id: string,
    version: number,
    fields: Partial<Omit<LoadPlanRow, "id" | "orgId">>,
  ): Promise<LoadPlanRow | undefined>;
  /** Removes the organisation's plan; the row it was, or undefined if none. */
  delete(orgId: string, id: string): Promise<LoadPlanRow | undefined>;
  /** A page of the organisation's plans, last changed first (limit + 1 rows: the last says more). */
  page(q: LoadPlanPage): Promise<LoadPlanRow[]>;
}

export class SqlLoadPlans implements LoadPlans {
  constructor(private readonly x: Runner) {}

  insert(row: NewLoadPlan): Promise<LoadPlanRow> {
    const { loadPlans: p } = this.x.t;
    return this.x.run(async (db) => (await db.insert(p).values(row).returning())[0]!);
  }

  get(orgId: string, id: string): Promise<LoadPlanRow | undefined> {
    const { loadPlans: p } = this.x.t;
    return this.x.run(
      async (db) =>
        (
          await db
            .select()
            .from(p)
            .where(and(eq(p.orgId, orgId), eq(p.id, id)))
            .limit(1)
        )[0],
    );
  }

  version(orgId: string, id: string): Promise<number | undefined> {
    const { loadPlans: p } = this.x.t;
    return this.x.run(
      async (db) =>
        (
          await db
            .select({ version: p.version })
            .from(p)
            .where(and(eq(p.orgId, orgId), eq(p.id, id)))
            .limit(1)
        )[0]?.version,
    );
  }

  update(
    orgId: string,
    id: string,
    version: number,
    fields: Partial<Omit<LoadPlanRow, "id" | "orgId">>,
  ): Promise<LoadPlanRow | undefined> {
    const { loadPlans: p } = this.x.t;
    return this.x.run(
      async (db) =>
        (
          await db
            .update(p)
            .set(fields)
            .where(and(eq(p.orgId, orgId), eq(p.id, id), eq(p.version, version)))
            .returning()
        )[0],
    );
  }

  delete(orgId: string, id: string): Promise<LoadPlanRow | undefined> {
    const { loadPlans: p } = this.x.t;
    return this.x.run(
      async (db) =>
        (
          await db
            .delete(p)
            .where(and(eq(p.orgId, orgId), eq(p.id, id)))
            .returning()
        )[0],
    );
  }

  page(q: LoadPlanPage): Promise<LoadPlanRow[]> {
    const { loadPlans: p } = this.x.t;
    const after = q.after
      ? or(lt(p.updatedAt, q.after.updatedAt), and(eq(p.updatedAt, q.after.updatedAt), lt(p.id, q.after.id)))
      : undefined;
    return this.x.run((db) =>
      db
        .select()
        .from(p)
        .where(
          and(
            eq(p.orgId, q.orgId),
            q.reference === undefined ? undefined : eq(p.reference, q.reference),
            after,
          ),
        )
        .orderBy(desc(p.updatedAt), desc(p.id))
        .limit(q.limit + 1),
    );
  }
}
