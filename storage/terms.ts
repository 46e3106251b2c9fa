/** Free-time terms (demurrage) of an organisation. */
import { and, eq } from "drizzle-orm";
import type { Runner } from "./runner.ts";
import { freeTimeTerms } from "./schema.ts";

export type TermsRow = typeof freeTimeTerms.$inferSelect;

export interface Terms {
  forOrg(orgId: string): Promise<TermsRow[]>;
  add(row: TermsRow): Promise<void>;
  /** False when the organisation has no terms of that id. */
  remove(orgId: string, id: string): Promise<boolean>;
}

export class SqliteTerms implements Terms {
  constructor(private readonly x: Runner) {}
  forOrg(orgId: string): Promise<TermsRow[]> {
    return this.x.run((db) => db.select().from(freeTimeTerms).where(eq(freeTimeTerms.orgId, orgId)).all());
  }
  add(row: TermsRow): Promise<void> {
    return this.x.run((db) => {
      db.insert(freeTimeTerms).values(row).run();
    });
  }
  remove(orgId: string, id: string): Promise<boolean> {
    return this.x.run(
      (db) =>
        db
          .delete(freeTimeTerms)
          .where(and(eq(freeTimeTerms.id, id), eq(freeTimeTerms.orgId, orgId)))
          .returning({ id: freeTimeTerms.id })
          .all().length > 0,
    );
  }
}
