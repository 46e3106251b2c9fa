/**
 * Scale-out load test: two API processes, two pollers and two dispatchers (each
 * `PORTOLAN_ROLES=<role> bun api/main.ts`) on one throwaway PostgreSQL and one Redis, the sandbox
 * carrier and an HTTPS webhook receiver (in this process) beside them, all on loopback. Concurrent
 * adds, lookups and list reads go to both API processes; one API process gets SIGKILL halfway and
 * the load goes on against the other. Carrier time moves twice during the load (the sandbox clock,
 * then every record made due), so the pollers raise events the dispatchers deliver while the load
 * runs. Then the same run on one SQLite file (Redis kept for the shared rate window and the
 * wake-ups), figures side by side.
 *
 * Checks (PASS/FAIL each, exit code 1 on any FAIL): no 5xx or dropped connection except requests in
 * flight at the killed process; one active root record per identifier, every acknowledged add
 * stored and charged once, nothing stored that was not asked for; stored carrier events equal to
 * what the carrier serves; no outbox event raised twice; every outbox event delivered at least
 * once, repeats with the same id and bytes; a burst on one key over both API processes admitted
 * exactly the plan's limit; no role process died or logged an error. Figures: requests/s, p50/p99
 * per kind, deliveries/s (first to last arrival, and the busiest second: events come in two waves),
 * and how long an event took from being raised, and from fan-out, to the receiver.
 *
 * One organisation carries the load by default, the worst case on PostgreSQL (its row lock orders
 * every add and refresh of the organisation); --orgs spreads the clients over several.
 *
 *   bun bench/scale-out.ts [--seconds 15] [--concurrency 32] [--orgs 1] [--only postgres|sqlite]
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { Subprocess } from "bun";
import { and, eq, inArray, isNull, lt, or } from "drizzle-orm";
import { AccountsRepo } from "../api/accounts/repo.ts";
import { FREE_LIMIT, PAID_LIMIT } from "../api/shared/product-app.ts";
import { WEBHOOK_PRODUCTS } from "../api/webhooks/catalogue.ts";
import { deliveryIdFor } from "../api/webhooks/dispatcher.ts";
import { openStorage } from "../storage/open.ts";
import type { Storage } from "../storage/storage.ts";
import {
  type ApiProcess,
  containerNumbers,
  sandboxCarriers,
  startApi,
} from "../test/hardening/sqlite-cluster.ts";
import { freePort, type RedisProcess, startRedis } from "../test/helpers/redis-server.ts";
import { type RunningSandbox, startSandbox } from "../test/sandbox/spawn.ts";
import { makeCertificates } from "../test/webhooks/receiver.ts";
import { quantile } from "./leg-timing.ts";

const ROOT = join(import.meta.dir, "..");
/** Every HTTP call the bench makes gives up after this. */
const REQUEST_TIMEOUT_MS = 20_000;
/** How long the pollers and dispatchers get, after the load, to catch up before the checks. */
const DRAIN_TIMEOUT_MS = 90_000;
/** Carrier time moved at each of the two steps (sandbox clock): enough for most voyages to move on. */
const ADVANCE_HOURS = 240;
/** Webhook endpoints of each load organisation: every event is delivered to each of its own. */
const ENDPOINTS = 4;
/** The rate window the API processes run with (the default, PORTOLAN_RATE_WINDOW_MS). */
const RATE_WINDOW_MS = 20_000;
const DELIVERY_HEADER = `x-${WEBHOOK_PRODUCTS.ocean.tag.toLowerCase()}-delivery`;

// ---- child mode: make every settled record of the organisations due now ------------------------

/**
 * Carrier cadences are hours (ingest/tracking/schedule.ts): the bench stands in for that much time
 * passing by making the records due now. In a child process, so a SQLite write waiting for the
 * lock (busy_timeout) never stalls the load driver's event loop.
 */
if (process.argv[2] === "mark-due") {
  const [, , , database, orgList] = process.argv;
  const orgIds = orgList!.split(",");
  // Two connections: openPostgres reserves one for the migration lock while another migrates.
  const storage = await openStorage(database!, { poolSize: 2 });
  const { db, t } = storage;
  for (let attempt = 1; ; attempt++) {
    const at = new Date().toISOString();
    try {
      const rows = await db
        .update(t.tracked)
        .set({ nextPollAt: at })
        .where(
          and(
            inArray(t.tracked.orgId, orgIds),
            isNull(t.tracked.parentId),
            isNull(t.tracked.archivedAt),
            eq(t.tracked.adding, false),
          ),
        )
        .returning({ id: t.tracked.id });
      await storage.close();
      console.log(JSON.stringify({ at, n: rows.length }));
      process.exit(0);
    } catch (err) {
      // SQLite under a burst of writers can stay locked past busy_timeout: try again.
      if (attempt >= 5) throw err;
      console.error(`mark-due: attempt ${attempt} failed (${(err as Error).message}); again`);
      await Bun.sleep(200);
    }
  }
}

// ---- processes ------------------------------------------------------------------------------------

/** Every child still running, killed on the way out whatever happens. */
const children = new Set<Subprocess>();
const cleanups: Array<() => Promise<void> | void> = [];

async function stopProcess(proc: Subprocess, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
  const ended = await Promise.race([proc.exited.then(() => true), Bun.sleep(10_000).then(() => false)]);
  if (!ended) {
    proc.kill("SIGKILL");
    await proc.exited;
  }
  children.delete(proc);
}

async function killEverything(): Promise<void> {
  await Promise.all([...children].map((p) => stopProcess(p, "SIGKILL")));
  for (const c of cleanups.splice(0).reverse()) await c();
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    void killEverything().finally(() => process.exit(130));
  });
}

