/**
 * The single reads of tracked records (by id, by reference, a root's boxes), each statement
 * prepared once per connection: building the SQL cost more than running it. Part of the tracking
 * repository (trackings.ts).
 */
import { and, desc, eq, isNull, like, sql } from "drizzle-orm";
import type { Db } from "./database.ts";
import type { Preparable, Statement } from "./dialect.ts";
import { perConnection, type Runner } from "./runner.ts";
import type { StoredTimeline } from "./timelines.ts";
import { hasTerms, orgHasTermsOf, PARKED_REASON, type TrackedRow, trackedRow } from "./tracked-rows.ts";

/**
 * What names a record's state: its id and version (which every write to it moves); with whether its
 * organisation has free-time terms on file, read in the same statement, so that a read finding
 * none skips the terms query (demurrage is then the same for every box).
 */
export interface RecordKey {
  id: string;
  version: number;
  orgHasTerms: boolean;
}

/**
 * A single read's record: its row, with the milestones its last refresh stored (Timelines.get) if
 * any, and whether its organisation has free-time terms on file (as RecordKey.orgHasTerms).
 */
export interface RecordRead {
  row: TrackedRow;
  stored: StoredTimeline | null;
  orgHasTerms: boolean;
}

/** A read by reference: the statement on the identifier column and the one on the container column. */
type PerColumn<R> = readonly [byIdentifier: Statement<R[]>, byContainer: Statement<R[]>];

/** A row with its stored milestones as the single reads' statements give them. */
interface RenderedRow {
  row: TrackedRow;
  of: string | null;
  json: string | null;
  orgHasTerms: number | string;
}

const recordRead = (r: RenderedRow | undefined): RecordRead | undefined => {
  if (!r) return undefined;
  const stored = r.of === null || r.json === null ? null : { of: r.of, json: r.json };
  return { row: r.row, stored, orgHasTerms: hasTerms(r) };
};

/** The reads of every tracking request (ocean reads), prepared once: building the SQL cost more than running it. */
function prepareReads(x: Runner) {
  const p = sql.placeholder;
  const { tracked, freeTimeTerms } = x.t;
  const row = trackedRow(tracked);
  // In the key's and the row's statement, both of which name the organisation.
  const orgHasTerms = orgHasTermsOf(freeTimeTerms);
  const rendered = { row, of: tracked.milestonesOf, json: tracked.milestonesJson, orgHasTerms };
  type Column = typeof tracked.identifier | typeof tracked.containerNumber;
  const own = and(eq(tracked.id, p("id")), eq(tracked.orgId, p("orgId")));
  const activeWhere = (column: Column) =>
    and(eq(tracked.orgId, p("orgId")), eq(column, p("identifier")), isNull(tracked.archivedAt));
  const active = (column: Column) => (db: Db) => db.select(row).from(tracked).where(activeWhere(column));
  const activeRendered = (column: Column) => (db: Db) =>
    db.select(rendered).from(tracked).where(activeWhere(column));
  // Newest first: the (org_id, column, archived_at, ...) indexes give that order without a sort.
  const completed = (column: Column) => (db: Db) =>
    db
      .select(row)
      .from(tracked)
      .where(
        and(
          eq(tracked.orgId, p("orgId")),
          eq(column, p("identifier")),
          like(tracked.archivedReason, "completed%"),
        ),
      )
      .orderBy(desc(tracked.archivedAt));
  const activeKeys = (column: Column) => (db: Db) =>
    db
      .select({ id: tracked.id, version: tracked.version, parentId: tracked.parentId, orgHasTerms })
      .from(tracked)
      .where(activeWhere(column));
  // One statement per reference column, two indexed lookups: SQLite's planner serves an OR of the
  // two columns with a scan.
  const perColumn = <R>(
    name: string,
    build: (column: Column) => (db: Db) => Preparable<unknown>,
  ): PerColumn<R> => [
    x.dialect.statement(`${name}_by_identifier`, x.root, build(tracked.identifier)) as Statement<R[]>,
    x.dialect.statement(`${name}_by_container`, x.root, build(tracked.containerNumber)) as Statement<R[]>,
  ];
  return {
    // No LIMIT: the id is the primary key, and a LIMIT bound as a parameter cost SQLite more than
    // the read itself (about 20 us a call, bench/tracking.ts).
    get: x.dialect.statement("trackings_get", x.root, (db) =>
      db.select(row).from(tracked).where(own),
    ) as Statement<TrackedRow[]>,
    // The poller's and the refresh's read (every carrier call starts with it).
    byId: x.dialect.statement("trackings_by_id", x.root, (db) =>
      db
        .select(row)
        .from(tracked)
        .where(eq(tracked.id, p("id"))),
    ) as Statement<TrackedRow[]>,
    active: perColumn<TrackedRow>("trackings_active", active),
    readOwn: x.dialect.statement("trackings_read_own", x.root, (db) =>
      db.select(rendered).from(tracked).where(own),
    ) as Statement<RenderedRow[]>,
    rendered: perColumn<RenderedRow>("trackings_read_active", activeRendered),
    completed: perColumn<TrackedRow>("trackings_completed", completed),
    // The same rows' keys, from the (org_id, column, archived_at, parent_id, id, version) indexes.
    keys: perColumn<KeyRow>("trackings_active_keys", activeKeys),
    keyOf: x.dialect.statement("trackings_key_of", x.root, (db) =>
      db
        .select({ id: tracked.id, version: tracked.version, parentId: tracked.parentId, orgHasTerms })
        .from(tracked)
        .where(own),
    ) as Statement<KeyRow[]>,
    children: x.dialect.statement("trackings_children", x.root, (db) =>
      db
        .select(row)
        .from(tracked)
        .where(eq(tracked.parentId, p("parentId"))),
    ) as Statement<TrackedRow[]>,
  };
}

