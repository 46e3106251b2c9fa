/** The webhook outbox: events raised in the same transaction as the state change they report. */
import type { Runner } from "./runner.ts";
import { outbox } from "./schema.ts";

export interface OutboxEvent {
  orgId: string;
  product: string;
  type: string;
  data: Record<string, unknown>;
}

export interface Outbox {
  /** Appends events that occurred at `at` (ISO), each with a fresh id. */
  append(events: readonly OutboxEvent[], at: string): Promise<void>;
}

export class SqliteOutbox implements Outbox {
  constructor(private readonly x: Runner) {}
  append(events: readonly OutboxEvent[], at: string): Promise<void> {
    return this.x.run((db) => {
      for (const e of events) {
        db.insert(outbox)
          .values({ id: crypto.randomUUID(), ...e, occurredAt: at, createdAt: at })
          .run();
      }
    });
  }
}
