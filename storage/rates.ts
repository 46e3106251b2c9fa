/**
 * Rate sheets per organisation, their lines and surcharges (docs/rates.md). The rules deciding what
 * to write (identity, digest, events) stay in ingest/rates/import.ts; search logic in engine/rates.
 */
import { and, asc, desc, eq, gte, inArray, isNull, lt, lte, ne, or, type SQL } from "drizzle-orm";
import type { Runner } from "./runner.ts";
import type { rateLines, rateSheets, rateSurcharges } from "./schema.ts";

export type RateSheetRow = typeof rateSheets.$inferSelect;
export type NewRateSheet = typeof rateSheets.$inferInsert;
export type RateLineRow = typeof rateLines.$inferSelect;
export type NewRateLine = Omit<typeof rateLines.$inferInsert, "seq" | "sheetId">;
export type RateSurchargeRow = typeof rateSurcharges.$inferSelect;
export type NewRateSurcharge = Omit<typeof rateSurcharges.$inferInsert, "seq" | "sheetId">;

/** What a search reads: the organisation's sheets of a mode valid on a date, lines on given lanes. */
export interface RateLaneQuery {
  orgId: string;
  mode: string;
  /** YYYY-MM-DD: valid_from <= date <= valid_to. */
  date: string;
  /** Codes a line's origin / destination may carry (the place and its country). */
  origins: readonly string[];
  destinations: readonly string[];
}

export interface RateSheetPage {
  orgId: string;
  limit: number;
  /** Continue after this row in (imported_at desc, id desc) order. */
  after?: { importedAt: string; id: string };
  mode?: string;
  carrier?: string;
}

/** Rows per insert: under SQLite's bound-parameter limit whatever a sheet holds. */
const BATCH = 200;

export interface RateSheets {
  /** The sheet of this identity, any validity. */
  byIdentity(orgId: string, carrier: string, mode: string, name: string): Promise<RateSheetRow | undefined>;
  /** Any organisation's sheet `id` (the operator's CLI). */
  byId(id: string): Promise<RateSheetRow | undefined>;
  /** The organisation's sheet `id`; another organisation's id reads as absent. */
  get(orgId: string, id: string): Promise<RateSheetRow | undefined>;
  lines(sheetId: string): Promise<RateLineRow[]>;
  surcharges(sheetIds: readonly string[]): Promise<RateSurchargeRow[]>;
  insert(
    sheet: NewRateSheet,
    lines: readonly NewRateLine[],
    surcharges: readonly NewRateSurcharge[],
  ): Promise<void>;
  /** New fields, lines and surcharges for sheet `id` (the old lines and surcharges go). */
  replace(
    id: string,
    fields: Partial<RateSheetRow>,
    lines: readonly NewRateLine[],
    surcharges: readonly NewRateSurcharge[],
  ): Promise<void>;
  /** Deletes the organisation's sheet with its lines and surcharges; false when it has none such. */
  delete(orgId: string, id: string): Promise<boolean>;
  /** A page of the organisation's sheets, newest import first (limit + 1 rows: the last says more). */
  page(q: RateSheetPage): Promise<RateSheetRow[]>;
  /** Sheets of every organisation (the CLI's list) or of one, newest import first. */
  all(orgId?: string): Promise<RateSheetRow[]>;
  /** Lines on the queried lanes of the organisation's sheets valid on the date, with their sheet. */
  lanes(q: RateLaneQuery): Promise<Array<{ sheet: RateSheetRow; line: RateLineRow }>>;
  /** Sheets ending within [from, to] whose rate_expiring was not raised for that end date yet. */
  expiring(from: string, to: string): Promise<RateSheetRow[]>;
  /**
   * Records that rate_expiring was raised for the sheet's current valid_to; false when it was
   * already (another process got there first), so the caller raises nothing.
   */
  markExpiring(id: string, validTo: string): Promise<boolean>;
}

export class SqlRateSheets implements RateSheets {
  constructor(private readonly x: Runner) {}

  /** The first sheet `where` selects, if any. */
  private one(where: SQL | undefined): Promise<RateSheetRow | undefined> {
    const { rateSheets: s } = this.x.t;
    return this.x.run(async (db) => (await db.select().from(s).where(where).limit(1))[0]);
  }

  byIdentity(orgId: string, carrier: string, mode: string, name: string): Promise<RateSheetRow | undefined> {
    const { rateSheets: s } = this.x.t;
    return this.one(and(eq(s.orgId, orgId), eq(s.carrier, carrier), eq(s.mode, mode), eq(s.name, name)));
  }

  byId(id: string): Promise<RateSheetRow | undefined> {
    return this.one(eq(this.x.t.rateSheets.id, id));
  }

  get(orgId: string, id: string): Promise<RateSheetRow | undefined> {
    const { rateSheets: s } = this.x.t;
    return this.one(and(eq(s.orgId, orgId), eq(s.id, id)));
  }

  lines(sheetId: string): Promise<RateLineRow[]> {
    const { rateLines: l } = this.x.t;
    return this.x.run((db) => db.select().from(l).where(eq(l.sheetId, sheetId)).orderBy(asc(l.seq)));
  }

  surcharges(sheetIds: readonly string[]): Promise<RateSurchargeRow[]> {
    const { rateSurcharges: c } = this.x.t;
    if (sheetIds.length === 0) return Promise.resolve([]);
    return this.x.run((db) =>
      db
        .select()
        .from(c)
        .where(inArray(c.sheetId, [...sheetIds]))
        .orderBy(asc(c.seq)),
    );
  }

