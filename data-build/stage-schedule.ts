/**
 * Runs the stages a build selected, each once the selected stages writing the outputs it reads have
 * finished, at most `jobs` at a time. With one job the stages run in registry order; after a
 * failure no further stage starts, the running ones end, and the first failure is thrown.
 */
export interface Scheduled {
  name: string;
  /** Names of the stages to finish first. */
  after: string[];
}

type Outcome = { name: string; error?: unknown; failed: boolean };

export async function schedule<T extends Scheduled>(
  items: T[],
  jobs: number,
  start: (item: T) => Promise<void>,
): Promise<void> {
  const finished = new Set<string>();
  const running = new Map<string, Promise<Outcome>>();
  const waiting = [...items];
  let failure: Outcome | undefined;
  for (;;) {
    for (let i = 0; !failure && i < waiting.length && running.size < jobs; ) {
      const item = waiting[i]!;
      if (!item.after.every((name) => finished.has(name))) {
        i++;
        continue;
      }
      waiting.splice(i, 1);
      const outcome = start(item).then(
        () => ({ name: item.name, failed: false }),
        (error: unknown) => ({ name: item.name, error, failed: true }),
      );
      running.set(item.name, outcome);
    }
    if (running.size === 0) break;
    const done = await Promise.race(running.values());
    running.delete(done.name);
    if (done.failed) failure ??= done;
    else finished.add(done.name);
  }
  if (failure) throw failure.error;
}
