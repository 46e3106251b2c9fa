/**
 * SQLite burst: 64 clients add new containers (POST /v1/containers, first carrier fetch included)
 * as fast as answers come, for 30 s, against two real API processes sharing one SQLite file, with
 * the sandbox carrier beside them. Baseline, same run, same load: one API process on its own file.
 * Prints adds/s and latency, the answers by status, and the ledger read back from the file: every
 * add must be answered 201, and charged = created = acknowledged (exit code 1 otherwise).
 *
 *   bun bench/sqlite-burst.ts [seconds=30] [concurrency=64]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type BurstResult,
  burst,
  containerNumbers,
  type Ledger,
  ledger,
  payingTenant,
  sandboxCarriers,
  startApi,
} from "../test/hardening/sqlite-cluster.ts";
import { startSandbox } from "../test/sandbox/spawn.ts";

const seconds = Number(process.argv[2] ?? 30);
const concurrency = Number(process.argv[3] ?? 64);

interface Run {
  warm: BurstResult;
  measured: BurstResult;
  written: Ledger;
}

async function run(processes: number, dir: string, sandboxUrl: string): Promise<Run> {
  const database = join(dir, `burst-${processes}.sqlite`);
  const { orgId, key } = await payingTenant(database);
  const apis = await Promise.all(
    Array.from({ length: processes }, () => startApi(database, sandboxCarriers(sandboxUrl))),
  );
  try {
    // Warm each process (first requests compile routes), then measure.
    const warm = await burst(
      apis.map((a) => a.url),
      key,
      { concurrency: 8, seconds: 1, next: containerNumbers(900_000) },
    );
    const measured = await burst(
      apis.map((a) => a.url),
      key,
      { concurrency, seconds, next: containerNumbers() },
    );
    return { warm, measured, written: ledger(database, orgId) };
  } finally {
    await Promise.all(apis.map((a) => a.stop()));
  }
}

const dir = mkdtempSync(join(tmpdir(), "portolan-bench-sqlite-"));
const sandbox = await startSandbox();
let failed = false;
try {
  const one = await run(1, dir, sandbox.url);
  const two = await run(2, dir, sandbox.url);
  const line = (name: string, { warm, measured: r, written: l }: Run) => {
    const rps = r.acknowledged.length / r.seconds;
    // The ledger holds the warm-up's adds too: they must agree as well.
    const acknowledged = warm.acknowledged.length + r.acknowledged.length;
    const errors = (warm.statuses[500] ?? 0) + (r.statuses[500] ?? 0);
    const statuses = Object.entries(r.statuses)
      .map(([s, n]) => `${s}: ${n}`)
      .join(", ");
    console.log(
      `${name.padEnd(30)} ${rps.toFixed(0).padStart(6)} adds/s  p50 ${r.p50Ms.toFixed(1)} ms  p99 ${r.p99Ms.toFixed(1)} ms  (${statuses})`,
    );
    console.log(
      `${"".padEnd(30)} with warm-up: 500s ${errors}  acknowledged ${acknowledged}  created ${l.created.length}  charged ${l.charged}  still adding ${l.adding}`,
    );
    const consistent =
      errors === 0 && acknowledged === l.created.length && l.created.length === l.charged && l.adding === 0;
    if (!consistent) {
      failed = true;
      console.log(`${"".padEnd(30)} INCONSISTENT: ${[...warm.samples, ...r.samples].join(" | ")}`);
    }
    return rps;
  };
  console.log(
    `${concurrency} clients adding new containers for ${seconds} s (plus a 1 s warm-up of 8 clients)`,
  );
  const base = line("1 API process (baseline)", one);
  const pair = line("2 API processes, one file", two);
  console.log(`${"ratio".padEnd(30)} ${(pair / base).toFixed(2)} of the one-process adds/s`);
} finally {
  await sandbox.stop();
  rmSync(dir, { recursive: true, force: true });
}
if (failed) process.exitCode = 1;
