/**
 * Duplicate keys surface as DuplicateKeyError from the database's own error codes (SQLite's
 * extended result codes; PostgreSQL's SQLSTATE 23505 in the PostgreSQL pass), through the real
 * schema and drizzle (which wraps the driver's error): recognised for each kind of key and for
 * nothing else, thrown by the repositories, inside a transaction as outside, and a transaction that
 * hits one keeps none of its writes.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { type SQL, sql } from "drizzle-orm";
import { DuplicateKeyError, duplicateKey } from "../../storage/errors.ts";
import { openStorage } from "../../storage/open.ts";
import type { Repositories, Storage } from "../../storage/storage.ts";
import { TEST_POSTGRES, testDatabase } from "../helpers/database.ts";

const AT = "2026-01-01T00:00:00.000Z";
const org = (id: string) => ({ id, name: id, createdAt: AT });
const key = (id: string, hash: string) => ({
  id,
  orgId: "o1",
  product: "ocean",
  hash,
  hint: "x",
  createdAt: AT,
});
const box = (id: string, identifier: string, archivedAt: string | null = null) => ({
  id,
  orgId: "o1",
  identifier,
  identifierType: "container_id",
  updatedAt: AT,
  addedAt: AT,
  archivedAt,
});
const terms = (id: string) => ({
  id,
  orgId: "o1",
  carrierCode: null,
  portUnlocode: null,
  equipment: null,
  freeDays: 5,
  dailyRateUsd: null,
  createdAt: AT,
});
const shipment = { orgId: "o1", month: "2026-01", identifier: "MSCU1234565" };

const opened: Storage[] = [];
afterEach(async () => {
  for (const storage of opened.splice(0)) await storage.close();
});

/** A fresh database of the dialect under test, holding one org, key, entitlement and record. */
async function seeded(): Promise<Storage> {
  const storage = await openStorage(testDatabase());
  opened.push(storage);
  const { db, t } = storage;
  await db.insert(t.orgs).values(org("o1"));
  await db.insert(t.apiKeys).values(key("k1", "h1"));
  await db.insert(t.entitlements).values({ orgId: "o1", product: "ocean" });
  await db.insert(t.tracked).values(box("t1", "MSCU1234565"));
  return storage;
}

async function thrown(write: () => Promise<unknown>): Promise<unknown> {
  try {
    await write();
  } catch (err) {
    return err;
  }
  return undefined;
}

/** The driver's own code on the error or its causes: SQLite's extended result code, or the SQLSTATE. */
function driverCode(err: unknown): unknown {
  for (let e = err; e instanceof Error; e = e.cause) {
    const { code } = e as { code?: unknown };
    if (code !== undefined) return code;
  }
  return undefined;
}

/** Raw SQL on either database: drizzle runs it with run() on SQLite, execute() on PostgreSQL. */
function raw(storage: Storage, query: SQL): Promise<unknown> {
  if (storage.dialect.name === "sqlite") return Promise.resolve().then(() => storage.db.run(query));
  return (storage.db as unknown as { execute(q: SQL): Promise<unknown> }).execute(query);
}

type Write = (s: Storage) => Promise<unknown>;
/** What each database reports: its code, and (duplicates) the constraint as DuplicateKeyError names it. */
type Seen = Record<Storage["dialect"]["name"], { code: string; constraint?: string }>;

describe("the driver's error codes", () => {
  const DUPLICATES: Array<[name: string, write: Write, seen: Seen]> = [
    [
      "primary key",
      async ({ db, t }) => db.insert(t.orgs).values(org("o1")),
      {
        sqlite: { code: "SQLITE_CONSTRAINT_PRIMARYKEY", constraint: "orgs.id" },
        postgres: { code: "23505", constraint: "orgs_pkey" },
      },
    ],
    [
      "unique index",
      async ({ db, t }) => db.insert(t.apiKeys).values(key("k2", "h1")),
      {
        sqlite: { code: "SQLITE_CONSTRAINT_UNIQUE", constraint: "api_keys.hash" },
        postgres: { code: "23505", constraint: "api_keys_hash" },
      },
    ],
    [
      "composite primary key",
      async ({ db, t }) => db.insert(t.entitlements).values({ orgId: "o1", product: "ocean" }),
      {
        sqlite: {
          code: "SQLITE_CONSTRAINT_PRIMARYKEY",
          constraint: "entitlements.org_id, entitlements.product",
        },
        postgres: { code: "23505", constraint: "entitlements_org_id_product_pk" },
      },
    ],
    [
      "partial unique index (one active record per identifier)",
      async ({ db, t }) => db.insert(t.tracked).values(box("t2", "MSCU1234565")),
      {
        sqlite: {
          code: "SQLITE_CONSTRAINT_UNIQUE",
          constraint: "tracked.org_id, tracked.identifier_type, tracked.identifier",
        },
        postgres: { code: "23505", constraint: "tracked_active_identifier" },
      },
    ],
  ];

  const OTHERS: Array<[name: string, write: Write, seen: Seen]> = [
    [
      "foreign key",
      async ({ db, t }) => db.insert(t.apiKeys).values({ ...key("k3", "h3"), orgId: "nobody" }),
      { sqlite: { code: "SQLITE_CONSTRAINT_FOREIGNKEY" }, postgres: { code: "23503" } },
    ],
    [
      "not null",
      // A NULL into a NOT NULL column, which the types forbid.
      async ({ db, t }) =>
        db.insert(t.orgs).values({ id: "o9", name: null as unknown as string, createdAt: AT }),
      { sqlite: { code: "SQLITE_CONSTRAINT_NOTNULL" }, postgres: { code: "23502" } },
    ],
    [
      "syntax",
      (s) => raw(s, sql`INSERT INTO nowhere VALUES (1)`),
      { sqlite: { code: "SQLITE_ERROR" }, postgres: { code: "42P01" } },
    ],
  ];

  test.each(DUPLICATES)("%s: a duplicate key", async (_name, write, seen) => {
    const storage = await seeded();
    const err = await thrown(() => write(storage));
    const expected = seen[storage.dialect.name];
    expect(driverCode(err)).toBe(expected.code);
    const typed = duplicateKey(err);
    expect(typed).toBeInstanceOf(DuplicateKeyError);
    expect(typed!.constraint).toBe(expected.constraint!);
  });

  test.each(OTHERS)("%s: not a duplicate key", async (_name, write, seen) => {
    const storage = await seeded();
    const err = await thrown(() => write(storage));
    expect(err).toBeInstanceOf(Error);
    expect(driverCode(err)).toBe(seen[storage.dialect.name].code);
    expect(duplicateKey(err)).toBeUndefined();
  });

  test("an archived record frees its identifier: no duplicate", async () => {
    const { db, t } = await seeded();
    await db.insert(t.tracked).values(box("t3", "TGHU1234560", AT));
    expect(await thrown(async () => db.insert(t.tracked).values(box("t4", "TGHU1234560")))).toBeUndefined();
  });
});