/** Reads a child's stdout until `pattern` shows, then drains the rest so the pipe never fills. */
async function waitForLine(proc: Subprocess<"ignore", "pipe">, pattern: RegExp, what: string) {
  const reader = proc.stdout.getReader();
  const decoder = new TextDecoder();
  const deadline = Date.now() + 60_000;
  let seen = "";
  while (!pattern.test(seen)) {
    const next = await Promise.race([reader.read(), Bun.sleep(Math.max(0, deadline - Date.now()))]);
    if (!next) throw new Error(`${what} did not start within 60 s: ${seen}`);
    if (next.done) throw new Error(`${what} exited (${await proc.exited}): ${seen}`);
    seen += decoder.decode(next.value, { stream: true });
  }
  void (async () => {
    try {
      while (!(await reader.read()).done) {}
    } catch {}
  })();
}

/** What a poller or dispatcher wrote to stderr: error headlines ("[webhooks] claim failed: ...") and their causes. */
interface RoleLog {
  /** Headline (first words) -> times logged. */
  headlines: Map<string, number>;
  /** PostgreSQL and driver errors quoted in the stack traces ("PostgresError: deadlock detected"). */
  causes: Map<string, number>;
}

const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);

/** Passes a child's stderr through to ours, counting what it logs. */
function watchStderr(stream: ReadableStream<Uint8Array>, log: RoleLog): void {
  void (async () => {
    const decoder = new TextDecoder();
    let rest = "";
    for await (const chunk of stream) {
      process.stderr.write(chunk);
      const lines = (rest + decoder.decode(chunk, { stream: true })).split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) {
        const headline = /^\[[\w-]+\][^:]*/.exec(line)?.[0];
        if (headline) bump(log.headlines, headline);
        const cause = /^(\w*Error): (.*)$/.exec(line.trim());
        if (cause && !cause[2]!.startsWith("Failed query"))
          bump(log.causes, `${cause[1]}: ${cause[2]!.slice(0, 80)}`);
      }
    }
  })().catch(() => {});
}

/** `bun api/main.ts` running the one role (not api: startApi serves that), ready when it says so. */
async function startRole(
  role: "poller" | "dispatcher",
  env: Record<string, string>,
  log: RoleLog,
): Promise<Subprocess> {
  const proc = Bun.spawn([process.execPath, join(ROOT, "api/main.ts")], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORTOLAN_ADMIN_PORT: "off",
      ...env,
      PORTOLAN_ROLES: role,
      PORTOLAN_LOG_LEVEL: "info",
    },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  children.add(proc);
  watchStderr(proc.stderr, log);
  await waitForLine(proc, /"msg":"started"/, role);
  return proc;
}

/** Throwaway PostgreSQL (scripts/postgres-temp.sh): its URL, and a stop that removes it. */
async function startPostgres(): Promise<{ url: string; stop(): Promise<void> }> {
  const script = join(ROOT, "scripts/postgres-temp.sh");
  const proc = Bun.spawn(["bash", script, "start"], { stdout: "pipe", stderr: "inherit" });
  const out = await new Response(proc.stdout).text();
  if ((await proc.exited) !== 0) throw new Error("scripts/postgres-temp.sh start failed");
  const [url, dir] = out.trim().split(" ");
  return {
    url: url!,
    stop: async () => {
      await Bun.spawn(["bash", script, "stop", dir!], { stdout: "ignore", stderr: "inherit" }).exited;
    },
  };
}

async function markDue(database: string, orgIds: string[]): Promise<{ at: string; n: number }> {
  const proc = Bun.spawn([process.execPath, import.meta.path, "mark-due", database, orgIds.join(",")], {
    stdout: "pipe",
    stderr: "inherit",
  });
  children.add(proc);
  const killer = setTimeout(() => proc.kill("SIGKILL"), 60_000);
  try {
    const out = await new Response(proc.stdout).text();
    if ((await proc.exited) !== 0) throw new Error(`mark-due exited with ${proc.exitCode}`);
    return JSON.parse(out) as { at: string; n: number };
  } finally {
    clearTimeout(killer);
    children.delete(proc);
  }
}

// ---- webhook receiver -----------------------------------------------------------------------------

interface Arrival {
  path: string;
  /** The delivery id header. */
  id: string;
  /** The id inside the body. */
  bodyId: string | null;
  sha: string;
  /** Date.now() at arrival: compared with the outbox rows' created_at. */
  at: number;
}

/** An HTTPS receiver (certificate for hooks.test from a throwaway CA) that answers 200 and keeps every arrival. */
function startReceiver(certs: { cert: string; key: string }) {
  const arrivals: Arrival[] = [];
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    tls: { cert: Bun.file(certs.cert), key: Bun.file(certs.key) },
    fetch: async (req) => {
      const raw = await req.text();
      let bodyId: string | null = null;
      try {
        bodyId = (JSON.parse(raw) as { id?: string }).id ?? null;
      } catch {}
      arrivals.push({
        path: new URL(req.url).pathname,
        id: req.headers.get(DELIVERY_HEADER) ?? "",
        bodyId,
        sha: createHash("sha256").update(raw).digest("hex"),
        at: Date.now(),
      });
      return new Response("ok");
    },
  });
  return { port: server.port, arrivals, stop: () => server.stop(true) };
}

// ---- load -----------------------------------------------------------------------------------------

type Op = "add" | "lookup" | "list";

interface Sample {
  op: Op;
  /** Index of the API process asked. */
  api: number;
  t0: number;
  t1: number;
  /** null: no answer (connection refused or reset, or timeout). */
  status: number | null;
  /** The answer's body, cut short (for failure messages). */
  detail: string;
  identifier?: string;
  /** The record id a 201 add answered with. */
  recordId?: string;
}

interface Answer {
  status: number | null;
  body: string;
}

async function call(url: string, init: RequestInit = {}): Promise<Answer> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    return { status: res.status, body: await res.text() };
  } catch (err) {
    return { status: null, body: String(err) };
  }
}

interface Cluster {
  apis: ApiProcess[];
  /** Set just before an API process gets SIGKILL: no request is sent to it after that. */
  killed: Set<number>;
}

/** Mid-run steps, each at a fraction of the load's duration. */
interface Step {
  at: number;
  name: string;
  run(): Promise<void>;
}

/**
 * `concurrency` clients, each sending its next request as soon as the last one answered, spread
 * over the live API processes and the organisations (client c acts for organisation c mod n, and
 * looks up only that one's containers): 5 in 10 add a new container, 3 look up a known one, 2 read
 * the list.
 */
