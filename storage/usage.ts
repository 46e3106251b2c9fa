/** Call counters of the compat surface (compat_usage): one row per scope and period. */
import { and, eq, sql } from "drizzle-orm";
import type { Statement } from "./dialect.ts";
import { perConnection, type Runner } from "./runner.ts";

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

/** Every compat call bumps five counters and may read one: prepared once per connection. */
const statementsFor = perConnection((x) => {
  const { compatUsage } = x.t;
  const p = sql.placeholder;
  return {
    bump: x.dialect.statement("usage_bump", x.root, (db) =>
      db
        .insert(compatUsage)
        .values({ scope: p("scope"), period: p("period"), calls: 1 })
        .onConflictDoUpdate({
          target: [compatUsage.scope, compatUsage.period],
          set: { calls: sql`${compatUsage.calls} + 1` },
        })
        .returning({ calls: compatUsage.calls }),
    ) as Statement<Array<{ calls: number | string }>>,
    calls: x.dialect.statement("usage_calls", x.root, (db) =>
      db
        .select({ calls: compatUsage.calls })
        .from(compatUsage)
        .where(and(eq(compatUsage.scope, p("scope")), eq(compatUsage.period, p("period")))),
    ) as Statement<Array<{ calls: number | string }>>,
  };
});

export class SqlCallCounters implements CallCounters {
  constructor(private readonly x: Runner) {}
  bump(counters: Counter[]): Promise<number[]> {
    const { bump } = statementsFor(this.x);
    // Rows are taken in one order, whatever the caller's, so two concurrent bumps of the same
    // counters cannot deadlock on each other's row locks (PostgreSQL).
    const order = counters.map((_, i) => i).sort((a, b) => compareCounters(counters[a]!, counters[b]!));
    return this.x.atomic(async (db) => {
      const after: number[] = new Array(counters.length);
      for (const i of order) {
        const { scope, period } = counters[i]!;
        const [row] = await bump.execute(db, { scope, period });
        after[i] = Number(row!.calls);
      }
      return after;
    });
  }
  calls({ scope, period }: Counter): Promise<number> {
    const { calls } = statementsFor(this.x);
    return this.x.run(async (db) => Number((await calls.execute(db, { scope, period }))[0]?.calls ?? 0));
  }
}
