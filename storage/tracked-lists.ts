/**
 * The lists of tracked records: an organisation's pages (rows, or only their keys), records by ids,
 * active boxes and their counts, a lane's arrivals. Part of the tracking repository (trackings.ts).
 */
import { and, count, desc, eq, inArray, isNotNull, type SQL, sql } from "drizzle-orm";
import { type ExtraConditions, listPage, type PageColumns, type PageFilter } from "./pages.ts";
import { perConnection, type Runner } from "./runner.ts";
import {
  activeBoxFilter,
  hasTerms,
  orgHasTermsOf,
  type Tracked,
  type TrackedRow,
  trackedRow,
} from "./tracked-rows.ts";

export interface ListFilter extends PageFilter {
  /** A row must carry all of them. */
  tags: readonly string[];
}

/** What a list page is keyed by: its order (updatedAt, id) and each row's version. */
export interface PageKey {
  id: string;
  updatedAt: string;
  version: number;
}

/**
 * A list page's keys, with whether the organisation has free-time terms on file, read in the same
 * statement: a page of an organisation with none reads no terms (one round trip less on
 * PostgreSQL). False for an empty page, which renders no demurrage.
 */
export interface PageKeys {
  keys: PageKey[];
  orgHasTerms: boolean;
}

export interface Lane {
  carrierCode: string;
  originUnlocode: string;
  destinationUnlocode: string;
}

/** A list page's keys, and whether the organisation has terms. */
const pageKeyColumns = perConnection((x): PageColumns => {
  const { tracked, freeTimeTerms } = x.t;
  return {
    shape: "keys",
    columns: {
      id: tracked.id,
      updatedAt: tracked.updatedAt,
      version: tracked.version,
      orgHasTerms: orgHasTermsOf(freeTimeTerms),
    },
  };
});

/** The lists (Trackings' list to laneArrivals), for SqlTrackings. */
export class RecordLists {
  constructor(private readonly x: Runner) {}

  private get tracked() {
    return this.x.t.tracked;
  }

  /** The all-of tag filter, as placeholders (one statement per tag count). */
  private tagConditions(filter: ListFilter): ExtraConditions {
    const tracked = this.tracked;
    const { dialect } = this.x;
    return {
      shape: `tags${filter.tags.length}`,
      build: (param: (name: string) => SQL) =>
        filter.tags.map((_, i) => dialect.jsonArrayHas(tracked.tags, param(`tag${i}`))),
      params: Object.fromEntries(filter.tags.map((tag, i) => [`tag${i}`, tag])),
    };
  }

  list(orgId: string, filter: ListFilter): Promise<TrackedRow[]> {
    const tracked = this.tracked;
    return listPage<Tracked, TrackedRow>(
      this.x,
      tracked,
      "tracked",
      orgId,
      filter,
      this.tagConditions(filter),
      {
        shape: "rows",
        columns: trackedRow(tracked),
      },
    );
  }

  async listKeys(orgId: string, filter: ListFilter): Promise<PageKeys> {
    const keys = await listPage<Tracked, PageKey & { orgHasTerms: number | string }>(
      this.x,
      this.tracked,
      "tracked",
      orgId,
      filter,
      this.tagConditions(filter),
      pageKeyColumns(this.x),
    );
    return { keys, orgHasTerms: keys.length > 0 && hasTerms(keys[0]!) };
  }

  async byIds(orgId: string, ids: readonly string[]): Promise<TrackedRow[]> {
    if (ids.length === 0) return [];
    const tracked = this.tracked;
    // By the key alone, the organisation checked here: with org_id in the WHERE clause SQLite
    // walks an (org_id, ...) index through the whole organisation instead (7 ms for 50 ids at 20k).
    const rows = await this.x.run((db) =>
      db
        .select(trackedRow(tracked))
        .from(tracked)
        .where(inArray(tracked.id, [...ids])),
    );
    return rows.filter((r) => r.orgId === orgId);
  }

  activeBoxes(orgId: string, limit: number): Promise<TrackedRow[]> {
    const tracked = this.tracked;
    return this.x.run((db) =>
      db
        .select(trackedRow(tracked))
        .from(tracked)
        .where(activeBoxFilter(tracked, orgId))
        .orderBy(desc(tracked.updatedAt))
        .limit(limit),
    );
  }

  activeBoxesByStatus(orgId: string): Promise<Record<string, number>> {
    const tracked = this.tracked;
    return this.x.run(async (db) =>
      Object.fromEntries(
        (
          await db
            .select({ status: tracked.status, n: count() })
            .from(tracked)
            .where(activeBoxFilter(tracked, orgId))
            .groupBy(tracked.status)
        ).map((s) => [s.status, s.n]),
      ),
    );
  }

  laneArrivals(lane: Lane, onTimeDays: number): Promise<{ total: number; onTime: number }> {
    const tracked = this.tracked;
    // delay_bars[3]: the arrival's delay against the first plan, in days.
    const arrival = this.x.dialect.jsonNumberAt(tracked.delayBars, 3);
    return this.x.run(async (db) => {
      const [row] = await db
        .select({
          total: count(),
          onTime: sql<number | null>`sum(case when abs(${arrival}) <= ${onTimeDays} then 1 else 0 end)`,
        })
        .from(tracked)
        .where(
          and(
            eq(tracked.carrierCode, lane.carrierCode),
            eq(tracked.originUnlocode, lane.originUnlocode),
            eq(tracked.destinationUnlocode, lane.destinationUnlocode),
            isNotNull(tracked.containerNumber),
            inArray(tracked.stage, ["discharged", "available", "delivered", "returned_empty"]),
            sql`${arrival} is not null`,
          ),
        );
      return { total: Number(row?.total ?? 0), onTime: Number(row?.onTime ?? 0) };
    });
  }
}
