/** Free-time terms (demurrage) of an organisation. */
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "./database.ts";
import type { Statement } from "./dialect.ts";
import type { Runner } from "./runner.ts";
import type { freeTimeTerms } from "./schema.ts";

export type TermsRow = typeof freeTimeTerms.$inferSelect;

export interface Terms {
  forOrg(orgId: string): Promise<TermsRow[]>;
  add(row: TermsRow): Promise<void>;
  /** False when the organisation has no terms of that id. */
  remove(orgId: string, id: string): Promise<boolean>;
}

/** Read by every tracking read (demurrage): prepared once per connection (x.root). */
const forOrgStatements = new WeakMap<Db, Statement<TermsRow[]>>();

export class SqlTerms implements Terms {
  constructor(private readonly x: Runner) {}
  forOrg(orgId: string): Promise<TermsRow[]> {
    let q = forOrgStatements.get(this.x.root);
    if (!q) {
      const { freeTimeTerms } = this.x.t;
      q = this.x.dialect.statement("terms_for_org", this.x.root, (db) =>
        db
          .select()
          .from(freeTimeTerms)
          .where(eq(freeTimeTerms.orgId, sql.placeholder("orgId"))),
      );
      forOrgStatements.set(this.x.root, q);
    }
    const statement = q;
    return this.x.run((db) => statement.execute(db, { orgId }));
  }
  add(row: TermsRow): Promise<void> {
    const { freeTimeTerms } = this.x.t;
    return this.x.run(async (db) => {
      await db.insert(freeTimeTerms).values(row);
    });
  }
  remove(orgId: string, id: string): Promise<boolean> {
    const { freeTimeTerms } = this.x.t;
    return this.x.run(
      async (db) =>
        (
          await db
            .delete(freeTimeTerms)
            .where(and(eq(freeTimeTerms.id, id), eq(freeTimeTerms.orgId, orgId)))
            .returning({ id: freeTimeTerms.id })
        ).length > 0,
    );
  }
}
