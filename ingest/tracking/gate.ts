/** Counting semaphore: at most n calls at once; the rest wait their turn. */
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

/** One Gate per key (a carrier's SCAC, an airline's IATA code), each letting n calls through. */
export class Gates {
  private readonly gates = new Map<string, Gate>();
  constructor(private readonly n: number) {}
  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    let gate = this.gates.get(key);
    if (!gate) {
      gate = new Gate(this.n);
      this.gates.set(key, gate);
    }
    return gate.run(fn);
  }
}