  insert(
    sheet: NewRateSheet,
    lines: readonly NewRateLine[],
    surcharges: readonly NewRateSurcharge[],
  ): Promise<void> {
    const { rateSheets: s } = this.x.t;
    return this.x.atomic(async (db) => {
      await db.insert(s).values(sheet);
      await this.children(db, sheet.id, lines, surcharges);
    });
  }

  replace(
    id: string,
    fields: Partial<RateSheetRow>,
    lines: readonly NewRateLine[],
    surcharges: readonly NewRateSurcharge[],
  ): Promise<void> {
    const { rateSheets: s, rateLines: l, rateSurcharges: c } = this.x.t;
    return this.x.atomic(async (db) => {
      await db.update(s).set(fields).where(eq(s.id, id));
      await db.delete(l).where(eq(l.sheetId, id));
      await db.delete(c).where(eq(c.sheetId, id));
      await this.children(db, id, lines, surcharges);
    });
  }

  private async children(
    db: Parameters<Parameters<Runner["atomic"]>[0]>[0],
    sheetId: string,
    lines: readonly NewRateLine[],
    surcharges: readonly NewRateSurcharge[],
  ): Promise<void> {
    const { rateLines: l, rateSurcharges: c } = this.x.t;
    for (let i = 0; i < lines.length; i += BATCH) {
      await db.insert(l).values(lines.slice(i, i + BATCH).map((r) => ({ ...r, sheetId })));
    }
    for (let i = 0; i < surcharges.length; i += BATCH) {
      await db.insert(c).values(surcharges.slice(i, i + BATCH).map((r) => ({ ...r, sheetId })));
    }
  }

  delete(orgId: string, id: string): Promise<boolean> {
    const { rateSheets: s, rateLines: l, rateSurcharges: c } = this.x.t;
    return this.x.atomic(async (db) => {
      const found = await db
        .select({ id: s.id })
        .from(s)
        .where(and(eq(s.orgId, orgId), eq(s.id, id)));
      if (found.length === 0) return false;
      // Children first: SQLite enforces the cascade only with foreign_keys on.
      await db.delete(l).where(eq(l.sheetId, id));
      await db.delete(c).where(eq(c.sheetId, id));
      await db.delete(s).where(eq(s.id, id));
      return true;
    });
  }

  page(q: RateSheetPage): Promise<RateSheetRow[]> {
    const { rateSheets: s } = this.x.t;
    const after = q.after
      ? or(
          lt(s.importedAt, q.after.importedAt),
          and(eq(s.importedAt, q.after.importedAt), lt(s.id, q.after.id)),
        )
      : undefined;
    return this.x.run((db) =>
      db
        .select()
        .from(s)
        .where(
          and(
            eq(s.orgId, q.orgId),
            q.mode === undefined ? undefined : eq(s.mode, q.mode),
            q.carrier === undefined ? undefined : eq(s.carrier, q.carrier),
            after,
          ),
        )
        .orderBy(desc(s.importedAt), desc(s.id))
        .limit(q.limit + 1),
    );
  }

  all(orgId?: string): Promise<RateSheetRow[]> {
    const { rateSheets: s } = this.x.t;
    return this.x.run((db) =>
      db
        .select()
        .from(s)
        .where(orgId === undefined ? undefined : eq(s.orgId, orgId))
        .orderBy(desc(s.importedAt), desc(s.id)),
    );
  }

  lanes(q: RateLaneQuery): Promise<Array<{ sheet: RateSheetRow; line: RateLineRow }>> {
    const { rateSheets: s, rateLines: l } = this.x.t;
    if (q.origins.length === 0 || q.destinations.length === 0) return Promise.resolve([]);
    return this.x.run((db) =>
      db
        .select({ sheet: s, line: l })
        .from(l)
        .innerJoin(s, eq(s.id, l.sheetId))
        .where(
          and(
            eq(s.orgId, q.orgId),
            eq(s.mode, q.mode),
            lte(s.validFrom, q.date),
            gte(s.validTo, q.date),
            inArray(l.origin, [...q.origins]),
            inArray(l.destination, [...q.destinations]),
          ),
        )
        .orderBy(asc(s.id), asc(l.seq)),
    );
  }

  expiring(from: string, to: string): Promise<RateSheetRow[]> {
    const { rateSheets: s } = this.x.t;
    return this.x.run((db) =>
      db
        .select()
        .from(s)
        .where(
          and(
            gte(s.validTo, from),
            lte(s.validTo, to),
            or(isNull(s.expiringRaisedFor), ne(s.expiringRaisedFor, s.validTo)),
          ),
        )
        .orderBy(asc(s.validTo), asc(s.id)),
    );
  }

  markExpiring(id: string, validTo: string): Promise<boolean> {
    const { rateSheets: s } = this.x.t;
    // Conditional on the row as it stands: of two processes sweeping at once, one update matches.
    return this.x.run(async (db) => {
      const done = await db
        .update(s)
        .set({ expiringRaisedFor: validTo })
        .where(
          and(
            eq(s.id, id),
            eq(s.validTo, validTo),
            or(isNull(s.expiringRaisedFor), ne(s.expiringRaisedFor, validTo)),
          ),
        )
        .returning({ id: s.id });
      return done.length > 0;
    });
  }
}
