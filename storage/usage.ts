/** Call counters of the compat surface (compat_usage): one row per scope and period. */
import { and, eq, sql } from "drizzle-orm";
import type { Runner } from "./runner.ts";
import { compatUsage } from "./schema.ts";

export interface Counter {
  scope: string;
  period: string;
}

export interface CallCounters {
  /** Adds one call to each counter, all or none; the counts after it, in order. */
  bump(counters: Counter[]): Promise<number[]>;
  /** The counter's calls so far (0 when it has none). */
  calls(counter: Counter): Promise<number>;
}

export class SqliteCallCounters implements CallCounters {
  constructor(private readonly x: Runner) {}
  bump(counters: Counter[]): Promise<number[]> {
    return this.x.run((db) =>
      db.transaction((t) =>
        counters.map(
          ({ scope, period }) =>
            t
              .insert(compatUsage)
              .values({ scope, period, calls: 1 })
              .onConflictDoUpdate({
                target: [compatUsage.scope, compatUsage.period],
                set: { calls: sql`${compatUsage.calls} + 1` },
              })
              .returning({ calls: compatUsage.calls })
              .get()!.calls,
        ),
      ),
    );
  }
  calls({ scope, period }: Counter): Promise<number> {
    return this.x.run(
      (db) =>
        db
          .select({ calls: compatUsage.calls })
          .from(compatUsage)
          .where(and(eq(compatUsage.scope, scope), eq(compatUsage.period, period)))
          .get()?.calls ?? 0,
    );
  }
}
