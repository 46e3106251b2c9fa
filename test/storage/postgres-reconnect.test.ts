/**
 * PostgreSQL dropping the pool's connections (a restart, a failover, a proxy's idle timeout): the
 * statements built once for the pool (storage/dialect.ts) must keep working on the connections the
 * driver opens in their place, as must a transaction's. The server ends every connection this
 * storage opened (pg_terminate_backend); once they are gone, a read, a write and a transaction
 * through the same repositories answer as before. PostgreSQL pass only.
 */
import { expect, test } from "bun:test";
import postgres from "postgres";
import { openStorage } from "../../storage/open.ts";
import { splitSchema } from "../../storage/postgres.ts";
import { TEST_POSTGRES, testDatabase } from "../helpers/database.ts";

test.skipIf(!TEST_POSTGRES)(
  "pooled and transaction statements work again after the server ends every connection",
  async () => {
    const admin = postgres(splitSchema(TEST_POSTGRES).url, { max: 1, onnotice: () => {} });
    const ours = async () =>
      (
        await admin<{ pid: number }[]>`select pid from pg_stat_activity where application_name = 'portolan'`
      ).map((r) => r.pid);
    const before = new Set(await ours());
    const storage = await openStorage(testDatabase());
    try {
      const counter = { scope: "key:k", period: "total" };
      expect(await storage.usage.bump([counter])).toEqual([1]);
      // Every connection of the pool in use at once, so each holds the pooled statements.
      await Promise.all(Array.from({ length: 20 }, () => storage.usage.calls(counter)));
      const pids = (await ours()).filter((pid) => !before.has(pid));
      expect(pids.length).toBeGreaterThan(1);
      await admin`select pg_terminate_backend(pid) from unnest(${pids}::int[]) as pid`;
      // The server's side first, then a turn of the event loop for the driver to see the sockets close.
      for (let i = 0; i < 100 && (await ours()).some((pid) => pids.includes(pid)); i++) await Bun.sleep(20);
      await Bun.sleep(50);

      expect(await storage.usage.calls(counter)).toBe(1);
      expect(await storage.usage.bump([counter])).toEqual([2]);
      await storage.transaction(async (tx) => {
        expect(await tx.usage.bump([counter])).toEqual([3]);
      });
      expect(await Promise.all(Array.from({ length: 20 }, () => storage.usage.calls(counter)))).toEqual(
        Array.from({ length: 20 }, () => 3),
      );
      // New connections, none of those ended.
      expect((await ours()).some((pid) => pids.includes(pid))).toBe(false);
    } finally {
      await storage.close();
      await admin.end();
    }
  },
);
