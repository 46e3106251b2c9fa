/** Organisations as the tracking side reads them (accounts write them: api/accounts/repo.ts). */
import { eq } from "drizzle-orm";
import type { Runner } from "./runner.ts";
import { orgs } from "./schema.ts";

export type Org = typeof orgs.$inferSelect;

export interface Orgs {
  get(id: string): Promise<Org | undefined>;
}

export class SqliteOrgs implements Orgs {
  constructor(private readonly x: Runner) {}
  get(id: string): Promise<Org | undefined> {
    return this.x.run((db) => db.select().from(orgs).where(eq(orgs.id, id)).get());
  }
}
