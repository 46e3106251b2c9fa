/** Free-time terms (demurrage) of an organisation. */
import { and, eq, sql } from "drizzle-orm";
import type { Statement } from "./dialect.ts";
import { perConnection, type Runner } from "./runner.ts";
import type { freeTimeTerms } from "./schema.ts";

export type TermsRow = typeof freeTimeTerms.$inferSelect;

export interface Terms {
  forOrg(orgId: string): Promise<TermsRow[]>;
  add(row: TermsRow): Promise<void>;
  /** False when the organisation has no terms of that id. */
  remove(orgId: string, id: string): Promise<boolean>;
}

/** Read by every tracking read (demurrage). */
const forOrgStatement = perConnection(
  (x): Statement<TermsRow[]> =>
    x.dialect.statement("terms_for_org", x.root, (db) =>
      db
        .select()
        .from(x.t.freeTimeTerms)
        .where(eq(x.t.freeTimeTerms.orgId, sql.placeholder("orgId"))),
    ),
);

export class SqlTerms implements Terms {
  constructor(private readonly x: Runner) {}
  forOrg(orgId: string): Promise<TermsRow[]> {
    const statement = forOrgStatement(this.x);
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