async function drive(
  cluster: Cluster,
  keys: string[],
  opts: { concurrency: number; seconds: number; next: () => string; known: string[][]; steps?: Step[] },
): Promise<{ samples: Sample[]; seconds: number; stepLog: string[] }> {
  const samples: Sample[] = [];
  const stepLog: string[] = [];
  const t0 = performance.now();
  const end = t0 + opts.seconds * 1000;
  const client = async (c: number) => {
    const auth = { authorization: `Bearer ${keys[c % keys.length]}` };
    const known = opts.known[c % keys.length]!;
    for (let n = c; performance.now() < end; n++) {
      const live = cluster.apis.map((_, i) => i).filter((i) => !cluster.killed.has(i));
      const api = live[n % live.length]!;
      const base = cluster.apis[api]!.url;
      const slot = n % 10;
      const op: Op = slot < 5 || known.length === 0 ? "add" : slot < 8 ? "lookup" : "list";
      const started = performance.now();
      let answer: Answer;
      let identifier: string | undefined;
      let recordId: string | undefined;
      if (op === "add") {
        identifier = opts.next();
        answer = await call(`${base}/v1/containers`, {
          method: "POST",
          headers: { ...auth, "content-type": "application/json" },
          body: JSON.stringify({ identifier, identifier_type: "container_id" }),
        });
        if (answer.status === 201) {
          known.push(identifier);
          try {
            recordId = (JSON.parse(answer.body) as { data?: { id?: string } }).data?.id;
          } catch {} // no id: the records check reports it as missing
        }
      } else if (op === "lookup") {
        identifier = known[Math.floor(Math.random() * known.length)]!;
        answer = await call(`${base}/v1/containers/lookup/${identifier}`, { headers: auth });
      } else {
        answer = await call(`${base}/v1/containers?limit=20`, { headers: auth });
      }
      samples.push({
        op,
        api,
        t0: started,
        t1: performance.now(),
        status: answer.status,
        detail: answer.body.slice(0, 300),
        identifier,
        recordId,
      });
    }
  };
  const conductor = async () => {
    for (const step of opts.steps ?? []) {
      const wait = t0 + step.at * opts.seconds * 1000 - performance.now();
      if (wait > 0) await Bun.sleep(wait);
      const s0 = performance.now();
      await step.run();
      stepLog.push(
        `${step.name} at ${((s0 - t0) / 1000).toFixed(1)} s (took ${((performance.now() - s0) / 1000).toFixed(1)} s)`,
      );
    }
  };
  await Promise.all([conductor(), ...Array.from({ length: opts.concurrency }, (_, c) => client(c))]);
  return { samples, seconds: (performance.now() - t0) / 1000, stepLog };
}

interface RateBurst {
  limit: number;
  sent: number;
  statuses: Record<string, number>;
  ms: number;
}

/** `3 x limit` concurrent keyed no-op requests on one organisation's key, alternating between the API processes. */
async function rateBurst(urls: string[], key: string, limit: number): Promise<RateBurst> {
  const sent = 3 * limit;
  const t0 = performance.now();
  const answers = await Promise.all(
    Array.from({ length: sent }, (_, i) =>
      call(`${urls[i % urls.length]}/v1/account`, { headers: { authorization: `Bearer ${key}` } }),
    ),
  );
  const statuses: Record<string, number> = {};
  for (const a of answers) statuses[String(a.status)] = (statuses[String(a.status)] ?? 0) + 1;
  return { limit, sent, statuses, ms: performance.now() - t0 };
}

// ---- one run ----------------------------------------------------------------------------------------

interface Tenant {
  orgId: string;
  key: string;
}

async function tenant(
  accounts: AccountsRepo,
  name: string,
  paid: boolean,
  rateLimit?: number,
): Promise<Tenant> {
  const org = await accounts.createOrg(name, {
    paid,
    plan: paid ? "enterprise" : "free",
    ...(rateLimit ? { rateLimit, paygSpendCapUsd: 1_000_000_000, paygUnitPriceUsd: 0.25 } : {}),
  });
  await accounts.setEntitlement(org.id, "ocean", null);
  return { orgId: org.id, key: (await accounts.createKey(org.id, "ocean")).key };
}

interface RunResult {
  label: string;
  load: { samples: Sample[]; seconds: number; stepLog: string[] };
  /** Wall time per phase, seconds. */
  phases: Array<[string, number]>;
  drained: boolean;
  checks: Check[];
  figures: Figures;
}

interface Check {
  rule: string;
  pass: boolean;
  detail: string;
}

interface Figures {
  requests: number;
  rps: number;
  byOp: Record<Op | "all", { n: number; p50: number; p99: number }>;
  deliveries: number;
  deliveriesPerS: number;
  peakDeliveriesPerS: number;
  /** From the outbox row's created_at (the poll that raised it) to the first arrival. */
  eventToReceiver: { p50: number; p99: number };
  /** From the delivery row's created_at (fan-out) to the first arrival: the dispatchers' share. */
  fanOutToReceiver: { p50: number; p99: number };
  outboxEvents: number;
}

