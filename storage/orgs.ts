/** Organisations as the tracking side reads them (accounts write them: api/accounts/repo.ts). */
import { eq } from "drizzle-orm";
import type { Runner } from "./runner.ts";
import type { orgs } from "./schema.ts";

export type Org = typeof orgs.$inferSelect;

export interface Orgs {
  get(id: string): Promise<Org | undefined>;
  /**
   * Locks the organisation's row until the enclosing transaction ends, so quota and slot counts
   * read after it hold against concurrent adds from other processes (PostgreSQL; SQLite's write
   * lock, taken at BEGIN, already does).
   */
  lock(id: string): Promise<void>;
}

export class SqlOrgs implements Orgs {
  constructor(private readonly x: Runner) {}
  get(id: string): Promise<Org | undefined> {
    const { orgs } = this.x.t;
    return this.x.run(async (db) => (await db.select().from(orgs).where(eq(orgs.id, id)).limit(1))[0]);
  }
  lock(id: string): Promise<void> {
    const { orgs } = this.x.t;
    return this.x.run(async (db) => {
      await this.x.dialect.forUpdate(db.select({ id: orgs.id }).from(orgs).where(eq(orgs.id, id)));
    });
  }
}
