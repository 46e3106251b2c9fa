/**
 * The dispatcher role: turns outbox rows into deliveries, claims due deliveries under a lease,
 * POSTs them and records every attempt. Several dispatchers (processes) can share one database:
 * claims are exclusive, and a killed dispatcher's leases run out so its deliveries are sent again
 * with the same id and bytes (at-least-once; receivers deduplicate on the id).
 *
 * Attempts never block the loop: a pass claims into free slots and returns, each attempt records
 * and wakes a pass when it ends. Slots are bounded per dispatcher (concurrency), per endpoint
 * (endpointConcurrency) and per organisation (orgConcurrency; slots.ts), so a receiver that hangs
 * until the timeout holds only its endpoint's share, and one organisation's only its share.
 *
 * Each POST goes to the address checked, with the original Host and SNI (./pinned-post.ts), so DNS
 * rebinding cannot slip in between.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { rootCertificates } from "node:tls";
import { errorLine } from "../../common/log.ts";
import { deliveryAttempts, deliveryLag } from "../../common/metrics.ts";
import type { Wakeups } from "../../ingest/wakeups.ts";
import type { Storage } from "../../storage/storage.ts";
import type { AttemptPolicy, AttemptResult, Claimed, Webhooks } from "../../storage/webhooks.ts";
import { WEBHOOK_PRODUCTS, type WebhookProduct } from "./catalogue.ts";
import type { WebhookConfig } from "./config.ts";
import { fetchPinned, type PinnedPost } from "./pinned-post.ts";
import { accepted, attemptPolicy } from "./policy.ts";
import { SecretBox } from "./secrets.ts";
import { InFlight } from "./slots.ts";
import {
  checkLoopback,
  checkTarget,
  isBlockedAddress,
  type Resolve,
  resolverFor,
  TargetRefused,
} from "./ssrf.ts";
import { hmacKey, sign } from "./verify.ts";

/** Response bytes kept for the attempt record, and the most ever read from a receiver. */
export const EXCERPT_BYTES = 1024;

/**
 * Stepping over the due rows of full endpoints and organisations (Webhooks.claim,
 * storage/webhook-claims.ts) seeks the head of every endpoint with pending deliveries, so after a
 * step of s ms the next waits STEP_OVER_COST_FACTOR x s (at least 1 ms): steps stay under ~5 % of
 * a core however many endpoints wait, and cheap ones can run often. Passes in between serve the
 * head of the queue only.
 */
const STEP_OVER_COST_FACTOR = 20;

/** Deterministic per (event, endpoint), so a fan-out repeated by another dispatcher creates nothing new. */
export function deliveryIdFor(eventId: string, endpointId: string): string {
  const h = createHash("sha256").update(`${eventId}\n${endpointId}`).digest("hex");
  // UUID layout, version 8 (custom), RFC 9562 variant.
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((Number.parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The User-Agent and X-<Product>-* header names of a product's deliveries, as the spec spells them. */
export function deliveryHeaderNames(product: WebhookProduct) {
  const tag = WEBHOOK_PRODUCTS[product].tag;
  const x = `X-${tag}`;
  return {
    agent: `${tag}-Webhooks/1`,
    event: `${x}-Event`,
    delivery: `${x}-Delivery`,
    signature: `${x}-Signature`,
  };
}

export function deliveryHeaders(product: WebhookProduct, type: string, id: string, signature: string) {
  const names = deliveryHeaderNames(product);
  return {
    "content-type": "application/json",
    "user-agent": names.agent,
    [names.event]: type,
    [names.delivery]: id,
    [names.signature]: signature,
  };
}

interface Outcome {
  statusCode: number | null;
  error: string | null;
  excerpt: string | null;
}

/** `work`, or the signal's reason once it fires first (the work itself cannot be cancelled). */
function bounded<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    const done = () => signal.removeEventListener("abort", onAbort);
    work.then(
      (v) => {
        done();
        resolve(v);
      },
      (err) => {
        done();
        reject(err);
      },
    );
  });
}

