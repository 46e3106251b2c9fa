/**
 * JSON sections of an artifact, and row tables for lists of flat records (railheads, river ports,
 * sea gateways): the field names once, then one array per record. The reader checks the field
 * list, so a table written by another version of the code is refused instead of misread.
 */
import { type Artifact, ArtifactError } from "./container.ts";

export interface RowTable {
  fields: string[];
  rows: unknown[][];
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** An artifact section holding `value` as JSON. */
export const jsonSection = (name: string, value: unknown) => ({
  name,
  bytes: encoder.encode(JSON.stringify(value)),
});

/** The JSON value of an artifact section. */
export function readJson<T>(art: Artifact, name: string, path = "artifact"): T {
  const bytes = art.sections.get(name);
  if (!bytes) throw new ArtifactError(`${path}: section ${name} missing; rebuild the artifacts`);
  return JSON.parse(decoder.decode(bytes)) as T;
}

/** Records as a row table over `fields` (property names, in order). */
export function toRows<T extends object>(
  fields: ReadonlyArray<keyof T & string>,
  items: readonly T[],
): RowTable {
  return { fields: [...fields], rows: items.map((item) => fields.map((f) => item[f])) };
}

/** The records of a row table written with the same `fields`. */
export function fromRows<T extends object>(
  table: RowTable,
  fields: ReadonlyArray<keyof T & string>,
  where: string,
): T[] {
  if (table.fields.join(",") !== fields.join(","))
    throw new ArtifactError(
      `${where}: fields [${table.fields.join(", ")}] are not [${fields.join(", ")}]; rebuild the artifacts`,
    );
  return table.rows.map((row) => Object.fromEntries(fields.map((f, i) => [f, row[i]])) as T);
}
