/**
 * A fence around one organisation's webhook endpoint rows: while it stands, any statement that
 * returns one of those rows with its event_types fails, and statements that select other
 * organisations' rows run as before. It tells a read keyed by organisation from one that reads
 * every organisation's rows and filters them afterwards, without timing either.
 *
 * SQLite: the rows' event_types hold text that is not JSON, which reading the column refuses.
 * PostgreSQL (its json type accepts only JSON): the table is renamed and a view of the same name
 * computes event_types, raising for the fenced organisation's rows; the filter runs before it. The
 * raising function is stable: a volatile one would keep the planner from merging the view into a
 * query, and every row's column would be computed whether the query returns it or not.
 */
import { getTableColumns, type SQL, sql } from "drizzle-orm";
import type { Storage } from "../../storage/storage.ts";

export const FENCED = "read of a fenced organisation's webhook endpoints";

/** Raises the fence around `orgId`'s endpoint rows; the answer takes it down. */
export async function fenceEndpoints(storage: Storage, orgId: string): Promise<() => Promise<void>> {
  const { db } = storage;
  if (storage.dialect.name === "sqlite") {
    const saved = await db.all<{ id: string; types: string }>(
      sql`select id, event_types as types from webhook_endpoints where org_id = ${orgId}`,
    );
    await db.run(sql`update webhook_endpoints set event_types = ${`{${FENCED}`} where org_id = ${orgId}`);
    return async () => {
      for (const r of saved)
        await db.run(sql`update webhook_endpoints set event_types = ${r.types} where id = ${r.id}`);
    };
  }
  const pg = db as unknown as { execute(q: SQL): Promise<unknown> };
  const exec = (text: string) => pg.execute(sql.raw(text));
  const columns = Object.values(getTableColumns(storage.t.webhookEndpoints)).map((c) =>
    c.name === "event_types"
      ? `case when org_id = '${orgId.replaceAll("'", "''")}' then webhook_fence() else event_types end as event_types`
      : `"${c.name}"`,
  );
  await exec(`create function webhook_fence() returns json language plpgsql stable as $$
    begin raise exception '${FENCED.replaceAll("'", "''")}'; end $$`);
  await exec("alter table webhook_endpoints rename to webhook_endpoints_fenced");
  await exec(`create view webhook_endpoints as select ${columns.join(", ")} from webhook_endpoints_fenced`);
  return async () => {
    await exec("drop view webhook_endpoints");
    await exec("alter table webhook_endpoints_fenced rename to webhook_endpoints");
    await exec("drop function webhook_fence()");
  };
}
