/**
 * `record[key]` when `key` is the record's own property, else undefined. A lookup keyed by input
 * (a host, a code, a carrier's field) must not read the prototype: `record["constructor"]` is a
 * function and `record["__proto__"]` an object, where the caller expects a value or nothing.
 */
export function own<V>(record: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
