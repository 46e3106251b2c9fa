/** Call counters of the compat surface (compat_usage): one row per scope and period. */
import { and, eq, sql } from "drizzle-orm";
import type { Statement } from "./dialect.ts";
import { perConnection, type Runner } from "./runner.ts";

export interface Counter {
  scope: string;
  period: string;
}

export interface CallCounters {
  /**
   * Adds one call to each counter, all or none; the counts after it, in order (a counter named
   * twice gains two calls, and both places tell the count after both).
   */
  bump(counters: Counter[]): Promise<number[]>;
  /** The counter's calls so far (0 when it has none). */
  calls(counter: Counter): Promise<number>;
}

const compareCounters = (a: Counter, b: Counter) =>
  a.scope < b.scope ? -1 : a.scope > b.scope ? 1 : a.period < b.period ? -1 : a.period > b.period ? 1 : 0;

/** A counter's key in a map: a scope holds no NUL. */
const keyOf = ({ scope, period }: Counter) => `${scope}\u0000${period}`;

type Bump = Statement<Array<{ scope: string; period: string; calls: number | string }>>;

/**
 * Every compat call bumps five counters in one statement (one round trip on PostgreSQL instead of
 * seven with BEGIN and COMMIT; docs/compat.md) and may read one: prepared once per connection, the
 * bump once per number of counters.
 */
const statementsFor = perConnection((x) => {
  const { compatUsage } = x.t;
  const p = sql.placeholder;
  const bumps = new Map<number, Bump>();
  return {
    bump(n: number): Bump {
      let made = bumps.get(n);
      if (!made) {
        made = x.dialect.statement(`usage_bump_${n}`, x.root, (db) =>
          db
            .insert(compatUsage)
            .values(
              Array.from({ length: n }, (_, i) => ({
                scope: p(`s${i}`),
                period: p(`p${i}`),
                calls: p(`c${i}`),
              })),
            )
            .onConflictDoUpdate({
              target: [compatUsage.scope, compatUsage.period],
              set: { calls: sql`${compatUsage.calls} + excluded.calls` },
            })
            .returning({ scope: compatUsage.scope, period: compatUsage.period, calls: compatUsage.calls }),
        ) as Bump;
        bumps.set(n, made);
      }
      return made;
    },
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
  async bump(counters: Counter[]): Promise<number[]> {
    if (counters.length === 0) return [];
    // One row per counter (PostgreSQL refuses a statement that updates a row twice), taken in one
    // order whatever the caller's, so two concurrent bumps of the same counters cannot deadlock on
    // each other's row locks (PostgreSQL).
    const calls = new Map<string, { counter: Counter; calls: number }>();
    for (const c of counters) {
      const k = keyOf(c);
      const seen = calls.get(k);
      if (seen) seen.calls++;
      else calls.set(k, { counter: c, calls: 1 });
    }
    const rows = [...calls.values()].sort((a, b) => compareCounters(a.counter, b.counter));
    const params: Record<string, unknown> = {};
    for (const [i, { counter, calls: n }] of rows.entries()) {
      params[`s${i}`] = counter.scope;
      params[`p${i}`] = counter.period;
      params[`c${i}`] = n;
    }
    const statement = statementsFor(this.x).bump(rows.length);
    const after = new Map(
      (await this.x.run((db) => statement.execute(db, params))).map((r) => [keyOf(r), Number(r.calls)]),
    );
    return counters.map((c) => after.get(keyOf(c))!);
  }
  calls({ scope, period }: Counter): Promise<number> {
    const { calls } = statementsFor(this.x);
    return this.x.run(async (db) => Number((await calls.execute(db, { scope, period }))[0]?.calls ?? 0));
  }
}