async function runOn(
  label: string,
  database: string,
  common: {
    sandbox: RunningSandbox;
    sandboxStart: string;
    receiver: ReturnType<typeof startReceiver>;
    caFile: string;
    keys: string;
    seconds: number;
    concurrency: number;
    orgs: number;
  },
): Promise<RunResult> {
  const { sandbox, receiver } = common;
  const t0 = performance.now();
  const phases: Array<[string, number]> = [];
  // Same carrier world at the start of each run: the runs see the same voyages.
  await sandbox.setClock({ now: common.sandboxStart });
  const redis: RedisProcess = await startRedis(await freePort());
  cleanups.push(() => redis.stop()); // on an interrupt; stopping twice is harmless
  const storage = await openStorage(database, { poolSize: 4 });
  const stopAll: Array<() => Promise<void>> = [];
  try {
    const accounts = new AccountsRepo(storage);
    // No rate window or spend cap in the load's way; two plain plans for the rate-window bursts.
    const loads: Tenant[] = [];
    for (let o = 0; o < common.orgs; o++)
      loads.push(await tenant(accounts, `scale-out load ${o}`, true, 1_000_000_000));
    const paidBurst = await tenant(accounts, "scale-out paid burst", true);
    const freeBurst = await tenant(accounts, "scale-out free burst", false);

    const env: Record<string, string> = {
      REDIS_URL: redis.url,
      PORTOLAN_DB: database,
      PORTOLAN_SANDBOX: "0",
      PORTOLAN_CARRIERS: JSON.stringify(sandboxCarriers(sandbox.url)),
      PORTOLAN_RATE_WINDOW_MS: String(RATE_WINDOW_MS),
      PORTOLAN_POLL_INTERVAL_MS: "250",
      // One key ring for all: the API seals endpoint secrets the dispatchers open.
      PORTOLAN_WEBHOOK_KEYS: common.keys,
      // The receiver is on loopback under a private CA.
      PORTOLAN_WEBHOOK_ALLOW_PRIVATE: "1",
      PORTOLAN_WEBHOOK_CA_FILE: common.caFile,
      PORTOLAN_WEBHOOK_RESOLVE: "hooks.test=127.0.0.1",
      PORTOLAN_WEBHOOK_SWEEP_MS: "100",
      PORTOLAN_WEBHOOK_SCHEDULE: "0,500ms,1s,2s,5s",
      PORTOLAN_WEBHOOK_JITTER: "0",
      PORTOLAN_WEBHOOK_TIMEOUT_MS: "5000",
    };
    const carriers = sandboxCarriers(sandbox.url);
    const apis = await Promise.all(
      [0, 1].map(async () => {
        const api = await startApi(database, carriers, { ...env, PORTOLAN_ROLES: "api" });
        children.add(api.proc);
        stopAll.push(() => stopProcess(api.proc));
        return api;
      }),
    );
    const roleLog: RoleLog = { headlines: new Map(), causes: new Map() };
    const roles = await Promise.all(
      (["poller", "poller", "dispatcher", "dispatcher"] as const).map(async (role) => {
        const proc = await startRole(role, env, roleLog);
        stopAll.push(() => stopProcess(proc));
        return { role, proc };
      }),
    );
    const cluster: Cluster = { apis, killed: new Set() };

    // Each load organisation's webhook endpoints, registered through the API like a customer would.
    const prefix = `/${label.toLowerCase().replace(/[^a-z]+/g, "-")}/`;
    const endpoints = new Map<string, string[]>();
    for (const [o, load] of loads.entries()) {
      const ids: string[] = [];
      for (let e = 0; e < ENDPOINTS; e++) {
        const reg = await call(`${apis[e % apis.length]!.url}/v1/webhooks`, {
          method: "POST",
          headers: { authorization: `Bearer ${load.key}`, "content-type": "application/json" },
          body: JSON.stringify({ url: `https://hooks.test:${receiver.port}${prefix}${o}/${e}` }),
        });
        const id =
          reg.status === 201 ? (JSON.parse(reg.body) as { data?: { id?: string } }).data?.id : undefined;
        if (!id) throw new Error(`webhook registration: ${reg.status} ${reg.body}`);
        ids.push(id);
      }
      endpoints.set(load.orgId, ids);
    }
    const orgIds = loads.map((l) => l.orgId);
    const keys = loads.map((l) => l.key);
    const ours = () => receiver.arrivals.filter((a) => a.path.startsWith(prefix));
    phases.push(["start and register", (performance.now() - t0) / 1000]);

    const known = loads.map((): string[] => []);
    // Warm both processes (first requests compile routes); these adds are checked like the others.
    const warm = await drive(cluster, keys, {
      concurrency: 8,
      seconds: 1,
      next: containerNumbers(900_000),
      known,
    });
    let killedAt = Number.NaN;
    const bursts: RateBurst[] = [];
    const urls = apis.map((a) => a.url);
    const steps: Step[] = [
      {
        at: 0.1,
        name: "rate-window bursts on both API processes",
        run: async () => {
          bursts.push(
            ...(await Promise.all([
              rateBurst(urls, paidBurst.key, PAID_LIMIT),
              rateBurst(urls, freeBurst.key, FREE_LIMIT),
            ])),
          );
        },
      },
      {
        at: 0.25,
        name: `carrier clock +${ADVANCE_HOURS} h, records due`,
        run: async () => {
          await sandbox.setClock({ advance_hours: ADVANCE_HOURS });
          await markDue(database, orgIds);
        },
      },
      {
        at: 0.5,
        name: "SIGKILL to API process 2",
        run: async () => {
          cluster.killed.add(1);
          killedAt = performance.now();
          apis[1]!.proc.kill("SIGKILL");
          await apis[1]!.proc.exited;
        },
      },
      {
        at: 0.7,
        name: `carrier clock +${ADVANCE_HOURS} h, records due`,
        run: async () => {
          await sandbox.setClock({ advance_hours: ADVANCE_HOURS });
          await markDue(database, orgIds);
        },
      },
    ];
    const loadRun = await drive(cluster, keys, {
      concurrency: common.concurrency,
      seconds: common.seconds,
      next: containerNumbers(100_000),
      known,
      steps,
    });

    phases.push(["warm-up and load", loadRun.seconds + 1]);

    // Drain: every settled record polled once more at the final carrier clock (so stored events
    // can be compared with the carrier's), every outbox row fanned out and delivered. Records the
    // killed process was adding stay marked as adding until their add lease runs out.
    const drain0 = performance.now();
    const final = await markDue(database, orgIds);
    const mayStayAdding = cutOff(loadRun.samples, killedAt);
    const outstanding = await settle(storage, {
      orgIds,
      endpointIds: [...endpoints.values()].flat(),
      dueAt: final.at,
      arrivals: ours,
      mayStayAdding,
    });
    const drainSeconds = (performance.now() - drain0) / 1000;
    const drained = outstanding === null;
    phases.push([`drain${drained ? "" : ` (timed out: ${outstanding})`}`, drainSeconds]);

    const died: string[] = roles
      .filter((r) => r.proc.exitCode !== null || r.proc.signalCode !== null)
      .map((r) => r.role);
    if (apis[0]!.proc.exitCode !== null || apis[0]!.proc.signalCode !== null) died.push("api 1");
    const stop0 = performance.now();
    await Promise.all(stopAll.splice(0).map((s) => s()));
    phases.push(["stop", (performance.now() - stop0) / 1000]);

    const arrivals = ours();
    const checks0 = performance.now();
    const checks = await verify({
      storage,
      sandboxUrl: sandbox.url,
      endpoints,
      mayStayAdding,
      warm: warm.samples,
      load: loadRun.samples,
      killedAt,
      bursts,
      arrivals,
      drained,
      died,
      roleLog,
    });
    phases.push(["checks", (performance.now() - checks0) / 1000]);
    return {
      label,
      load: loadRun,
      phases,
      drained,
      checks: checks.checks,
      figures: figures(loadRun, killedAt, arrivals, checks.since),
    };
  } finally {
    await Promise.all(stopAll.map((s) => s()));
    await storage.close();
    await redis.stop();
  }
}

