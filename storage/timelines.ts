/** Records' stored milestone renderings (schema.ts `timelines`): written by a refresh, read by lookups. */
import { eq, inArray, sql } from "drizzle-orm";
import type { Db } from "./database.ts";
import type { Statement } from "./dialect.ts";
import type { Runner, Tables } from "./runner.ts";
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

/** Read by a lookup of a record not served before: prepared once per connection (x.root). */
const getStatements = new WeakMap<Db, Statement<StoredTimeline[]>>();

export class SqlTimelines implements Timelines {
  constructor(private readonly x: Runner) {}
  get(trackedId: string): Promise<StoredTimeline | undefined> {
    let q = getStatements.get(this.x.root);
    if (!q) {
      const { timelines } = this.x.t;
      q = this.x.dialect.statement("timeline_of_record", this.x.root, (db) =>
        db
          .select({ of: timelines.of, json: timelines.json })
          .from(timelines)
          .where(eq(timelines.trackedId, sql.placeholder("trackedId"))),
      );
      getStatements.set(this.x.root, q);
    }
    const statement = q;
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