describe("repositories", () => {
  /** Each write is seeded once by `first`, then repeated. */
  const WRITES: Array<[name: string, first: (r: Repositories) => Promise<unknown>]> = [
    ["trackings.insert (same active identifier)", (r) => r.trackings.insert(box("t2", "TGHU1234560"))],
    ["events.insert", (r) => r.events.insert("t1", "e1", { eventID: "e1" }, AT)],
    ["terms.add", (r) => r.terms.add(terms("f1"))],
    ["quotas.recordShipment", (r) => r.quotas.recordShipment(shipment, 0)],
  ];

  test.each(WRITES)("%s: DuplicateKeyError outside a transaction", async (_name, write) => {
    const storage = await seeded();
    await write(storage);
    await expect(write(storage)).rejects.toBeInstanceOf(DuplicateKeyError);
  });

  test.each(WRITES)("%s: DuplicateKeyError from a transaction, which keeps nothing", async (_name, write) => {
    const storage = await seeded();
    await write(storage);
    const attempt = storage.transaction(async (tx) => {
      await tx.terms.add(terms("kept-if-committed"));
      await write(tx);
    });
    await expect(attempt).rejects.toBeInstanceOf(DuplicateKeyError);
    expect((await storage.terms.forOrg("o1")).map((t) => t.id)).not.toContain("kept-if-committed");
  });

  // SQLite: one connection, so a statement issued meanwhile is queued behind the transaction.
  test.skipIf(TEST_POSTGRES !== "")(
    "a transaction that resolves commits; the outer repositories wait for it",
    async () => {
      const storage = await seeded();
      let inside = false;
      const tx = storage.transaction(async (r) => {
        inside = true;
        await r.terms.add(terms("f2"));
        await r.terms.add(terms("f3"));
        inside = false;
      });
      // Issued while the transaction is open: answered only after it committed, never in between.
      const read = storage.terms.forOrg("o1").then((rows) => ({ rows, inside }));
      await tx;
      const seen = await read;
      expect(seen.inside).toBe(false);
      expect(seen.rows.map((t) => t.id).sort()).toEqual(["f2", "f3"]);
    },
  );

  // PostgreSQL: a pool, so a statement issued meanwhile runs at once, on another connection.
  test.skipIf(TEST_POSTGRES === "")(
    "a transaction that resolves commits; until then the outer repositories see none of its writes",
    async () => {
      const storage = await seeded();
      let wrote!: () => void;
      const written = new Promise<void>((resolve) => {
        wrote = resolve;
      });
      let commit!: () => void;
      const committing = new Promise<void>((resolve) => {
        commit = resolve;
      });
      const tx = storage.transaction(async (r) => {
        await r.terms.add(terms("f2"));
        await r.terms.add(terms("f3"));
        wrote();
        await committing;
      });
      await written;
      expect(await storage.terms.forOrg("o1")).toEqual([]);
      commit();
      await tx;
      expect((await storage.terms.forOrg("o1")).map((t) => t.id).sort()).toEqual(["f2", "f3"]);
    },
  );
});

describe("misuse inside a transaction fails loudly instead of waiting forever", () => {
  const MISUSES: Array<[name: string, misuse: (storage: Storage) => Promise<unknown>]> = [
    ["an outer repository", (storage) => storage.terms.forOrg("o1")],
    ["a nested transaction", (storage) => storage.transaction(async (tx) => tx.terms.forOrg("o1"))],
  ];

  test.each(MISUSES)("%s", async (_name, misuse) => {
    const storage = await seeded();
    const attempt = storage.transaction(async (tx) => {
      await tx.terms.add(terms("f4"));
      await misuse(storage);
    });
    await expect(attempt).rejects.toThrow(/use the repositories it hands over/);
    // Rolled back, and the storage serves again.
    expect(await storage.terms.forOrg("o1")).toEqual([]);
  });
});
