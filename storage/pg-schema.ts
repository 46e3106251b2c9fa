/**
 * The PostgreSQL tables, derived from the one schema (schema.ts) at load time so the two dialects
 * cannot drift: same table, column and index names, and values of the same JavaScript shape, so
 * the repositories are written once. Column mapping: text -> text, json text -> json (kept as
 * written: the engine compares stored payloads by their text, which jsonb would reorder), boolean ->
 * boolean, integer -> bigint (epoch milliseconds overflow int4), real -> double precision, an
 * autoincrement integer key -> an identity column. `npm run db:generate:pg` turns these into the
 * committed migrations under storage/migrations-pg.
 */
import { Column, getTableName, is, SQL } from "drizzle-orm";
import {
  bigint,
  boolean,
  doublePrecision,
  foreignKey,
  index,
  json,
  type PgColumnBuilderBase,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { type AnySQLiteColumn, getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import * as schema from "./schema.ts";

type Schema = typeof schema;
type AnyPgColumn = Column & { name: string };

function columnFor(c: AnySQLiteColumn): PgColumnBuilderBase {
  const type = c.columnType;
  let b: ReturnType<typeof text> | ReturnType<typeof bigint> | ReturnType<typeof boolean>;
  if (type === "SQLiteText") b = text(c.name);
  else if (type === "SQLiteTextJson") b = json(c.name) as unknown as ReturnType<typeof text>;
  else if (type === "SQLiteBoolean") b = boolean(c.name);
  else if (type === "SQLiteInteger") b = bigint(c.name, { mode: "number" });
  else if (type === "SQLiteReal") b = doublePrecision(c.name) as unknown as ReturnType<typeof text>;
  else throw new Error(`pg-schema: no PostgreSQL type for ${c.name} (${type})`);
  const autoIncrement = (c as { autoIncrement?: boolean }).autoIncrement === true;
  if (autoIncrement) return (b as ReturnType<typeof bigint>).generatedByDefaultAsIdentity().primaryKey();
  if (c.primary) b = b.primaryKey() as typeof b;
  if (c.notNull) b = b.notNull() as typeof b;
  if (c.hasDefault && c.default !== undefined) b = b.default(c.default as never) as typeof b;
  return b;
}

/** SQL written against the SQLite columns (partial index conditions), pointed at the pg ones. */
function rebind(condition: SQL, columns: Record<string, AnyPgColumn>): SQL {
  return new SQL(
    condition.queryChunks.map((chunk) => (is(chunk, Column) ? columns[(chunk as Column).name]! : chunk)),
  );
}

function mirror(table: SQLiteTable, mirrored: Map<SQLiteTable, ReturnType<typeof pgTable>>) {
  const config = getTableConfig(table);
  const columns: Record<string, PgColumnBuilderBase> = {};
  const keyOf = new Map<string, string>();
  for (const [key, c] of Object.entries(table as unknown as Record<string, AnySQLiteColumn>)) {
    if (!is(c, Column)) continue;
    columns[key] = columnFor(c);
    keyOf.set(c.name, key);
  }
  return pgTable(getTableName(table), columns, (t) => {
    const byName = Object.fromEntries(
      [...keyOf].map(([name, key]) => [name, (t as Record<string, AnyPgColumn>)[key]!]),
    );
    const cols = (list: readonly { name: string }[]) =>
      list.map((c) => byName[c.name]!) as [never, ...never[]];
    const extras: unknown[] = [];
    for (const pk of config.primaryKeys) {
      extras.push(primaryKey({ name: pk.getName(), columns: cols(pk.columns) }));
    }
    for (const ix of config.indexes) {
      // json has no btree operator class: PostgreSQL reads such a column from the row instead.
      const keys = (ix.config.columns as AnySQLiteColumn[]).filter((c) => c.columnType !== "SQLiteTextJson");
      const b = (ix.config.unique ? uniqueIndex : index)(ix.config.name).on(...cols(keys));
      extras.push(ix.config.where ? b.where(rebind(ix.config.where, byName)) : b);
    }
    for (const fk of config.foreignKeys) {
      const ref = fk.reference();
      const target = mirrored.get(ref.foreignTable);
      if (!target) throw new Error(`pg-schema: ${getTableName(table)} references a table defined after it`);
      const targetColumns = Object.values(target as unknown as Record<string, AnyPgColumn>);
      const b = foreignKey({
        columns: cols(ref.columns),
        foreignColumns: ref.foreignColumns.map(
          (fc) => targetColumns.find((c) => is(c, Column) && c.name === fc.name)!,
        ) as [never, ...never[]],
      });
      extras.push(fk.onDelete ? b.onDelete(fk.onDelete) : b);
    }
    return extras as never;
  });
}

function build(): Schema {
  const mirrored = new Map<SQLiteTable, ReturnType<typeof pgTable>>();
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(schema)) {
    if (!is(value, SQLiteTable)) continue;
    const pg = mirror(value as SQLiteTable, mirrored);
    mirrored.set(value as SQLiteTable, pg);
    out[name] = pg;
  }
  // Typed as the SQLite schema: the repositories use only what both dialects' builders share.
  return out as unknown as Schema;
}

export const pgSchema: Schema = build();
export const {
  orgs,
  apiKeys,
  entitlements,
  tracked,
  carrierEvents,
  corrections,
  outbox,
  shipmentUsage,
  shipmentMonths,
  webhookEndpoints,
  webhookDeliveries,
  webhookAttempts,
  freeTimeTerms,
  compatUsage,
  airWaybills,
  airWaybillEvents,
  sailings,
  sailingChanges,
  scheduleFeeds,
  scheduleFollows,
  cutoffNotices,
  reliabilityStates,
  rateSheets,
  rateLines,
  rateSurcharges,
  loadPlans,
} = pgSchema;
