/**
 * Rows of drizzle's prepared SQLite selects mapped by a function made once per statement, not by
 * drizzle's mapResultRow, which for every row and column looks up the column's decoder through
 * entity checks and walks the field's path with an iterator: a tracked row (60 columns) with its
 * stored milestones read in 19 us against 24 us (bench/tracking.ts). The result is mapResultRow's,
 * key for key and in its order: the same decoders (JSON, booleans) on the same non-null values,
 * the same nesting.
 */
import { Column, getTableName, is, SQL, type Table } from "drizzle-orm";

/** A selected field as drizzle's prepared query lists it (orderSelectedFields). */
interface SelectedField {
  path: string[];
  field: unknown;
}

/** What a prepared select carries that its mapping depends on. */
export interface PreparedSelect {
  fields?: SelectedField[];
  customResultMapper?: unknown;
  joinsNotNullableMap?: Record<string, boolean>;
}

type Decode = (value: unknown) => unknown;
/** A member of the mapped row: its key and the index of its value in the row array. */
interface Member {
  key: string;
  at: number;
}
interface Decoder {
  mapFromDriverValue: Decode;
}

/** The decoder mapResultRow would use: the column itself, or the SQL's (or its alias's) decoder. */
function decoderOf(field: unknown): Decoder | undefined {
  if (is(field, Column)) return field as unknown as Decoder;
  // SQL's decoder is internal to drizzle (not in its types); mapResultRow reads it the same way.
  if (is(field, SQL)) return (field as unknown as { decoder: Decoder }).decoder;
  if (is(field, SQL.Aliased)) return (field.sql as unknown as { decoder: Decoder }).decoder;
  return undefined;
}

/** Column's own mapFromDriverValue returns the value unchanged: such columns are copied as they come. */
const IDENTITY: Decode = Column.prototype.mapFromDriverValue;

/**
 * The row mapper of a prepared select, or undefined where mapResultRow does more than map: a custom
 * mapper (relational queries), a field nested deeper than one object, a selection of another kind
 * (subqueries), or an object of columns from a table a join may leave null (mapResultRow then
 * nulls the whole object).
 */
export function rowMapper(q: PreparedSelect): ((row: unknown[]) => Record<string, unknown>) | undefined {
  const { fields, customResultMapper, joinsNotNullableMap } = q;
  if (!fields || customResultMapper) return undefined;
  const decoders: Decode[] = [];
  // The result's members in order: a field's value (at its index in the row) or a nested object.
  const tops: Array<Member | { key: string; columns: Member[] }> = [];
  const nested = new Map<string, Member[]>();
  for (const [at, { path, field }] of fields.entries()) {
    const decoder = decoderOf(field);
    if (!decoder || path.length > 2 || path.length === 0) return undefined;
    const decode = decoder.mapFromDriverValue;
    decoders.push(decode === IDENTITY ? IDENTITY : (v) => decode.call(decoder, v));
    if (path.length === 1) {
      tops.push({ key: path[0]!, at });
      continue;
    }
    const [object, key] = path as [string, string];
    const table: Table | undefined = is(field, Column) ? (field as Column).table : undefined;
    if (table && joinsNotNullableMap && joinsNotNullableMap[getTableName(table)] !== true) return undefined;
    let columns = nested.get(object);
    if (!columns) {
      columns = [];
      nested.set(object, columns);
      tops.push({ key: object, columns });
    }
    columns.push({ key, at });
  }
  // An object literal of fixed keys gets one shape for every row; keys are quoted with
  // JSON.stringify (they come from the schema, and a quoted key is a literal whatever it holds).
  const value = (at: number) =>
    decoders[at] === IDENTITY ? `r[${at}]` : `(r[${at}] === null ? null : d[${at}](r[${at}]))`;
  const member = (m: Member) => `${JSON.stringify(m.key)}: ${value(m.at)}`;
  const body = tops
    .map((t) =>
      "columns" in t ? `${JSON.stringify(t.key)}: {${t.columns.map(member).join(", ")}}` : member(t),
    )
    .join(", ");
  const make = new Function("d", `return (r) => ({${body}});`) as (
    d: Decode[],
  ) => (row: unknown[]) => Record<string, unknown>;
  return make(decoders);
}
