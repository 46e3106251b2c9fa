/**
 * Records' stored milestone renderings (the `milestones_*` columns of tracked rows,
 * schema/tracking.ts): written by a refresh, read by lookups with their row (trackings.ts).
 */
import { eq, sql } from "drizzle-orm";
import type { Statement } from "./dialect.ts";
import { perConnection, type Runner } from "./runner.ts";

export interface StoredTimeline {
  /** What the rendering was made from besides the events (renderForStore, ingest/tracking/timeline.ts). */
  of: string;
  json: string;
}

export interface Timelines {
  get(trackedId: string): Promise<StoredTimeline | undefined>;
  /** Stores the record's rendering in place of any before it. */
  put(trackedId: string, rendered: StoredTimeline): Promise<void>;
}

/** Read by a lookup of a record not served before. */
const getStatement = perConnection(
  (x): Statement<Array<{ of: string | null; json: string | null }>> =>
    x.dialect.statement("timeline_of_record", x.root, (db) =>
      db
        .select({ of: x.t.tracked.milestonesOf, json: x.t.tracked.milestonesJson })
        .from(x.t.tracked)
        .where(eq(x.t.tracked.id, sql.placeholder("trackedId"))),
    ),
);

export class SqlTimelines implements Timelines {
  constructor(private readonly x: Runner) {}
  async get(trackedId: string): Promise<StoredTimeline | undefined> {
    const statement = getStatement(this.x);
    const found = await this.x.run(async (db) => (await statement.execute(db, { trackedId }))[0]);
    return found?.of == null || found.json == null ? undefined : { of: found.of, json: found.json };
  }
  /** Not a write of the record (its version stays): the rendering follows from what the version covers. */
  put(trackedId: string, { of, json }: StoredTimeline): Promise<void> {
    const { tracked } = this.x.t;
    return this.x.run(async (db) => {
      await db
        .update(tracked)
        .set({ milestonesOf: of, milestonesJson: json })
        .where(eq(tracked.id, trackedId));
    });
  }
}
