/**
 * Events out: the outbox written with each state change, and its webhook endpoints, deliveries
 * and attempts. Part of the one schema (storage/schema.ts).
 */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * Webhook outbox: written in the same transaction as the state change that raised the event; the
 * dispatcher (webhooks module) fans it out in sequence order, marking what it took. id is the event
 * id receivers deduplicate on.
 */
export const outbox = sqliteTable(
  "outbox",
  {
    /** Append order (PostgreSQL: an identity column). */
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    id: text("id").notNull(),
    orgId: text("org_id").notNull(),
    product: text("product").notNull(),
    type: text("type").notNull(),
    occurredAt: text("occurred_at").notNull(),
    data: text("data", { mode: "json" }).notNull(),
    createdAt: text("created_at").notNull(),
    /** Turned into deliveries. A flag, not a cursor: on PostgreSQL sequence values commit out of order. */
    fannedOut: integer("fanned_out", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [
    uniqueIndex("outbox_id").on(t.id),
    index("outbox_org_created").on(t.orgId, t.createdAt),
    index("outbox_pending").on(t.seq).where(sql`not ${t.fannedOut}`),
  ],
);

/** Webhook endpoints, per organisation and product (docs/webhooks.md). */
export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    orgId: text("org_id").notNull(),
    product: text("product").notNull(),
    url: text("url").notNull(),
    /** [] = every event the product emits. */
    eventTypes: text("event_types", { mode: "json" }).$type<string[]>().notNull(),
    description: text("description").notNull().default(""),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    /** Why the dispatcher turned it off (gone, failing); null when paused by the caller or active. */
    disabledReason: text("disabled_reason"),
    /** Consecutive failed attempts; zero after any success. */
    failureCount: integer("failure_count").notNull().default(0),
    /** Epoch ms of the first failure of the current streak; null without a streak. */
    failingSince: integer("failing_since"),
    lastDeliveryAt: text("last_delivery_at"),
    createdAt: text("created_at").notNull(),
    /** SHA-256 hex of the whsec_ secret; the clear secret is never stored. */
    secretHash: text("secret_hash").notNull(),
    /** AES-256-GCM copy for signing: key id from PORTOLAN_WEBHOOK_KEYS, base64(iv || ciphertext). */
    secretKeyId: text("secret_key_id").notNull(),
    secretSealed: text("secret_sealed").notNull(),
    /**
     * PEM of the throwaway CA of a `portolan webhooks listen` receiver: the endpoint's only trust
     * anchor, and its URL must resolve to loopback. Null on endpoints registered over HTTP.
     */
    localCa: text("local_ca"),
  },
  (t) => [index("webhook_endpoints_org").on(t.orgId, t.product, t.createdAt)],
);

/**
 * One event (or ping) for one endpoint. body holds the exact bytes sent on every attempt, so the
 * signature and the id are stable across retries. A dispatcher owns a row while lease_until is in
 * the future; attempt_count doubles as the fencing token of that lease.
 */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    /** outbox id; null for pings. */
    eventId: text("event_id"),
    eventType: text("event_type").notNull(),
    body: text("body").notNull(),
    /** pending, delivered or dead. */
    status: text("status").notNull().default("pending"),
    attemptCount: integer("attempt_count").notNull().default(0),
    /** Epoch ms when the next attempt is due. */
    nextAttemptAt: integer("next_attempt_at").notNull().default(0),
    /** Epoch ms until which a dispatcher holds the row; 0 = free. */
    leaseUntil: integer("lease_until").notNull().default(0),
    leaseOwner: text("lease_owner"),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    createdAt: text("created_at").notNull(),
    deliveredAt: text("delivered_at"),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_event").on(t.endpointId, t.eventId),
    index("webhook_deliveries_due").on(t.status, t.nextAttemptAt),
    // Each endpoint's due head: the claim steps over full endpoints' backlogs by these (a seek per
    // endpoint with pending deliveries) instead of walking the backlogs in due order.
    index("webhook_deliveries_pending").on(t.status, t.endpointId, t.nextAttemptAt),
    index("webhook_deliveries_endpoint").on(t.endpointId, t.createdAt),
  ],
);

/** Every attempt, for operators: what the receiver answered and how long it took. */
export const webhookAttempts = sqliteTable(
  "webhook_attempts",
  {
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    startedAt: text("started_at").notNull(),
    durationMs: integer("duration_ms").notNull(),
    statusCode: integer("status_code"),
    error: text("error"),
    /** First KiB of the response body at most. */
    responseExcerpt: text("response_excerpt"),
    dispatcher: text("dispatcher").notNull(),
  },
  (t) => [primaryKey({ columns: [t.deliveryId, t.attempt] })],
);
