/**
 * storage/row-mapper.ts against drizzle's own mapping: for random rows (every column kind the
 * schemas use and a few they do not, nulls included) and the shapes of select the repositories
 * write (whole table, a table nested beside an SQL column, an inner join, picked columns with
 * mapWith), the compiled mapper gives what drizzle's all() gives, values and key order alike.
 * Selections it must not map (a left join, which may null a whole object) fall back to drizzle,
 * and the SQLite dialect's statements answer as drizzle's prepared queries do.
 */
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { blob, integer, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import fc from "fast-check";
import { sqliteDialect } from "../../storage/dialect.ts";
import { type PreparedSelect, rowMapper } from "../../storage/row-mapper.ts";

const boxes = sqliteTable("boxes", {
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
  note: text("note"),
  tags: text("tags", { mode: "json" }).$type<string[]>(),
  meta: text("meta", { mode: "json" }).$type<Record<string, unknown>>(),
  live: integer("live", { mode: "boolean" }),
  seenAt: integer("seen_at", { mode: "timestamp" }),
  seenAtMs: integer("seen_at_ms", { mode: "timestamp_ms" }),
  weight: real("weight"),
  raw: blob("raw", { mode: "json" }),
  ownerId: integer("owner_id"),
});
const owners = sqliteTable("owners", {
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
  paid: integer("paid", { mode: "boolean" }).notNull(),
});

function open() {
  const client = new Database(":memory:");
  client.exec(`CREATE TABLE boxes (id INTEGER PRIMARY KEY, name TEXT NOT NULL, note TEXT, tags TEXT, meta TEXT,
    live INTEGER, seen_at INTEGER, seen_at_ms INTEGER, weight REAL, raw BLOB, owner_id INTEGER);
    CREATE TABLE owners (id INTEGER PRIMARY KEY, name TEXT NOT NULL, paid INTEGER NOT NULL);`);
  return { client, db: drizzle(client) };
}

const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null });
const plain = <T>(v: T): T => JSON.parse(JSON.stringify(v));
const jsonValue = fc.jsonValue().map(plain);
const boxRow = fc.record({
  name: fc.string(),
  note: maybe(fc.string()),
  tags: maybe(fc.array(fc.string(), { maxLength: 4 })),
  // Through JSON: fast-check's dictionaries have no prototype, which drizzle's insert cannot take.
  meta: maybe(fc.dictionary(fc.string({ maxLength: 6 }), jsonValue, { maxKeys: 4 }).map(plain)),
  live: maybe(fc.boolean()),
  seenAt: maybe(fc.integer({ min: 0, max: 4e9 }).map((s) => new Date(s * 1000))),
  seenAtMs: maybe(fc.integer({ min: 0, max: 4e12 }).map((ms) => new Date(ms))),
  weight: maybe(fc.double({ noNaN: true, noDefaultInfinity: true })),
  raw: maybe(jsonValue.filter((v) => v !== null)),
  ownerId: maybe(fc.integer({ min: 1, max: 3 })),
});

type Db = ReturnType<typeof open>["db"];
/** The selects compared: each as a builder drizzle prepares. */
const selects: Array<[string, (db: Db) => { prepare(): unknown }]> = [
  ["whole table", (db) => db.select().from(boxes)],
  [
    "table nested beside SQL",
    (db) => db.select({ box: boxes, size: sql<number>`length(${boxes.name})` }).from(boxes),
  ],
  [
    "inner join, two nested tables",
    (db) =>
      db.select({ box: boxes, owner: owners }).from(boxes).innerJoin(owners, eq(owners.id, boxes.ownerId)),
  ],
  [
    "picked columns, mapWith, aliased SQL",
    (db) =>
      db
        .select({
          id: boxes.id,
          tags: boxes.tags,
          live: boxes.live,
          count: sql`(select count(*) from owners)`.mapWith(Number),
          upper: sql<string>`upper(${boxes.name})`.as("upper"),
        })
        .from(boxes),
  ],
];

type Prepared = PreparedSelect & { values(): unknown[][]; all(): unknown[] };

test.each(selects)("%s: the compiled mapper gives drizzle's rows", (_name, build) => {
  fc.assert(
    fc.property(fc.array(boxRow, { maxLength: 6 }), (rows) => {
      const { client, db } = open();
      db.insert(owners)
        .values([
          { id: 1, name: "one", paid: true },
          { id: 2, name: "two", paid: false },
        ])
        .run();
      if (rows.length > 0) db.insert(boxes).values(rows).run();
      const prepared = build(db).prepare() as Prepared;
      const map = rowMapper(prepared);
      expect(map).toBeDefined();
      const ours = prepared.values().map(map!);
      const theirs = prepared.all();
      expect(ours).toEqual(theirs as Record<string, unknown>[]);
      // Same keys in the same order, nested objects too (JSON text keeps the order).
      expect(JSON.stringify(ours, (_k, v) => (v instanceof Date ? v.getTime() : v))).toBe(
        JSON.stringify(theirs, (_k, v) => (v instanceof Date ? v.getTime() : v)),
      );
      client.close();
    }),
    { numRuns: 60 },
  );
});

test("a left join is left to drizzle, which nulls the missing side; the dialect's statement does too", () => {
  const { client, db } = open();
  db.insert(owners).values({ id: 1, name: "one", paid: true }).run();
  db.insert(boxes)
    .values([
      { id: 1, name: "owned", ownerId: 1 },
      { id: 2, name: "orphan", ownerId: null },
    ])
    .run();
  const query = (d: Db) =>
    d
      .select({ box: boxes, owner: owners })
      .from(boxes)
      .leftJoin(owners, eq(owners.id, boxes.ownerId))
      .orderBy(boxes.id);
  expect(rowMapper(query(db).prepare() as unknown as Prepared)).toBeUndefined();
  return (async () => {
    // biome-ignore lint/suspicious/noExplicitAny: the dialect takes the storage's Db type; this is the same drizzle class.
    const statement = sqliteDialect.statement("left", db as any, query as any);
    // biome-ignore lint/suspicious/noExplicitAny: as above.
    const rows = (await statement.execute(db as any, {})) as Array<{ owner: unknown }>;
    expect(rows.map((r) => r.owner)).toEqual([{ id: 1, name: "one", paid: true }, null]);
    client.close();
  })();
});

test("the dialect's statements answer as drizzle's prepared queries, placeholders bound", async () => {
  const { client, db } = open();
  db.insert(boxes)
    .values([
      { id: 1, name: "a", tags: ["x"], live: true },
      { id: 2, name: "b", tags: null, live: false },
    ])
    .run();
  const build = (d: Db) =>
    d
      .select()
      .from(boxes)
      .where(eq(boxes.name, sql.placeholder("name")));
  // biome-ignore lint/suspicious/noExplicitAny: the dialect takes the storage's Db type; this is the same drizzle class.
  const statement = sqliteDialect.statement("by_name", db as any, build as any);
  for (const name of ["a", "b", "none"]) {
    // biome-ignore lint/suspicious/noExplicitAny: as above.
    expect(await statement.execute(db as any, { name })).toEqual(build(db).prepare().all({ name }));
  }
  expect(
    ((await statement.execute(db as never, { name: "a" })) as Array<{ tags: unknown }>)[0]!.tags,
  ).toEqual(["x"]);
  client.close();
});
