/** The webhook outbox: events raised in the same transaction as the state change they report. */
import type { OutboxEvent } from "../common/events/catalogue.ts";
import type { Runner } from "./runner.ts";

export interface Outbox {
  /** Appends events that occurred at `at` (ISO), each with a fresh id. */
  append(events: readonly OutboxEvent[], at: string): Promise<void>;
}

export class SqlOutbox implements Outbox {
  constructor(private readonly x: Runner) {}
  append(events: readonly OutboxEvent[], at: string): Promise<void> {
    const { outbox } = this.x.t;
    if (events.length === 0) return Promise.resolve();
    // One multi-row insert: all the events or none. seq is the database's (append order).
    return this.x.run(async (db) => {
      await db
        .insert(outbox)
        .values(events.map((e) => ({ id: crypto.randomUUID(), ...e, occurredAt: at, createdAt: at })));
    });
  }
}
