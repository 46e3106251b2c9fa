/**
 * What every statement on the tracked table shares (trackings.ts gathers the repository): the
 * row's columns without the stored milestones, the version that moves with each write, a record's
 * tree, the archive reasons the repository filters on, and whether an organisation has free-time
 * terms, read within a statement.
 */
import { and, eq, getTableColumns, isNotNull, isNull, or, sql } from "drizzle-orm";
import type { Db } from "./database.ts";
import type { Runner } from "./runner.ts";
import type { tracked } from "./schema.ts";

export type Tracked = typeof tracked;
/** A tracked row as every read but the single reads' takes it: without the stored milestones. */
export type TrackedRow = Omit<Tracked["$inferSelect"], "milestonesOf" | "milestonesJson">;
export type NewTracked = Tracked["$inferInsert"];

/** Reason of a root archived because the carrier rejected its number's form (its charge refunded). */
export const REJECTED_REASON = "rejected: invalid number";
/** Reason of a box of a B/L or booking held back for want of a container slot (taken up when one frees). */
export const PARKED_REASON = "not tracked: no container slot free";
/**
 * Reason of a B/L or booking root whose registration was refused at the carrier's first answer,
 * after its answer went out: its boxes needed more container slots than were free (charge refunded,
 * no box tracked).
 */
export const NO_SLOTS_REASON = "refused: not enough container slots for its boxes";
/** Archived roots whose registration was undone and refunded: they hold no month's shipment. */
export const REFUNDED_REASONS = [REJECTED_REASON, NO_SLOTS_REASON];

type RowColumns = Omit<Tracked["_"]["columns"], "milestonesOf" | "milestonesJson">;
const rowColumns = new WeakMap<Tracked, RowColumns>();

/**
 * The columns of a TrackedRow: every column of the table but the stored milestones (1-2 kB a
 * record), which only the single reads take (schema/tracking.ts). One object per table (each
 * dialect's).
 */
export function trackedRow(t: Tracked): RowColumns {
  let columns = rowColumns.get(t);
  if (!columns) {
    const { milestonesOf: _of, milestonesJson: _json, ...rest } = getTableColumns(t);
    columns = rest;
    rowColumns.set(t, columns);
  }
  return columns;
}

/** The next version, written in the same statement as the change it marks (see schema/tracking.ts). */
export const nextVersion = (t: Tracked) => sql`${t.version} + 1`;

/** A root record and its boxes. */
export const treeOf = (t: Tracked, rootId: string) => or(eq(t.id, rootId), eq(t.parentId, rootId));

export const activeBoxFilter = (t: Tracked, orgId: string) =>
  and(eq(t.orgId, orgId), isNull(t.archivedAt), isNotNull(t.containerNumber));

/**
 * Moves the version of a root and its boxes and drops their stored milestones, in one statement:
 * their milestones are read from the root's events, so an event added or corrected changes how
 * each of them renders. Run it in the event write's transaction (events.ts), so no reader sees new
 * events beside an old rendering.
 */
export async function treeEventsChanged(db: Db, t: Tracked, rootId: string): Promise<void> {
  await db
    .update(t)
    .set({ version: nextVersion(t), milestonesOf: null, milestonesJson: null })
    .where(treeOf(t, rootId));
}

/** The statements' orgHasTerms: an integer, which a driver may hand over as text. */
export const hasTerms = (r: { orgHasTerms: number | string }) => Number(r.orgHasTerms) === 1;

/**
 * 1 or 0 (both dialects' integers): whether the organisation the statement names (its "orgId"
 * placeholder) has free-time terms on file; an index probe (free_time_terms_org), evaluated once
 * per statement. Not correlated with the row's org_id: drizzle writes a single table's columns
 * unqualified in the select list, and `org_id = org_id` inside the subquery would compare the
 * terms' column with itself (true for every organisation once any has terms).
 */
export const orgHasTermsOf = (freeTimeTerms: Runner["t"]["freeTimeTerms"]) =>
  sql<number>`case when exists (select 1 from ${freeTimeTerms} where ${freeTimeTerms.orgId} = ${sql.placeholder("orgId")}) then 1 else 0 end`;
