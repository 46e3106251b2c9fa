/**
 * A carrier's (or an airline's) snapshot against the events stored by id: a refresh's first step.
 * Pure: the refresh's transaction reads the stored events and writes what this returns. Ocean
 * records and air waybills share it.
 */

/** One event to write: new (`was` undefined) or a correction of the stored `was`. */
export interface EventWrite<E> {
  event: E;
  was?: E;
}

/**
 * The writes that bring the store to the snapshot (new events and corrections of changed ones, in
 * the snapshot's order; an event repeated unchanged writes nothing) and the events after them: the
 * stored order, corrections in place, new events last.
 */
export function diffSnapshot<E>(
  stored: ReadonlyMap<string, E>,
  snapshot: readonly E[],
  idOf: (e: E) => string,
): { writes: EventWrite<E>[]; after: Map<string, E> } {
  const after = new Map(stored);
  const writes: EventWrite<E>[] = [];
  for (const event of snapshot) {
    const id = idOf(event);
    const was = after.get(id);
    if (was !== undefined && JSON.stringify(was) === JSON.stringify(event)) continue;
    writes.push(was === undefined ? { event } : { event, was });
    after.set(id, event);
  }
  return { writes, after };
}