function describe(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; code?: string; message?: string };
  if (e.name === "TimeoutError" || e.name === "AbortError") return `timeout after ${timeoutMs} ms`;
  if (e.code === "ECONNRESET") return "connection reset by the receiver";
  if (e.code === "ECONNREFUSED") return "connection refused";
  return `${e.code ?? e.name ?? "error"}: ${e.message ?? String(err)}`.slice(0, 300);
}

/** Reads at most EXCERPT_BYTES of a response body and drops the rest. */
async function excerptOf(res: Response): Promise<string | null> {
  if (!res.body) return null;
  const reader = res.body.getReader();
  const buf = new Uint8Array(EXCERPT_BYTES);
  let size = 0;
  try {
    while (size < EXCERPT_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      const take = Math.min(value.byteLength, EXCERPT_BYTES - size);
      buf.set(value.subarray(0, take), size);
      size += take;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  return size === 0 ? null : new TextDecoder().decode(buf.subarray(0, size));
}

export interface DispatcherOptions {
  now?: () => number;
  log?: (...args: unknown[]) => void;
  /** Overrides the resolver built from the configuration (PORTOLAN_WEBHOOK_RESOLVE, then DNS). */
  resolve?: Resolve;
  /** Outbox rows written by other processes wake a sweep at once instead of at the next interval. */
  wakeups?: Wakeups;
  /** The runtime's HTTPS client for pinned POSTs (Bun's fetch unless the entry hands another). */
  post?: PinnedPost;
}

/** An attempt in the metrics: its outcome, and for a delivered event the time since it occurred. */
function counted(c: Claimed, delivered: boolean, nowMs: number): void {
  deliveryAttempts.inc({ outcome: delivered ? "delivered" : "failed" });
  if (!delivered) return;
  const occurred = Date.parse((JSON.parse(c.delivery.body) as { occurred_at: string }).occurred_at);
  if (Number.isFinite(occurred)) deliveryLag.observe(Math.max(0, nowMs - occurred) / 1000);
}

export class Dispatcher {
  readonly owner = `${hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
  private readonly store: Webhooks;
  private readonly policy: AttemptPolicy;
  private readonly now: () => number;
  private readonly log: (...args: unknown[]) => void;
  private readonly resolve: Resolve;
  private readonly ca: string[] | undefined;
  private readonly post: PinnedPost;
  private readonly keys = new Map<string, { sealed: string; key: Promise<CryptoKey> }>();
  private readonly inFlight = new Set<Promise<void>>();
  /** Attempts in flight per endpoint and per organisation. */
  private readonly busy = new InFlight();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private wakeQueued = false;
  private results: AttemptResult[] = [];
  private lastSweep = Number.NEGATIVE_INFINITY;
  /** this.now() from which the next claim may step over capped endpoints' backlogs. */
  private stepOverFrom = Number.NEGATIVE_INFINITY;
  private stopped = false;
  private unsubscribe: (() => void) | null = null;
  /** The pass running now (its statements are awaited), and whether another was asked for meanwhile. */
  private passing: Promise<void> | null = null;
  private passAgain = false;

  private constructor(
    storage: Storage,
    private readonly cfg: WebhookConfig,
    private readonly box: SecretBox,
    opts: DispatcherOptions,
  ) {
    this.store = storage.webhooks;
    this.policy = attemptPolicy(cfg);
    this.now = opts.now ?? Date.now;
    this.log = opts.log ?? errorLine("webhooks");
    this.resolve = opts.resolve ?? resolverFor(cfg);
    this.post = opts.post ?? fetchPinned;
    // A CA list replaces the default trust store, so the public roots go in with the extra ones.
    this.ca = cfg.caFile ? [...rootCertificates, readFileSync(cfg.caFile, "utf8")] : undefined;
  }

  static async start(
    storage: Storage,
    cfg: WebhookConfig,
    opts: DispatcherOptions = {},
  ): Promise<Dispatcher> {
    const d = new Dispatcher(storage, cfg, await SecretBox.create(cfg), opts);
    d.unsubscribe = opts.wakeups?.on("webhooks.outbox", () => d.outboxWritten()) ?? null;
    d.wake();
    return d;
  }

  /**
   * A lease outlives the attempt, which the timeout bounds from the address check to the last byte
   * read, with room for a busy event loop and a write lock held by another process while recording.
   */
  private get leaseMs(): number {
    return 2 * this.cfg.timeoutMs + 1000;
  }

  /** New outbox rows: the next pass sweeps them whatever the sweep interval says. */
  outboxWritten(): void {
    this.lastSweep = Number.NEGATIVE_INFINITY;
    this.wake();
  }

  /** Looks for work soon; calls in the same turn (e.g. many attempts finishing) share one pass. */
  wake(): void {
    if (this.stopped || this.wakeQueued) return;
    this.wakeQueued = true;
    setImmediate(() => {
      this.wakeQueued = false;
      this.pass();
    });
  }

  /**
   * One pass: record what finished, fan out new outbox rows (at most once per sweep interval), then
   * fill the free slots with due deliveries, within each endpoint's cap, and return without waiting
   * for any of them. Finishing attempts wake the next pass; otherwise it runs when the next delivery
   * is due or the next sweep is, even while every slot is busy, so fan-out never waits on attempts.
   */
  private pass(): void {
    if (this.stopped) return;
    // One pass at a time: a second would claim against the same in-flight counts.
    if (this.passing) {
      this.passAgain = true;
      return;
    }
    this.passing = this.passOnce().finally(() => {
      this.passing = null;
      if (this.passAgain) {
        this.passAgain = false;
        this.wake();
      }
    });
  }

  private async passOnce(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    // After a failed pass (say the database stayed locked), try again soon but without spinning.
    let wait = Math.min(this.cfg.sweepMs, 1000);
    const results = this.results;
    this.results = [];
    let recorded = false;
    const now = this.now();
    if (now - this.lastSweep >= this.cfg.sweepMs) {
      this.lastSweep = now;
      try {
        while ((await this.store.fanOut(now, deliveryIdFor)) > 0) {}
      } catch (err) {
        this.log("[webhooks] fan-out failed:", err); // the next sweep tries again; recording goes on
      }
    }
    try {
      const stepOver = now >= this.stepOverFrom;
      const lim = {
        limit: this.cfg.concurrency - this.inFlight.size,
        admission: this.busy.admission(this.cfg),
        stepOver,
      };
      // What finished since the last pass is recorded in the claim's transaction.
      const { claimed, held, stepMs, nextDue } = await this.store.claim(this.owner, now, this.leaseMs, lim, {
        results,
        policy: this.policy,
      });
      recorded = true;
      if (stepMs > 0) this.stepOverFrom = now + Math.max(1, STEP_OVER_COST_FACTOR * stepMs);
      for (const c of claimed) this.launch(c);
      wait = this.lastSweep + this.cfg.sweepMs - now;
      if (nextDue !== null) wait = Math.min(wait, nextDue - now);
      // Deliveries may be waiting behind a full endpoint's or organisation's backlog: come back to step over it.
      if (held) wait = Math.min(wait, this.stepOverFrom - now);
    } catch (err) {
      this.log("[webhooks] claim failed:", err);
      // Rolled back: keep the results for the next pass rather than send those deliveries again.
      if (!recorded) this.results = results.concat(this.results);
    }
    if (this.stopped) return;
    this.timer = setTimeout(() => this.pass(), Math.max(1, wait));
  }

  private launch(c: Claimed): void {
    const { id, orgId } = c.endpoint;
    this.busy.started(id, orgId);
    const run: Promise<void> = this.attempt(c)
      .catch((err) => this.log("[webhooks]", err))
      .finally(() => {
        this.inFlight.delete(run);
        this.busy.ended(id, orgId);
        this.wake();
      });
    this.inFlight.add(run);
  }

  private signingKey(c: Claimed): Promise<CryptoKey> {
    const { endpoint } = c;
    const cached = this.keys.get(endpoint.id);
    if (cached && cached.sealed === endpoint.secretSealed) return cached.key;
    const key = (async () => {
      const sealed = { keyId: endpoint.secretKeyId, blob: endpoint.secretSealed };
      const secret = await this.box.open(sealed, endpoint.id);
      if (sealed.keyId !== this.box.currentKeyId) {
        await this.store.reseal(endpoint.id, sealed, await this.box.seal(secret, endpoint.id));
      }
      return hmacKey(secret, "sign");
    })();
    this.keys.set(endpoint.id, { sealed: endpoint.secretSealed, key });
    key.catch(() => this.keys.delete(endpoint.id));
    return key;
  }

  private async attempt(c: Claimed): Promise<void> {
    const startedAt = this.now();
    const t0 = performance.now();
    // One deadline for the whole attempt, DNS included: the lease is sized on it.
    const deadline = AbortSignal.timeout(this.cfg.timeoutMs);
    const outcome = await this.send(c, deadline).catch(
      (err): Outcome => ({ statusCode: null, error: describe(err, this.cfg.timeoutMs), excerpt: null }),
    );
    const result: AttemptResult = {
      deliveryId: c.delivery.id,
      attempt: c.delivery.attemptCount,
      owner: this.owner,
      startedAt,
      durationMs: performance.now() - t0,
      ...outcome,
    };
    // Recorded by the next pass, together with whatever else finished in the same turn.
    this.results.push(result);
    counted(c, accepted(outcome.statusCode), this.now());
  }

  private async send(c: Claimed, deadline: AbortSignal): Promise<Outcome> {
    const { delivery, endpoint } = c;
    const target = new URL(endpoint.url);
    let addresses: string[];
    try {
      const check = endpoint.localCa
        ? checkLoopback(target, this.resolve)
        : checkTarget(target, this.resolve, this.cfg.allowPrivate);
      addresses = await bounded(check, deadline);
    } catch (err) {
      if (err instanceof TargetRefused)
        return { statusCode: null, error: `refused: ${err.message}`, excerpt: null };
      throw err;
    }
    const ip = addresses[0]!;
    const host = target.hostname.replace(/^\[|\]$/g, "");
    const literal = isBlockedAddress(host) !== null;
    const signature = await bounded(
      this.signingKey(c).then((key) => sign(delivery.body, key)),
      deadline,
    );
    const url = `https://${ip.includes(":") ? `[${ip}]` : ip}${target.port ? `:${target.port}` : ""}${target.pathname}${target.search}`;
    const res = await this.post({
      url,
      body: delivery.body,
      headers: {
        ...deliveryHeaders(endpoint.product as WebhookProduct, delivery.eventType, delivery.id, signature),
        host: target.host,
      },
      signal: deadline,
      serverName: literal ? null : host,
      ...this.trust(endpoint.localCa),
    });
    // The status decides; a body that stalls or breaks off after it only costs the excerpt.
    const excerpt = await excerptOf(res).catch(() => null);
    if (accepted(res.status)) return { statusCode: res.status, error: null, excerpt };
    const error =
      res.status >= 300 && res.status < 400
        ? `HTTP ${res.status}: redirect to ${res.headers.get("location") ?? "(no location)"} not followed`
        : `HTTP ${res.status}`;
    return { statusCode: res.status, error, excerpt };
  }

  /** A local listener's endpoint trusts its own CA and nothing else; the others the configured roots. */
  private trust(localCa: string | null): { ca?: string[] } {
    if (localCa) return { ca: [localCa] };
    return this.ca ? { ca: this.ca } : {};
  }

  private async flush(now: number): Promise<void> {
    const done = this.results;
    this.results = [];
    await this.store.record(done, this.policy, now);
  }

  /** Stops sweeping and waits for attempts in flight to be recorded. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    if (this.timer) clearTimeout(this.timer);
    // The pass under way may still launch attempts: wait for it before counting those in flight.
    await this.passing;
    await Promise.allSettled([...this.inFlight]);
    await this.flush(this.now());
  }
}
