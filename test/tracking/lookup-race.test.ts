/**
 * A lookup racing another add of the same reference: the lookup finds no record, and by the time
 * it registers one another request's add has committed. Its insert meets the unique key, and the
 * record it finds then is tracked and settled: 409 ALREADY_TRACKED naming it (the spec's error
 * table), nothing registered twice. Made certain with PostgreSQL: the other add is a transaction
 * held open until the lookup's insert waits on its row. PostgreSQL pass only (SQLite runs one
 * statement at a time, so the two cannot interleave).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import postgres from "postgres";
import { splitSchema } from "../../storage/postgres.ts";
import { TEST_POSTGRES } from "../helpers/database.ts";
import { bearer, makePlatform, type TestPlatform } from "../helpers/platform.ts";

const REFERENCE = "MAEU2569159";
let p: TestPlatform | undefined;
let tenant: Awaited<ReturnType<TestPlatform["tenant"]>>;

beforeAll(async () => {
  if (!TEST_POSTGRES) return;
  p = await makePlatform();
  tenant = await p.tenant({ paid: true });
});
afterAll(() => p?.close());

/** Resolves once an insert of a tracked row waits on a lock: the lookup's, behind the held row. */
async function someoneWaits(): Promise<void> {
  const admin = postgres(splitSchema(TEST_POSTGRES).url, { max: 1, onnotice: () => {} });
  try {
    for (;;) {
      const rows = await admin`
        select 1 from pg_stat_activity
        where application_name = 'portolan' and wait_event_type = 'Lock' and query like 'insert into "tracked"%'`;
      if (rows.length > 0) return;
      await Bun.sleep(10);
    }
  } finally {
    await admin.end();
  }
}

test.skipIf(!TEST_POSTGRES)(
  "a lookup whose registration meets an add committed meanwhile answers 409 ALREADY_TRACKED",
  async () => {
    const platform = p!;
    const id = crypto.randomUUID();
    const now = new Date().toISOString();
    let inserted!: () => void;
    const rowWritten = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const otherAdd = platform.storage.transaction(async (r) => {
      await r.trackings.insert({
        id,
        orgId: tenant.orgId,
        identifier: REFERENCE,
        identifierType: "container_id",
        updatedAt: now,
        addedAt: now,
      });
      inserted();
      await released;
    });
    await rowWritten;
    const lookup = platform.call("ocean", `/v1/containers/lookup/${REFERENCE}`, bearer(tenant.keys.ocean));
    await someoneWaits();
    release();
    await otherAdd;
    const res = await lookup;
    const body = (await res.json()) as { error: { code: string; id?: string } };
    expect([res.status, body.error.code]).toEqual([409, "ALREADY_TRACKED"]);
    expect(body.error.id).toBe(id);
    // The record the other add committed is the only one, and a lookup now answers it.
    const again = await platform.call(
      "ocean",
      `/v1/containers/lookup/${REFERENCE}`,
      bearer(tenant.keys.ocean),
    );
    expect(again.status).toBe(200);
    expect(((await again.json()) as { data: { id: string } }).data.id).toBe(id);
  },
  60_000,
);