/**
 * Waits (bounded) until the pollers and dispatchers have caught up. Answers what was still
 * outstanding at the deadline, or null once nothing is.
 */
async function settle(
  storage: Storage,
  w: {
    orgIds: string[];
    endpointIds: string[];
    /** Every settled record must have been polled since. */
    dueAt: string;
    arrivals: () => Arrival[];
    /** Identifiers whose add the killed process left unfinished. */
    mayStayAdding: Set<string>;
  },
): Promise<string | null> {
  const { db, t } = storage;
  const deadline = performance.now() + DRAIN_TIMEOUT_MS;
  for (;;) {
    const unpolled = await db
      .select({ id: t.tracked.id })
      .from(t.tracked)
      .where(
        and(
          inArray(t.tracked.orgId, w.orgIds),
          isNull(t.tracked.parentId),
          isNull(t.tracked.archivedAt),
          eq(t.tracked.adding, false),
          or(isNull(t.tracked.lastPolledAt), lt(t.tracked.lastPolledAt, w.dueAt)),
        ),
      );
    // Adds (and lookups' registrations) the live API process is still finishing.
    const adding = (
      await db
        .select({ identifier: t.tracked.identifier })
        .from(t.tracked)
        .where(and(inArray(t.tracked.orgId, w.orgIds), eq(t.tracked.adding, true)))
    ).filter((r) => !w.mayStayAdding.has(r.identifier));
    const unfanned = await db
      .select({ id: t.outbox.id })
      .from(t.outbox)
      .where(and(inArray(t.outbox.orgId, w.orgIds), eq(t.outbox.fannedOut, false)));
    const deliveries = await db
      .select({ id: t.webhookDeliveries.id, status: t.webhookDeliveries.status })
      .from(t.webhookDeliveries)
      .where(inArray(t.webhookDeliveries.endpointId, w.endpointIds));
    const seen = new Set(w.arrivals().map((a) => a.id));
    const outstanding = [
      [unpolled.length, "records not polled since made due"],
      [adding.length, "adds unfinished"],
      [unfanned.length, "outbox rows not fanned out"],
      [deliveries.filter((d) => d.status === "pending").length, "deliveries pending"],
      [deliveries.filter((d) => !seen.has(d.id)).length, "deliveries not at the receiver"],
    ] as const;
    const left = outstanding.filter(([n]) => n > 0).map(([n, what]) => `${n} ${what}`);
    if (left.length === 0) return null;
    if (performance.now() >= deadline) return left.join(", ");
    await Bun.sleep(250);
  }
}

// ---- checks -----------------------------------------------------------------------------------------

/** The carrier's events for one container now, straight from its DCSA API (every page). */
async function carrierEventIds(
  sandboxUrl: string,
  scac: string,
  container: string,
): Promise<Set<string> | null> {
  const ids = new Set<string>();
  let url: string | null = `${sandboxUrl}/${scac}/v2/events?equipmentReference=${container}&limit=1000`;
  for (let page = 0; url && page < 50; page++) {
    const res: Response | null = await fetch(url, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }).catch(
      () => null,
    );
    if (!res?.ok) return null;
    for (const e of (await res.json()) as Array<{ eventID: string }>) ids.add(e.eventID);
    const next: string | null = res.headers.get("Next-Page");
    url = next ? new URL(next, url).toString() : null;
  }
  return ids;
}

