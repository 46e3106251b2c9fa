/**
 * The database a test platform runs on: in-memory SQLite, or, when the test command started a
 * PostgreSQL server (PORTOLAN_TEST_DB=postgres://...), a schema of its own in it, so tests stay
 * independent on the shared server exactly as they are with a fresh :memory: database.
 */
export const TEST_POSTGRES = process.env.PORTOLAN_TEST_DB ?? "";

export function testDatabase(): string {
  return TEST_POSTGRES ? freshSchema(TEST_POSTGRES) : ":memory:";
}

/** The URL of a new, uniquely named schema on the PostgreSQL server `server` (a postgres:// URL). */
export function freshSchema(server: string): string {
  const u = new URL(server);
  u.searchParams.set("schema", `t_${crypto.randomUUID().replaceAll("-", "")}`);
  return u.toString();
}

/**
 * A database that other processes (the CLI, a dispatcher, an API process) open too, by the URL or
 * path this returns: the SQLite file `path`, or in the PostgreSQL pass a fresh schema like above.
 */
export function sharedTestDatabase(path: string): string {
  return TEST_POSTGRES ? testDatabase() : path;
}
