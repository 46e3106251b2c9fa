/** Counting semaphore: at most n carrier calls per SCAC at once; the rest wait their turn. */
export class Gate {
  private active = 0;
  private readonly queue: Array<() => void> = [];
  constructor(private readonly n: number) {}
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.n) await new Promise<void>((r) => this.queue.push(r));
    this.active++;
    try {
      return await fn();
    } finally {
      this.active--;
      this.queue.shift()?.();
    }
  }
}