/** Runs `fn` over `items`, `width` at a time. */
async function pool<T>(items: T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

const isAnswered = (s: Sample) => s.status !== null && s.status < 500;

/** Requests to the killed process that were open when it died and got no proper answer. */
function killedInFlight(samples: Sample[], killedAt: number): Set<Sample> {
  return new Set(samples.filter((s) => s.api === 1 && s.t0 < killedAt && s.t1 >= killedAt && !isAnswered(s)));
}

/**
 * Identifiers whose add the kill may have left unfinished: adds and lookups in flight at the killed
 * process (a lookup of a completed box registers it anew), and lookups it answered 202 (registered,
 * the first carrier call still running behind the answer).
 */
function cutOff(samples: Sample[], killedAt: number): Set<string> {
  const inFlight = [...killedInFlight(samples, killedAt)].filter((s) => s.identifier);
  const registered = samples.filter((s) => s.api === 1 && s.op === "lookup" && s.status === 202);
  return new Set([...inFlight, ...registered].map((s) => s.identifier!));
}

async function verify(input: {
  storage: Storage;
  sandboxUrl: string;
  /** The load's organisations and their webhook endpoints. */
  endpoints: Map<string, string[]>;
  mayStayAdding: Set<string>;
  warm: Sample[];
  load: Sample[];
  killedAt: number;
  bursts: RateBurst[];
  arrivals: Arrival[];
  drained: boolean;
  died: string[];
  roleLog: RoleLog;
}): Promise<{ checks: Check[]; since: Since }> {
  const { storage } = input;
  const { db, t } = storage;
  const orgIds = [...input.endpoints.keys()];
  const endpointIds = [...input.endpoints.values()].flat();
  const checks: Check[] = [];
  const check = (rule: string, pass: boolean, detail: string) => checks.push({ rule, pass, detail });
  const all = [...input.warm, ...input.load];
  const apart = killedInFlight(input.load, input.killedAt);
  const first = (ss: Sample[]) =>
    ss.length ? ` (first: ${ss[0]!.op} -> ${ss[0]!.status} ${ss[0]!.detail})` : "";

  const roots = await db
    .select({
      id: t.tracked.id,
      identifier: t.tracked.identifier,
      adding: t.tracked.adding,
      archivedAt: t.tracked.archivedAt,
      carrierCode: t.tracked.carrierCode,
    })
    .from(t.tracked)
    .where(and(inArray(t.tracked.orgId, orgIds), isNull(t.tracked.parentId)));
  const byIdentifier = new Map<string, typeof roots>();
  for (const r of roots) byIdentifier.set(r.identifier, [...(byIdentifier.get(r.identifier) ?? []), r]);
  // A box whose voyage is over (empty returned) is archived at its first fetch; a lookup of it then
  // tracks it anew (202), as for any reference with no active record.
  const completed = new Set(roots.filter((r) => r.archivedAt).map((r) => r.identifier));

  // 1. Answers.
  const broken = all.filter((s) => !apart.has(s) && !isAnswered(s));
  check(
    "no 5xx or dropped connection except requests in flight at the killed process",
    broken.length === 0,
    `${broken.length} outside; ${apart.size} in flight at the killed process, counted apart${first(broken)}`,
  );
  const expectedStatus = (s: Sample) =>
    s.status === (s.op === "add" ? 201 : 200) ||
    (s.op === "lookup" && s.status === 202 && completed.has(s.identifier!));
  const unexpected = all.filter((s) => !apart.has(s) && isAnswered(s) && !expectedStatus(s));
  const relooked = all.filter((s) => s.op === "lookup" && s.status === 202).length;
  check(
    "every other answer is the one asked for (add 201; list 200; lookup 200, or 202 for a completed box)",
    unexpected.length === 0,
    `${unexpected.length} others; ${relooked} lookups of completed boxes tracked anew${first(unexpected)}`,
  );

  // 2. Records: one active root per identifier; every acknowledged add stored; nothing stored
  // that was not asked for; only the killed process's adds left unfinished; one charge each.
  const active = roots.filter((r) => !r.archivedAt);
  const activeIds = new Set(active.map((r) => r.identifier));
  check(
    "no tracked record duplicated (one active root per identifier)",
    activeIds.size === active.length,
    `${roots.length} roots (${active.length} active) for ${byIdentifier.size} identifiers, ` +
      `${active.length - activeIds.size} active duplicates`,
  );
  const acknowledged = all.filter((s) => s.op === "add" && s.status === 201);
  const asked = new Set(all.filter((s) => s.op === "add").map((s) => s.identifier!));
  const lost = acknowledged.filter(
    (s) => !(byIdentifier.get(s.identifier!) ?? []).some((r) => r.id === s.recordId),
  );
  const unasked = roots.filter((r) => !asked.has(r.identifier));
  const stuck = roots.filter((r) => r.adding && !input.mayStayAdding.has(r.identifier));
  const cut = [...apart].filter((s) => s.op === "add");
  const cutStored = cut.filter((s) => byIdentifier.has(s.identifier!));
  check(
    "no tracked record lost or made up (acknowledged adds stored; unfinished adds only the killed process's)",
    lost.length === 0 && unasked.length === 0 && stuck.length === 0,
    `${acknowledged.length} acknowledged, ${lost.length} missing, ${unasked.length} never asked for, ` +
      `${stuck.length} left adding by a live process; of ${cut.length} adds cut off by the kill ${cutStored.length} ` +
      `stored; ${roots.filter((r) => r.adding).length - stuck.length} roots left adding by the killed process ` +
      `(adds and lookups' registrations: a poller takes them over when the add lease ends)`,
  );
  const usage = await db
    .select({ identifier: t.shipmentUsage.identifier })
    .from(t.shipmentUsage)
    .where(inArray(t.shipmentUsage.orgId, orgIds));
  const charged = new Set(usage.map((u) => u.identifier));
  const unchargedIds = [...byIdentifier.keys()].filter((id) => !charged.has(id));
  check(
    "every tracked identifier charged once this month, nothing charged without a record",
    usage.length === byIdentifier.size && unchargedIds.length === 0,
    `${usage.length} charges for ${byIdentifier.size} identifiers, ${unchargedIds.length} uncharged`,
  );

  // 3. Carrier events: every active settled record holds exactly what the carrier serves at the
  // final clock (each was polled again after the last clock move); archived ones a subset of it.
  const stored = new Map<string, Set<string>>();
  for (const e of await db
    .select({ trackedId: t.carrierEvents.trackedId, eventId: t.carrierEvents.eventId })
    .from(t.carrierEvents)
    .innerJoin(t.tracked, eq(t.tracked.id, t.carrierEvents.trackedId))
    .where(inArray(t.tracked.orgId, orgIds))) {
    const set = stored.get(e.trackedId) ?? new Set<string>();
    set.add(e.eventId);
    stored.set(e.trackedId, set);
  }
  let missingEvents = 0;
  let extraEvents = 0;
  let recordsOff = 0;
  let unreadable = 0;
  let compared = 0;
  const settled = roots.filter((r) => !r.adding && r.carrierCode);
  await pool(settled, 16, async (r) => {
    const carrier = await carrierEventIds(input.sandboxUrl, r.carrierCode!, r.identifier);
    if (!carrier) {
      unreadable++;
      return;
    }
    compared++;
    const mine = stored.get(r.id) ?? new Set<string>();
    const missing = r.archivedAt ? 0 : [...carrier].filter((id) => !mine.has(id)).length;
    const extra = [...mine].filter((id) => !carrier.has(id)).length;
    missingEvents += missing;
    extraEvents += extra;
    if (missing + extra > 0) recordsOff++;
  });
  const storedCount = [...stored.values()].reduce((n, s) => n + s.size, 0);
  check(
    "no carrier event lost or duplicated (stored = the carrier's, per record)",
    input.drained && missingEvents === 0 && extraEvents === 0 && unreadable === 0,
    `${storedCount} stored on ${compared} records compared; ${missingEvents} missing, ${extraEvents} not the carrier's, ` +
      `${recordsOff} records off, ${unreadable} unreadable at the carrier${input.drained ? "" : "; pollers had not caught up"}`,
  );

  // 4. Outbox: no event raised twice (same type and payload); every one delivered to every
  // endpoint; repeats with the same id and bytes.
  const outbox = await db
    .select({
      id: t.outbox.id,
      orgId: t.outbox.orgId,
      type: t.outbox.type,
      data: t.outbox.data,
      createdAt: t.outbox.createdAt,
    })
    .from(t.outbox)
    .where(inArray(t.outbox.orgId, orgIds));
  const payloads = new Map<string, number>();
  for (const o of outbox) {
    const k = `${o.orgId}\n${o.type}\n${JSON.stringify(o.data)}`;
    payloads.set(k, (payloads.get(k) ?? 0) + 1);
  }
  const twice = [...payloads.values()].filter((n) => n > 1).length;
  const ids = new Set(outbox.map((o) => o.id));
  check(
    "no outbox event duplicated (unique ids; no type + payload raised twice)",
    twice === 0 && ids.size === outbox.length,
    `${outbox.length} events, ${outbox.length - ids.size} repeated ids, ${twice} payloads raised more than once`,
  );
  const createdAt = new Map<string, number>();
  for (const o of outbox) {
    for (const e of input.endpoints.get(o.orgId)!)
      createdAt.set(deliveryIdFor(o.id, e), Date.parse(o.createdAt));
  }
  const byDelivery = new Map<string, Arrival[]>();
  for (const a of input.arrivals) byDelivery.set(a.id, [...(byDelivery.get(a.id) ?? []), a]);
  const undelivered = [...createdAt.keys()].filter((id) => !byDelivery.has(id));
  const strangers = [...byDelivery.keys()].filter((id) => !createdAt.has(id));
  const repeats = [...byDelivery.values()].filter((as) => as.length > 1);
  const inconsistent = [...byDelivery.values()].filter(
    (as) => as.some((a) => a.bodyId !== a.id) || new Set(as.map((a) => a.sha)).size > 1,
  );
  check(
    `every outbox event delivered at least once to each of its organisation's ${ENDPOINTS} endpoints; repeats keep their id and bytes`,
    input.drained &&
      outbox.length > 0 &&
      undelivered.length === 0 &&
      strangers.length === 0 &&
      inconsistent.length === 0,
    `${createdAt.size} deliveries due, ${input.arrivals.length} arrivals, ${undelivered.length} never arrived, ` +
      `${strangers.length} unknown ids, ${repeats.length} arrived more than once, ${inconsistent.length} with differing id or bytes`,
  );

  // 5. The shared rate window.
  for (const b of input.bursts) {
    const ok = b.statuses["200"] ?? 0;
    const limited = b.statuses["429"] ?? 0;
    check(
      `rate window exact over both API processes (limit ${b.limit})`,
      ok === b.limit && limited === b.sent - b.limit && b.ms < RATE_WINDOW_MS,
      `${b.sent} requests in ${(b.ms / 1000).toFixed(1)} s: ${Object.entries(b.statuses)
        .map(([s, n]) => `${s}: ${n}`)
        .join(", ")}`,
    );
  }

  // 6. The other processes lived through it, quietly.
  check(
    "no other process died",
    input.died.length === 0,
    input.died.length ? `exited early: ${input.died.join(", ")}` : "all alive until stopped",
  );
  const logged = (m: Map<string, number>) => [...m].map(([k, n]) => `${n} x ${k}`).join("; ");
  check(
    "pollers and dispatchers logged no errors",
    input.roleLog.headlines.size === 0,
    input.roleLog.headlines.size === 0
      ? "none"
      : `${logged(input.roleLog.headlines)}${input.roleLog.causes.size ? ` (causes: ${logged(input.roleLog.causes)})` : ""}`,
  );
  const fannedOut = new Map(
    (
      await db
        .select({ id: t.webhookDeliveries.id, createdAt: t.webhookDeliveries.createdAt })
        .from(t.webhookDeliveries)
        .where(inArray(t.webhookDeliveries.endpointId, endpointIds))
    ).map((d) => [d.id, Date.parse(d.createdAt)]),
  );
  return { checks, since: { raised: createdAt, fannedOut } };
}

// ---- figures ----------------------------------------------------------------------------------------

/** Per delivery id, epoch ms: when its event was raised, and when it was fanned out. */
interface Since {
  raised: Map<string, number>;
  fannedOut: Map<string, number>;
}

function figures(
  load: { samples: Sample[]; seconds: number },
  killedAt: number,
  arrivals: Arrival[],
  since: Since,
): Figures {
  const apart = killedInFlight(load.samples, killedAt);
  const answered = load.samples.filter((s) => !apart.has(s) && s.status !== null);
  const stats = (ss: Sample[]) => {
    const ms = ss.map((s) => s.t1 - s.t0).sort((a, b) => a - b);
    return { n: ms.length, p50: quantile(ms, 0.5), p99: quantile(ms, 0.99) };
  };
  const first = new Map<string, number>();
  for (const a of arrivals) if (!first.has(a.id)) first.set(a.id, a.at);
  const lag = (from: Map<string, number>) => {
    const ms = [...first]
      .map(([id, at]) => at - (from.get(id) ?? Number.NaN))
      .filter((x) => !Number.isNaN(x))
      .sort((a, b) => a - b);
    return { p50: quantile(ms, 0.5), p99: quantile(ms, 0.99) };
  };
  const times = arrivals.map((a) => a.at).sort((a, b) => a - b);
  const span = times.length > 1 ? (times.at(-1)! - times[0]!) / 1000 : Number.NaN;
  let peak = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i]! - times[j]! >= 1000) j++;
    peak = Math.max(peak, i - j + 1);
  }
  return {
    requests: answered.length,
    rps: answered.length / load.seconds,
    byOp: {
      all: stats(answered),
      add: stats(answered.filter((s) => s.op === "add")),
      lookup: stats(answered.filter((s) => s.op === "lookup")),
      list: stats(answered.filter((s) => s.op === "list")),
    },
    deliveries: arrivals.length,
    deliveriesPerS: arrivals.length / span,
    peakDeliveriesPerS: peak,
    eventToReceiver: lag(since.raised),
    fanOutToReceiver: lag(since.fannedOut),
    // One delivery per event and endpoint.
    outboxEvents: since.raised.size / ENDPOINTS,
  };
}

