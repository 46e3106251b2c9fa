/** Checks stored outbox rows against the event catalogue's schemas (common/events). */
import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { type EventProduct, PRODUCT_EVENTS } from "../../common/events/catalogue.ts";
import type { Storage } from "../../storage/storage.ts";

/** An outbox row as read back: the database keeps type and data, not the union that ties them. */
export interface StoredEvent {
  id: string;
  orgId: string;
  product: string;
  type: string;
  data: Record<string, unknown>;
  occurredAt: string;
}

type Row = Pick<StoredEvent, "product" | "type" | "data">;

/** The schema of a stored row's event, read as own keys only (the row's names are data). */
function schemaOf(r: Row): TSchema | undefined {
  if (!Object.hasOwn(PRODUCT_EVENTS, r.product)) return undefined;
  const events: Record<string, TSchema> = PRODUCT_EVENTS[r.product as EventProduct];
  return Object.hasOwn(events, r.type) ? events[r.type] : undefined;
}

/** Each row outside the catalogue or whose data its schema refuses, with TypeBox's first complaint. */
export function schemaProblems(rows: readonly Row[]): string[] {
  return rows.flatMap((r) => {
    const schema = schemaOf(r);
    if (!schema) return [`${r.product} ${r.type}: not in the catalogue`];
    const error = Value.Errors(schema, r.data).First();
    return error ? [`${r.product} ${r.type}: ${error.path || "/"} ${error.message}`] : [];
  });
}

/** Every row the outbox holds, for a test's closing check of what its emitters raised. */
export async function storedEvents(storage: Storage): Promise<StoredEvent[]> {
  return (await storage.db.select().from(storage.t.outbox)) as StoredEvent[];
}
