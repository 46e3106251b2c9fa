/** Records' stored milestone renderings (schema.ts `timelines`): written by a refresh, read by lookups. */
import { eq, inArray, sql } from "drizzle-orm";
import type { Db } from "./database.ts";
import type { Statement } from "./dialect.ts";
import { perConnection, type Runner, type Tables } from "./runner.ts";
import { treeOf } from "./trackings.ts";

export interface StoredTimeline {
  /** What the rendering was made from besides the events (renderedFrom, ingest/tracking/timeline.ts). */
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
  (x): Statement<StoredTimeline[]> =>
    x.dialect.statement("timeline_of_record", x.root, (db) =>
      db
        .select({ of: x.t.timelines.of, json: x.t.timelines.json })
        .from(x.t.timelines)
        .where(eq(x.t.timelines.trackedId, sql.placeholder("trackedId"))),
    ),
);

export class SqlTimelines implements Timelines {
  constructor(private readonly x: Runner) {}
  get(trackedId: string): Promise<StoredTimeline | undefined> {
    const statement = getStatement(this.x);
    return this.x.run(async (db) => (await statement.execute(db, { trackedId }))[0]);
  }
  put(trackedId: string, { of, json }: StoredTimeline): Promise<void> {
    const { timelines } = this.x.t;
    return this.x.run(async (db) => {
      await db
        .insert(timelines)
        .values({ trackedId, of, json })
        .onConflictDoUpdate({ target: timelines.trackedId, set: { of, json } });
    });
  }
}

/**
 * Drops the stored renderings of a root and its boxes: they are rendered from the root's events.
 * Run it in the event write's transaction (events.ts), so no reader sees new events beside an old
 * rendering.
 */
export async function dropTreeTimelines(db: Db, t: Tables, rootId: string): Promise<void> {
  const { timelines, tracked } = t;
  const tree = db.select({ id: tracked.id }).from(tracked).where(treeOf(tracked, rootId));
  await db.delete(timelines).where(inArray(timelines.trackedId, tree));
}