/**
 * firstActiveCarrying's choice, over whichever shape of row the two statements read (rows, rows
 * with their rendering, keys): a root tracked by that very identifier wins over a box of some B/L,
 * otherwise the first row. Reads the container column only when the identifier column names no root.
 */
async function firstActive<R>(
  db: Db,
  statements: PerColumn<R>,
  isRoot: (r: R) => boolean,
  params: { orgId: string; identifier: string },
): Promise<R | undefined> {
  const own = await statements[0].execute(db, params);
  const root = own.find(isRoot);
  if (root) return root;
  const boxes = await statements[1].execute(db, params);
  return boxes.find(isRoot) ?? own[0] ?? boxes[0];
}

/** A key as its statements read it. */
interface KeyRow {
  id: string;
  version: number;
  parentId: string | null;
  orgHasTerms: number | string;
}

const recordKey = (k: KeyRow | undefined): RecordKey | undefined =>
  k ? { id: k.id, version: k.version, orgHasTerms: hasTerms(k) } : undefined;
type Reads = ReturnType<typeof prepareReads>;

const readsFor = perConnection(prepareReads);

/** The single reads (Trackings' byId to lastCompleted), for SqlTrackings. */
export class RecordReads {
  constructor(private readonly x: Runner) {}

  private get reads(): Reads {
    return readsFor(this.x);
  }

  private get tracked() {
    return this.x.t.tracked;
  }

  byId(id: string): Promise<TrackedRow | undefined> {
    return this.x.run(async (db) => (await this.reads.byId.execute(db, { id }))[0]);
  }

  get(orgId: string, id: string): Promise<TrackedRow | undefined> {
    return this.x.run(async (db) => (await this.reads.get.execute(db, { id, orgId }))[0]);
  }

  activeCarrying(orgId: string, identifier: string): Promise<TrackedRow[]> {
    const [byIdentifier, byContainer] = this.reads.active;
    return this.x.run(async (db) => [
      ...(await byIdentifier.execute(db, { orgId, identifier })),
      ...(await byContainer.execute(db, { orgId, identifier })),
    ]);
  }

  firstActiveCarrying(orgId: string, identifier: string): Promise<TrackedRow | undefined> {
    const isRoot = (r: TrackedRow) => r.parentId === null;
    return this.x.run((db) => firstActive(db, this.reads.active, isRoot, { orgId, identifier }));
  }

  firstActiveKey(orgId: string, identifier: string): Promise<RecordKey | undefined> {
    const isRoot = (k: KeyRow) => k.parentId === null;
    const params = { orgId, identifier };
    return this.x.run(async (db) => recordKey(await firstActive(db, this.reads.keys, isRoot, params)));
  }

  readOwn(orgId: string, id: string): Promise<RecordRead | undefined> {
    return this.x.run(async (db) => recordRead((await this.reads.readOwn.execute(db, { id, orgId }))[0]));
  }

  readFirstActive(orgId: string, identifier: string): Promise<RecordRead | undefined> {
    const isRoot = (r: RenderedRow) => r.row.parentId === null;
    const params = { orgId, identifier };
    return this.x.run(async (db) => recordRead(await firstActive(db, this.reads.rendered, isRoot, params)));
  }

  keyOf(orgId: string, id: string): Promise<RecordKey | undefined> {
    return this.x.run(async (db) => recordKey((await this.reads.keyOf.execute(db, { id, orgId }))[0]));
  }

  children(parentId: string): Promise<TrackedRow[]> {
    return this.x.run((db) => this.reads.children.execute(db, { parentId }));
  }

  parkedBoxes(rootId: string): Promise<Set<string>> {
    const tracked = this.tracked;
    return this.x.run(async (db) => {
      const rows = await db
        .select({ n: tracked.containerNumber })
        .from(tracked)
        .where(and(eq(tracked.parentId, rootId), eq(tracked.archivedReason, PARKED_REASON)));
      return new Set(rows.map((r) => r.n!));
    });
  }

  latestRoot(orgId: string, identifier: string): Promise<TrackedRow | undefined> {
    const tracked = this.tracked;
    return this.x.run(
      async (db) =>
        (
          await db
            .select(trackedRow(tracked))
            .from(tracked)
            .where(
              and(eq(tracked.orgId, orgId), eq(tracked.identifier, identifier), isNull(tracked.parentId)),
            )
            .orderBy(desc(tracked.addedAt))
            .limit(1)
        )[0],
    );
  }

  lastCompleted(orgId: string, identifier: string): Promise<TrackedRow | undefined> {
    const [byIdentifier, byContainer] = this.reads.completed;
    const params = { orgId, identifier };
    return this.x.run(async (db) => {
      const [own] = await byIdentifier.execute(db, params);
      const [box] = await byContainer.execute(db, params);
      if (!own || !box) return own ?? box;
      return box.archivedAt! > own.archivedAt! ? box : own;
    });
  }
}
