/**
 * Two API processes on one SQLite file under a burst of concurrent adds. Every add
 * must be answered 201 (writers wait for each other instead of failing), and the answers must agree
 * with the file: every acknowledged record exists, every record written was acknowledged, and each
 * was charged exactly once. The full 30 s figures are in bench/sqlite-burst.ts.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSandbox } from "../sandbox/spawn.ts";
import {
  burst,
  containerNumbers,
  ledger,
  payingTenant,
  sandboxCarriers,
  startApi,
} from "./sqlite-cluster.ts";

const dir = mkdtempSync(join(tmpdir(), "portolan-sqlite-burst-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("2 API processes, 64 concurrent adds: no 500s; charged = created = acknowledged", async () => {
  const sandbox = await startSandbox();
  const database = join(dir, "burst.sqlite");
  const { orgId, key } = await payingTenant(database);
  // Pollers tick often, so their writes compete with the adds as they would over a day.
  const env = { PORTOLAN_POLL_INTERVAL_MS: "250" };
  const apis = await Promise.all([
    startApi(database, sandboxCarriers(sandbox.url), env),
    startApi(database, sandboxCarriers(sandbox.url), env),
  ]);
  let result: Awaited<ReturnType<typeof burst>>;
  try {
    result = await burst(
      apis.map((a) => a.url),
      key,
      { concurrency: 64, seconds: 12, next: containerNumbers() },
    );
  } finally {
    await Promise.all(apis.map((a) => a.stop()));
    await sandbox.stop();
  }
  const written = ledger(database, orgId);
  const acknowledged = result.acknowledged.length;
  expect(acknowledged).toBeGreaterThan(64);
  // Each add carried a new container number: anything but 201 is a failure of the add itself.
  expect({ statuses: result.statuses, samples: result.samples }).toEqual({
    statuses: { 201: acknowledged },
    samples: [],
  });
  expect(new Set(written.created)).toEqual(new Set(result.acknowledged));
  expect(written.charged).toBe(acknowledged);
  expect(written.chargedUsd).toBeCloseTo(acknowledged * 0.25, 6);
  expect(written.adding).toBe(0);
}, 90_000);