function printRun(r: RunResult): void {
  console.log(`\n-- ${r.label}`);
  for (const line of r.load.stepLog) console.log(`   ${line}`);
  console.log(`   wall time: ${r.phases.map(([name, s]) => `${name} ${s.toFixed(1)} s`).join(", ")}`);
  for (const c of r.checks) console.log(`   ${c.pass ? "PASS" : "FAIL"}  ${c.rule}: ${c.detail}`);
}

function printSideBySide(runs: RunResult[]): void {
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  const rows: Array<[string, (f: Figures) => string]> = [
    ["requests answered", (f) => String(f.requests)],
    ["requests/s", (f) => f.rps.toFixed(0)],
    ["all p50 / p99", (f) => `${ms(f.byOp.all.p50)} / ${ms(f.byOp.all.p99)}`],
    ["adds p50 / p99", (f) => `${ms(f.byOp.add.p50)} / ${ms(f.byOp.add.p99)}  (${f.byOp.add.n})`],
    ["lookups p50 / p99", (f) => `${ms(f.byOp.lookup.p50)} / ${ms(f.byOp.lookup.p99)}  (${f.byOp.lookup.n})`],
    ["lists p50 / p99", (f) => `${ms(f.byOp.list.p50)} / ${ms(f.byOp.list.p99)}  (${f.byOp.list.n})`],
    ["outbox events", (f) => String(f.outboxEvents)],
    ["deliveries", (f) => String(f.deliveries)],
    ["deliveries/s (first→last)", (f) => f.deliveriesPerS.toFixed(0)],
    ["deliveries, busiest second", (f) => String(f.peakDeliveriesPerS)],
    ["event raised→received p50/p99", (f) => `${ms(f.eventToReceiver.p50)} / ${ms(f.eventToReceiver.p99)}`],
    ["fanned out→received p50/p99", (f) => `${ms(f.fanOutToReceiver.p50)} / ${ms(f.fanOutToReceiver.p99)}`],
  ];
  const w = 30;
  console.log(`\n${"".padEnd(w)}${runs.map((r) => r.label.padEnd(34)).join("")}`);
  for (const [name, get] of rows)
    console.log(`${name.padEnd(w)}${runs.map((r) => get(r.figures).padEnd(34)).join("")}`);
}

