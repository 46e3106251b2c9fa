/**
 * Duplicate keys surface as DuplicateKeyError from SQLite's own error codes, through the real schema
 * and drizzle (which wraps the driver's error): recognised for each kind of key and for nothing
 * else, thrown by the repositories, inside a transaction as outside, and a transaction that hits one
 * keeps none of its writes.
 */
import { describe, expect, test } from "bun:test";
import { DuplicateKeyError, duplicateKey } from "../../storage/errors.ts";
import { apiKeys, entitlements, orgs, tracked } from "../../storage/schema.ts";
import { type Db, openDatabase } from "../../storage/sqlite.ts";
import { type Repositories, sqliteStorage } from "../../storage/storage.ts";

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

function seeded(): Db {
  const { db } = openDatabase(":memory:");
  db.insert(orgs).values(org("o1")).run();
  db.insert(apiKeys).values(key("k1", "h1")).run();
  db.insert(entitlements).values({ orgId: "o1", product: "ocean" }).run();
  db.insert(tracked).values(box("t1", "MSCU1234565")).run();
  return db;
}

function thrown(write: () => unknown): unknown {
  try {
    write();
  } catch (err) {
    return err;
  }
  return undefined;
}

describe("the driver's error codes", () => {
  const DUPLICATES: Array<[name: string, write: (db: Db) => unknown, constraint: string]> = [
    ["primary key", (db) => db.insert(orgs).values(org("o1")).run(), "orgs.id"],
    ["unique index", (db) => db.insert(apiKeys).values(key("k2", "h1")).run(), "api_keys.hash"],
    [
      "composite primary key",
      (db) => db.insert(entitlements).values({ orgId: "o1", product: "ocean" }).run(),
      "entitlements.org_id, entitlements.product",
    ],
    [
      "partial unique index (one active record per identifier)",
      (db) => db.insert(tracked).values(box("t2", "MSCU1234565")).run(),
      "tracked.org_id, tracked.identifier_type, tracked.identifier",
    ],
  ];

  const OTHERS: Array<[name: string, write: (db: Db) => unknown]> = [
    [
      "foreign key",
      (db) =>
        db
          .insert(apiKeys)
          .values({ ...key("k3", "h3"), orgId: "nobody" })
          .run(),
    ],
    [
      "not null",
      // A NULL into a NOT NULL column, which the types forbid.
      (db) =>
        db
          .insert(orgs)
          .values({ id: "o9", name: null as unknown as string, createdAt: AT })
          .run(),
    ],
    ["syntax", (db) => db.run("INSERT INTO nowhere VALUES (1)" as never)],
  ];

  test.each(DUPLICATES)("%s: a duplicate key", (_name, write, constraint) => {
    const typed = duplicateKey(thrown(() => write(seeded())));
    expect(typed).toBeInstanceOf(DuplicateKeyError);
    expect(typed!.constraint).toBe(constraint);
  });

  test.each(OTHERS)("%s: not a duplicate key", (_name, write) => {
    const err = thrown(() => write(seeded()));
    expect(err).toBeInstanceOf(Error);
    expect(duplicateKey(err)).toBeUndefined();
  });

  test("an archived record frees its identifier: no duplicate", () => {
    const db = seeded();
    db.insert(tracked)
      .values(box("t3", "TGHU1234560", AT))
      .run();
    expect(thrown(() => db.insert(tracked).values(box("t4", "TGHU1234560")).run())).toBeUndefined();
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
    const storage = sqliteStorage(seeded());
    await write(storage);
    await expect(write(storage)).rejects.toBeInstanceOf(DuplicateKeyError);
  });

  test.each(WRITES)("%s: DuplicateKeyError from a transaction, which keeps nothing", async (_name, write) => {
    const storage = sqliteStorage(seeded());
    await write(storage);
    const attempt = storage.transaction(async (tx) => {
      await tx.terms.add(terms("kept-if-committed"));
      await write(tx);
    });
    await expect(attempt).rejects.toBeInstanceOf(DuplicateKeyError);
    expect((await storage.terms.forOrg("o1")).map((t) => t.id)).not.toContain("kept-if-committed");
  });

  test("a transaction that resolves commits; the outer repositories wait for it", async () => {
    const storage = sqliteStorage(seeded());
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
  });
});

describe("misuse inside a transaction fails loudly instead of waiting forever", () => {
  const MISUSES: Array<
    [name: string, misuse: (storage: ReturnType<typeof sqliteStorage>) => Promise<unknown>]
  > = [
    ["an outer repository", (storage) => storage.terms.forOrg("o1")],
    ["a nested transaction", (storage) => storage.transaction(async (tx) => tx.terms.forOrg("o1"))],
  ];

  test.each(MISUSES)("%s", async (_name, misuse) => {
    const storage = sqliteStorage(seeded());
    const attempt = storage.transaction(async (tx) => {
      await tx.terms.add(terms("f4"));
      await misuse(storage);
    });
    await expect(attempt).rejects.toThrow(/use the repositories it hands over/);
    // Rolled back, and the storage serves again.
    expect(await storage.terms.forOrg("o1")).toEqual([]);
  });
});
