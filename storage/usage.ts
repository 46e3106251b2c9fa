/** Call counters of the compat surface (compat_usage): one row per scope and period. */
import { and, eq, sql } from "drizzle-orm";
import type { Runner } from "./runner.ts";

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

const compareCounters = (a: Counter, b: Counter) =>
  a.scope < b.scope ? -1 : a.scope > b.scope ? 1 : a.period < b.period ? -1 : a.period > b.period ? 1 : 0;

export class SqlCallCounters implements CallCounters {
  constructor(private readonly x: Runner) {}
  bump(counters: Counter[]): Promise<number[]> {
    const { compatUsage } = this.x.t;
    // Rows are taken in one order, whatever the caller's, so two concurrent bumps of the same
    // counters cannot deadlock on each other's row locks (PostgreSQL).
    const order = counters.map((_, i) => i).sort((a, b) => compareCounters(counters[a]!, counters[b]!));
    return this.x.atomic(async (db) => {
      const after: number[] = new Array(counters.length);
      for (const i of order) {
        const { scope, period } = counters[i]!;
        const [row] = await db
          .insert(compatUsage)
          .values({ scope, period, calls: 1 })
          .onConflictDoUpdate({
            target: [compatUsage.scope, compatUsage.period],
            set: { calls: sql`${compatUsage.calls} + 1` },
          })
          .returning({ calls: compatUsage.calls });
        after[i] = row!.calls;
      }
      return after;
    });
  }
  calls({ scope, period }: Counter): Promise<number> {
    const { compatUsage } = this.x.t;
    return this.x.run(
      async (db) =>
        (
          await db
            .select({ calls: compatUsage.calls })
            .from(compatUsage)
            .where(and(eq(compatUsage.scope, scope), eq(compatUsage.period, period)))
            .limit(1)
        )[0]?.calls ?? 0,
    );
  }
}