// ---- main -------------------------------------------------------------------------------------------

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    seconds: { type: "string", default: "15" },
    concurrency: { type: "string", default: "32" },
    orgs: { type: "string", default: "1" },
    only: { type: "string" },
  },
});
const seconds = Number(values.seconds);
const concurrency = Number(values.concurrency);
const orgs = Number(values.orgs);
if (!(seconds >= 4) || !(concurrency >= 2) || !(orgs >= 1 && orgs <= concurrency))
  throw new Error("--seconds must be >= 4, --concurrency >= 2, --orgs from 1 to the concurrency");
if (values.only && values.only !== "postgres" && values.only !== "sqlite")
  throw new Error("--only takes postgres or sqlite");

const dir = mkdtempSync(join(tmpdir(), "portolan-bench-scale-"));
cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
const runs: RunResult[] = [];
try {
  const certs = makeCertificates(dir);
  const receiver = startReceiver(certs);
  cleanups.push(() => receiver.stop());
  // The carrier's world anchored on today, its clock far enough back that both steps stay behind
  // the API's own clock (a carrier's events from the future are refused).
  const today = new Date(new Date().toISOString().slice(0, 10)).toISOString();
  const sandboxStart = new Date(Date.now() - (2 * ADVANCE_HOURS + 24) * 3_600_000).toISOString();
  const setup0 = performance.now();
  const sandbox = await startSandbox({ SANDBOX_EPOCH: today, SANDBOX_START: sandboxStart });
  cleanups.push(() => sandbox.stop());
  const common = {
    sandbox,
    sandboxStart,
    receiver,
    caFile: certs.ca,
    keys: `scale:${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64")}`,
    seconds,
    concurrency,
    orgs,
  };
  console.log(
    `set-up (certificates, receiver, sandbox carrier): ${((performance.now() - setup0) / 1000).toFixed(1)} s`,
  );
  console.log(
    `scale-out: 2 API processes, 2 pollers, 2 dispatchers; ${concurrency} clients of ${orgs} organisation(s) for ${seconds} s ` +
      `(adds 5/10, lookups 3/10, list reads 2/10), SIGKILL to one API process at ${seconds / 2} s`,
  );
  if (values.only !== "sqlite") {
    const pg = await startPostgres();
    cleanups.push(() => pg.stop());
    runs.push(await runOn("PostgreSQL + Redis", pg.url, common));
    printRun(runs.at(-1)!);
  }
  if (values.only !== "postgres") {
    runs.push(await runOn("SQLite file + Redis", join(dir, "scale.sqlite"), common));
    printRun(runs.at(-1)!);
  }
  console.log(
    "\nRedis carries the rate window and the wake-ups in both runs; the SQLite run has no PostgreSQL.",
  );
  printSideBySide(runs);
} finally {
  await killEverything();
}
// Now, not when the last request's timeout timer would let the process end on its own.
process.exit(runs.some((r) => r.checks.some((c) => !c.pass)) ? 1 : 0);
