/**
 * Several real API processes (api/main.ts) on one SQLite file, the sandbox carrier beside them, and a
 * closed-loop burst of POST /v1/containers: what test/hardening/sqlite-burst.test.ts asserts on and
 * bench/sqlite-burst.ts prints. Counts come from the database the processes wrote.
 */
import type { Subprocess } from "bun";
import { and, count, eq, isNull, sum } from "drizzle-orm";
import { PRODUCTS, type ProductId } from "../../api/shared/products.ts";
import { withCheckDigit } from "../../ingest/iso6346.ts";
import { SANDBOX_SCACS } from "../../ingest/sandbox/world.ts";
import { shipmentUsage, tracked } from "../../storage/schema.ts";
import { openDatabase } from "../../storage/sqlite.ts";
import { sqliteStorage } from "../../storage/storage.ts";
import { recordingFetch, testAccounts } from "../helpers/issued-secrets.ts";
import { freePort } from "../helpers/redis-server.ts";

const ROOT = new URL("../..", import.meta.url).pathname;

export interface ApiProcess {
  /** Base URL of the ocean product. */
  url: string;
  /** Base URL of each product. */
  urls: Record<ProductId, string>;
  proc: Subprocess;
  /** The last lines the process wrote to stderr, when started with stderr "tail" (else empty). */
  log: string[];
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Lines of stderr an ApiProcess keeps. */
const LOG_LINES = 40;

/** Reads `stream` as it comes (so the pipe never fills), keeping its last LOG_LINES lines in `lines`. */
async function keepTail(stream: ReadableStream<Uint8Array>, lines: string[]): Promise<void> {
  const decoder = new TextDecoder();
  for await (const chunk of stream) {
    lines.push(...decoder.decode(chunk, { stream: true }).split("\n"));
    lines.splice(0, Math.max(0, lines.length - LOG_LINES));
  }
}

/**
 * api/main.ts as a user starts it, on free ports, with the given carriers instead of its own
 * sandbox. Its stderr goes to the test's, or with "tail" its last lines to `log` (a process that
 * logs every refused request meanwhile, or whose exit the test reports). A free port is free when
 * asked, not when the process binds it: a start whose process exits before answering is tried
 * again on other ports.
 */
export async function startApi(
  database: string,
  carriers: Array<{ scac: string; baseUrl: string; timeoutMs?: number }>,
  env: Record<string, string> = {},
  stderr: "inherit" | "tail" = "inherit",
): Promise<ApiProcess> {
  for (let attempt = 1; ; attempt++) {
    const started = await startOnce(database, carriers, env, stderr);
    if (typeof started !== "number") return started;
    if (attempt === 3) throw new Error(`api exited with ${started}, three times`);
  }
}

/** One start: the process once it answers, or its exit code when it exits first. */
async function startOnce(
  database: string,
  carriers: Array<{ scac: string; baseUrl: string; timeoutMs?: number }>,
  env: Record<string, string>,
  stderr: "inherit" | "tail",
): Promise<ApiProcess | number> {
  const ports = await Promise.all(PRODUCTS.map(() => freePort()));
  const proc = Bun.spawn([process.execPath, `${ROOT}api/main.ts`], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...Object.fromEntries(
        PRODUCTS.map((p, i) => [`PORTOLAN_${p.id.toUpperCase()}_PORT`, String(ports[i])]),
      ),
      PORTOLAN_DB: database,
      PORTOLAN_SANDBOX: "0",
      PORTOLAN_CARRIERS: JSON.stringify(carriers),
      // Several processes on one machine: each would take the default admin port.
      PORTOLAN_ADMIN_PORT: "off",
      // Webhooks are not under test: a throwaway key ring keeps the development-key warning quiet.
      PORTOLAN_WEBHOOK_KEYS: `burst:${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64")}`,
      ...env,
    },
    stdout: "ignore",
    stderr: stderr === "tail" ? "pipe" : "inherit",
  });
  const log: string[] = [];
  if (proc.stderr instanceof ReadableStream) void keepTail(proc.stderr, log);
  const urls = Object.fromEntries(PRODUCTS.map((p, i) => [p.id, `http://127.0.0.1:${ports[i]}`])) as Record<
    ProductId,
    string
  >;
  const url = urls.ocean;
  for (let tries = 0; ; tries++) {
    try {
      if ((await recordingFetch(`${url}/healthz`)).ok) break;
    } catch {}
    if (proc.exitCode !== null) return proc.exitCode;
    if (tries > 600) throw new Error("api did not start");
    await Bun.sleep(50);
  }
  return {
    url,
    urls,
    proc,
    log,
    stop: async (signal = "SIGTERM") => {
      proc.kill(signal);
      await proc.exited;
    },
  };
}

