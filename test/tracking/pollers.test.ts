/** Two pollers (two engines over one SQLite file, as two processes would be) never take the same record. */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { withCheckDigit } from "../../ingest/iso6346.ts";
import { ManualClock, makePlatform } from "../helpers/platform.ts";

const asked = new Map<string, number>();
const carrier = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(req) {
    const ref = new URL(req.url).searchParams.get("equipmentReference") ?? "";
    asked.set(ref, (asked.get(ref) ?? 0) + 1);
    await Bun.sleep(5); // a carrier takes a moment: the pollers really overlap
    return Response.json([]);
  },
});
const dir = mkdtempSync(join(tmpdir(), "portolan-pollers-"));
afterAll(() => {
  carrier.stop(true);
  rmSync(dir, { recursive: true, force: true });
});

test("each due record is refreshed by exactly one of two pollers per round", async () => {
  const clock = new ManualClock();
  const config = {
    database: join(dir, "db.sqlite"),
    carriers: [{ scac: "HLCU", baseUrl: `http://127.0.0.1:${carrier.port}/HLCU` }],
  };
  const a = await makePlatform(config, clock.now);
  const b = await makePlatform(config, clock.now);
  const org = await a.accounts.createOrg("pollers", { paid: true });
  const refs = Array.from({ length: 30 }, (_, i) => withCheckDigit(`HLCU${String(500_000 + i)}`));
  for (const identifier of refs)
    await a.tracking.ocean.add(org, { identifier, identifierType: "container_id" });
  expect([...asked.values()].every((n) => n === 1)).toBe(true);

  for (const round of [2, 3]) {
    clock.advance(13 * 3_600_000); // past the pre-departure cadence: everything is due
    const [na, nb] = await Promise.all([a.tracking.ocean.pollDue(), b.tracking.ocean.pollDue()]);
    expect(na + nb).toBe(refs.length);
    for (const r of refs) expect([r, asked.get(r)]).toEqual([r, round]);
  }
  await a.close();
  await b.close();
});