/** A paying organisation with an ocean key, no quotas in the way and a unit price on every add. */
export async function payingTenant(database: string): Promise<{ orgId: string; key: string }> {
  const storage = sqliteStorage(openDatabase(database));
  try {
    const accounts = testAccounts(storage);
    const org = await accounts.createOrg("burst", {
      paid: true,
      plan: "enterprise",
      rateLimit: 1_000_000_000,
      paygSpendCapUsd: 1_000_000_000,
      paygUnitPriceUsd: 0.25,
    });
    await accounts.setEntitlement(org.id, "ocean", null);
    return { orgId: org.id, key: (await accounts.createKey(org.id, "ocean")).key };
  } finally {
    await storage.close();
  }
}

/** Fresh, valid container numbers of the sandbox lines, never repeating within one generator. */
export function containerNumbers(start = 100_000): () => string {
  // One owner prefix of each sandbox line (docs/sandbox-carrier.md), so every connector takes a share.
  const owners = ["MAEU", "MSCU", "CMAU", "HLXU", "ONEU"];
  let n = start;
  return () => {
    const serial = n++;
    return withCheckDigit(`${owners[serial % owners.length]}${String(serial).padStart(6, "0")}`);
  };
}

export interface BurstResult {
  seconds: number;
  /** Answers by HTTP status. */
  statuses: Record<number, number>;
  /** Record ids of the 201 answers. */
  acknowledged: string[];
  /** A few non-201 bodies, for the failure message. */
  samples: string[];
  p50Ms: number;
  p99Ms: number;
}

/** `concurrency` clients, spread over the processes, each adding a new container as soon as the last answered. */
export async function burst(
  urls: string[],
  key: string,
  opts: { concurrency: number; seconds: number; next: () => string },
): Promise<BurstResult> {
  const statuses: Record<number, number> = {};
  const acknowledged: string[] = [];
  const samples: string[] = [];
  const latencies: number[] = [];
  const end = performance.now() + opts.seconds * 1000;
  const client = async (i: number) => {
    const url = `${urls[i % urls.length]}/v1/containers`;
    while (performance.now() < end) {
      const t0 = performance.now();
      const res = await recordingFetch(url, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ identifier: opts.next(), identifier_type: "container_id" }),
      });
      const text = await res.text();
      latencies.push(performance.now() - t0);
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      if (res.status === 201) acknowledged.push((JSON.parse(text) as { data: { id: string } }).data.id);
      else if (samples.length < 5) samples.push(`${res.status} ${text.slice(0, 300)}`);
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: opts.concurrency }, (_, i) => client(i)));
  const seconds = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { seconds, statuses, acknowledged, samples, p50Ms: pct(0.5), p99Ms: pct(0.99) };
}

export interface Ledger {
  /** Root records written for the organisation. */
  created: string[];
  /** Shipments charged (shipment_usage rows) and their total. */
  charged: number;
  chargedUsd: number;
  /** Records still marked as being added. */
  adding: number;
}

/** What the processes committed, read from the database file itself. */
export function ledger(database: string, orgId: string): Ledger {
  const { db, close } = openDatabase(database);
  try {
    const roots = db
      .select({ id: tracked.id, adding: tracked.adding })
      .from(tracked)
      .where(and(eq(tracked.orgId, orgId), isNull(tracked.parentId)))
      .all();
    const usage = db
      .select({ n: count(), usd: sum(shipmentUsage.chargedUsd) })
      .from(shipmentUsage)
      .where(eq(shipmentUsage.orgId, orgId))
      .get()!;
    return {
      created: roots.map((r) => r.id),
      charged: usage.n,
      chargedUsd: Number(usage.usd ?? 0),
      adding: roots.filter((r) => r.adding).length,
    };
  } finally {
    close();
  }
}

/** The sandbox lines' DCSA base URLs on a running sandbox. */
export const sandboxCarriers = (sandboxUrl: string, timeoutMs?: number) =>
  SANDBOX_SCACS.map((scac) => ({
    scac,
    baseUrl: `${sandboxUrl}/${scac}`,
    ...(timeoutMs ? { timeoutMs } : {}),
  }));
